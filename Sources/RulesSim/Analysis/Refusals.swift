import RulesEngine

/// The events the rules refused while a log was replayed (each changed nothing, as in a
/// simulation): how many by the engine's code, and the first few of each with their user, line
/// and message — what `fit` reports of a log that contradicts the rules.
package struct Refusals: Sendable, Equatable {
    package private(set) var counts: [String: Int] = [:]
    package private(set) var examples: [String: [String]] = [:]
    /// Examples kept per code.
    package static let examplesKept = 3

    package init() {}

    package var total: Int { counts.values.reduce(0, +) }

    /// Notes that `error` refused event `index` of `user`'s events.
    mutating func note(_ error: any Error, user: String, line: Int?) {
        let code = (error as? EngineError)?.code.rawValue ?? "ERROR"
        counts[code, default: 0] += 1
        guard examples[code, default: []].count < Self.examplesKept else { return }
        let message = (error as? EngineError)?.message ?? "\(error)"
        examples[code, default: []].append((line.map { "line \($0): " } ?? "") + "\(user): \(message)")
    }

    /// Adds `other`'s, its examples after these.
    mutating func add(_ other: Refusals) {
        for (code, n) in other.counts { counts[code, default: 0] += n }
        for (code, list) in other.examples {
            examples[code, default: []] += list.prefix(Self.examplesKept - examples[code, default: []].count)
        }
    }

    /// The codes, most frequent first (ties: by code).
    package var codes: [String] { counts.keys.sorted { (-counts[$0]!, $0) < (-counts[$1]!, $1) } }
}

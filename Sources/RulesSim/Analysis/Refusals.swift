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
        places[code, default: []].append(line ?? 0)
    }

    /// Each example's place in the input (``KeptExamples``): its user's position.
    package private(set) var places: [String: [Int]] = [:]

    /// Adds `other`'s, its examples after these (at `place`: those of one user; nil: at their own).
    mutating func add(_ other: Refusals, place: Int? = nil) {
        for (code, n) in other.counts { counts[code, default: 0] += n }
        for (code, list) in other.examples {
            let taken = list.prefix(Self.examplesKept - examples[code, default: []].count)
            examples[code, default: []] += taken
            places[code, default: []] += taken.indices.map { i in place ?? other.places[code]?[i] ?? 0 }
        }
    }

    /// Adds `count` refusals of `code` with their `examples` at their `places` (a shard's, read back).
    package mutating func add(_ code: String, count: Int, examples: [(place: Int, text: String)]) {
        var other = Refusals()
        other.counts[code] = count
        (other.examples[code], other.places[code]) = (examples.map(\.text), examples.map(\.place))
        add(other)
    }

    /// The refusals of parts of one log read apart (shards of its users), as replaying the whole
    /// gives them: the counts added, the first examples by place.
    package static func merged(_ parts: [Refusals]) -> Refusals {
        var sum = Refusals()
        for code in Set(parts.flatMap(\.counts.keys)) {
            sum.counts[code] = parts.reduce(0) { $0 + ($1.counts[code] ?? 0) }
            let kept = KeptExamples.first(
                parts.map { zip($0.places[code] ?? [], $0.examples[code] ?? []).map { (place: $0, text: $1) } }, kept: examplesKept)
            if !kept.isEmpty { (sum.places[code], sum.examples[code]) = (kept.map(\.place), kept.map(\.text)) }
        }
        return sum
    }

    /// Equal when they count and show the same (the places are how they were read).
    package static func == (a: Refusals, b: Refusals) -> Bool { (a.counts, a.examples) == (b.counts, b.examples) }

    /// The codes, most frequent first (ties: by code).
    package var codes: [String] { counts.keys.sorted { (-counts[$0]!, $0) < (-counts[$1]!, $1) } }
}

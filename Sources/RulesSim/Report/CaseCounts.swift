/// Integer counts by the cases of an enum (unlock methods, denial reasons, quest outcomes), in the
/// enum's order; in JSON an object keyed by the raw values (`{"CREDITS": 3, "QUEST": 1, …}`), read
/// back with absent keys as 0.
package struct CaseCounts<Key: CaseIterable & RawRepresentable & Sendable>: Codable, Sendable, Equatable where Key.RawValue == String {
    private var counts: [Int]

    package init() { counts = Array(repeating: 0, count: Key.allCases.count) }

    private static func index(_ key: Key) -> Int { Key.allCases.map(\.rawValue).firstIndex(of: key.rawValue)! }

    package subscript(key: Key) -> Int {
        get { counts[Self.index(key)] }
        set { counts[Self.index(key)] = newValue }
    }

    /// (key, count) in the enum's order.
    package var entries: [(Key, Int)] { Array(zip(Key.allCases, counts)) }

    package var total: Int { counts.reduce(0, +) }

    package mutating func add(_ other: CaseCounts) {
        for i in counts.indices { counts[i] += other.counts[i] }
    }

    private struct Name: CodingKey {
        var stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Name.self)
        counts = try Key.allCases.map { try c.decodeIfPresent(Int.self, forKey: Name(stringValue: $0.rawValue)) ?? 0 }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Name.self)
        for (key, n) in entries { try c.encode(n, forKey: Name(stringValue: key.rawValue)) }
    }
}

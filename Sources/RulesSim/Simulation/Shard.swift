import RulesEngine

/// One slice of a cohort, `i/n` (1-based): users are split into n contiguous ranges of indexes.
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    package var index: Int
    package var count: Int

    package static let whole = Shard(index: 1, count: 1)

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    package init(_ text: String) throws(SimulationError) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(i) else {
            throw SimulationError("invalid shard \"\(text)\": expected i/n with 1 ≤ i ≤ n, e.g. 1/4")
        }
        index = i
        count = n
    }

    /// The user indexes of this shard in a cohort of `users`.
    package func users(of users: Int) -> Range<Int> {
        // In 128 bits: users × index does not fit in 64 for large shard counts.
        Int(Int128(users) * Int128(index - 1) / Int128(count))..<Int(Int128(users) * Int128(index) / Int128(count))
    }

    package var description: String { "\(index)/\(count)" }

    /// Why `parts` (each a shard with the name of its file) are not every shard i/n of one n once
    /// (`analyze` and `fit` shards merged), nil when they are: the file of another n, a shard given
    /// twice, the shards missing.
    package static func incomplete(_ parts: [(shard: Shard, name: String)]) -> String? {
        guard let first = parts.first else { return "nothing to merge" }
        let n = first.shard.count
        var seen: [Int: String] = [:]
        for (shard, name) in parts {
            guard shard.count == n else { return "\(name): shard \(shard), but \(first.name) is one of \(n)" }
            if let other = seen[shard.index] { return "\(name) and \(other) are both shard \(shard)" }
            seen[shard.index] = name
        }
        let missing = (1...n).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            return "shards \(missing.map { "\($0)/\(n)" }.joined(separator: ", ")) are missing: give every shard's report"
        }
        return nil
    }

    /// Whether the user named `name` is in this shard of a log's users (`analyze --shard`): by a
    /// hash of the name (FNV-1a, 64 bits), the same on every machine.
    package func holds(user name: String) -> Bool {
        guard count > 1 else { return true }
        var digest = FNV64()
        digest.add(name)
        return Int((UInt64(digest.hex, radix: 16) ?? 0) % UInt64(count)) == index - 1
    }
}

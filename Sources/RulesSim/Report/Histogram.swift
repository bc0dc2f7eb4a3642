/// Counts of users by an integer value (a streak, a credit balance): `counts[n]` users have the
/// value n. Only integers, so that histograms of parts add up exactly to the histogram of the whole.
enum Histogram {
    /// The longest histogram a report read back may hold (values 0 to 99,999: a streak is at most
    /// 3,660 days counted).
    static let maxValues = 100_000

    /// Counts one more user with `value`.
    static func count(_ value: Int, into counts: inout [Int]) {
        if counts.count <= value { counts += Array(repeating: 0, count: value + 1 - counts.count) }
        counts[value] += 1
    }

    /// Adds another histogram's counts.
    static func add(_ other: [Int], to counts: inout [Int]) {
        if counts.count < other.count { counts += Array(repeating: 0, count: other.count - counts.count) }
        // Walked by index (an `enumerated()` loop: 0.5 % of the test suite's CPU in a debug build).
        var i = 0
        while i < other.count {
            counts[i] += other[i]
            i += 1
        }
    }

    /// The rank (1…`total`) of the `p`-th percentile of `total` values, by the nearest-rank method.
    static func nearestRank(_ p: Int, of total: Int) -> Int { max(1, (total * p + 99) / 100) }

    /// The smallest value that at least `p` percent of the users have or are below (nearest rank).
    static func percentile(_ p: Int, of counts: [Int]) -> Int {
        let total = counts.reduce(0, +)
        guard total > 0 else { return 0 }
        let rank = nearestRank(p, of: total)
        var cumulative = 0
        for (value, n) in counts.enumerated() {
            cumulative += n
            if cumulative >= rank { return value }
        }
        return counts.count - 1
    }

    /// The largest value anyone has (0 when empty).
    static func maximum(of counts: [Int]) -> Int { max(0, (counts.lastIndex { $0 > 0 } ?? 0)) }
}

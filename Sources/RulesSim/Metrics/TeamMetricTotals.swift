import RulesModel

/// One team metric's counts for a day (or a run: the sum of its days), in whole numbers so that
/// the totals of parts (workers, shards, groups) add up to the whole's exactly in any order: values
/// are kept in millionths.
package struct TeamMetricTotals: Sendable, Equatable {
    package var id: String
    /// The user-days that had a value (the function returned a number or a boolean).
    package var userDays = 0
    /// The sum of the values, in millionths.
    package var sumMillionths: Int64 = 0
    /// The user-days whose value was not 0.
    package var nonzero = 0
    /// The users whose first value, and whose first value other than 0, was on this day.
    package var users = 0
    package var usersNonzero = 0
    /// For a percentile: the user-days by value (in millionths).
    package var values: [Int64: Int] = [:]

    package init(id: String) { self.id = id }

    /// The largest value (in absolute terms) a metric may give: sums of millions of user-days
    /// stay exact in millionths.
    package static let maxValue = 1_000_000.0

    /// The sum of the values.
    package var sum: Double { Double(sumMillionths) / 1_000_000 }

    /// A value in millionths (`value` at most ``maxValue`` in absolute terms).
    static func millionths(_ value: Double) -> Int64 { Int64((value * 1_000_000).rounded()) }

    /// Counts one user-day's value; `first` and `firstNonzero` when it is the user's first value
    /// (other than 0); `keepsValues` for a percentile.
    mutating func count(_ value: Double, first: Bool, firstNonzero: Bool, keepsValues: Bool) {
        let v = Self.millionths(value)
        userDays += 1
        sumMillionths = sumMillionths &+ v
        if v != 0 { nonzero += 1 }
        if first { users += 1 }
        if firstNonzero { usersNonzero += 1 }
        if keepsValues { values[v, default: 0] += 1 }
    }

    mutating func add(_ other: TeamMetricTotals) {
        userDays += other.userDays
        sumMillionths = sumMillionths &+ other.sumMillionths
        nonzero += other.nonzero
        users += other.users
        usersNonzero += other.usersNonzero
        for (v, n) in other.values { values[v, default: 0] += n }
    }

    /// The smallest value that at least `p` percent of the user-days have or are below (nearest rank).
    func percentile(_ p: Int) -> Double {
        let total = values.values.reduce(0, +)
        guard total > 0 else { return 0 }
        let rank = Histogram.nearestRank(p, of: total)
        var cumulative = 0
        for (v, n) in values.sorted(by: { $0.key < $1.key }) {
            cumulative += n
            if cumulative >= rank { return Double(v) / 1_000_000 }
        }
        return 0
    }

    /// Why these counts cannot be a day's (a message naming the field at `path`), nil when they can.
    func problem(users n: Int, at path: String) -> String? {
        let kept = values.values.reduce(0, +)
        if userDays < 0 || nonzero < 0 || users < 0 || usersNonzero < 0 || values.values.contains(where: { $0 < 0 }) {
            return "\(path): negative counts"
        }
        if userDays > n { return "\(path).user_days: \(userDays), expected at most the report's \(n) users" }
        if nonzero > userDays { return "\(path).nonzero: \(nonzero), expected at most user_days \(userDays)" }
        if users > userDays { return "\(path).users: \(users), expected at most user_days \(userDays)" }
        if usersNonzero > nonzero { return "\(path).users_nonzero: \(usersNonzero), expected at most nonzero \(nonzero)" }
        if !values.isEmpty, kept != userDays { return "\(path).values: counts \(kept) user-days, expected user_days \(userDays)" }
        return nil
    }
}

extension TeamMetricTotals: Codable {
    enum CodingKeys: String, CodingKey {
        case id, userDays = "user_days", sum, nonzero, users, usersNonzero = "users_nonzero", values
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(String.self, forKey: .id) ?? ""
        userDays = try c.decode(Int.self, forKey: .userDays)
        sumMillionths = Self.millionths(try c.decode(Double.self, forKey: .sum))
        nonzero = try c.decode(Int.self, forKey: .nonzero)
        users = try c.decode(Int.self, forKey: .users)
        usersNonzero = try c.decode(Int.self, forKey: .usersNonzero)
        for pair in try c.decodeIfPresent([[Double]].self, forKey: .values) ?? [] {
            guard pair.count == 2, let n = Int(exactly: pair[1]) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .values, in: c, debugDescription: "expected pairs [value, user-days], found \(pair)")
            }
            values[Self.millionths(pair[0]), default: 0] += n
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(userDays, forKey: .userDays)
        try c.encode(sum, forKey: .sum)
        try c.encode(nonzero, forKey: .nonzero)
        try c.encode(users, forKey: .users)
        try c.encode(usersNonzero, forKey: .usersNonzero)
        if !values.isEmpty { try c.encode(sortedValues.map { [Double($0.0) / 1_000_000, Double($0.1)] }, forKey: .values) }
    }

    private var sortedValues: [(Int64, Int)] { values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }

    /// The counts in a day of a JSON report (under the metric's id in `team_metrics`), as
    /// ``init(from:)`` reads them back.
    var countMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("user_days", .int(userDays)), ("sum", .double(sum)), ("nonzero", .int(nonzero)),
            ("users", .int(users)), ("users_nonzero", .int(usersNonzero)),
        ]
        if !values.isEmpty {
            members.append(("values", .array(sortedValues.map { .array([.double(Double($0.0) / 1_000_000), .int($0.1)]) })))
        }
        return members
    }
}

import RulesModel

/// A metric a team defines in its rule folder's `metrics.lua` (``TeamMetrics``): a Lua function over
/// one user's day gives a value, and the run's figure aggregates the values of every user-day as
/// ``Aggregate`` says. Reports carry the declaration (not the function), so that `merge`,
/// `compare` and the analysis of logs read the figure as `simulate` computed it.
package struct TeamMetric: Sendable, Equatable {
    /// How the values of the user-days make the run's figure (and a day's).
    package enum Aggregate: Sendable, Equatable {
        /// The mean over the user-days that have a value (a day's: over that day's users).
        case mean
        /// The sum over the run divided by the users that had a value on some day (a day's: the mean).
        case perUser
        /// The share of users whose value was not 0 (or true) on at least one day (a day's: the
        /// share of that day's users with such a value).
        case shareOfUsers
        /// The `p`-th percentile (nearest rank) of the user-days' values (a day's: of that day's).
        case percentile(Int)

        /// Its name in `metrics.lua` and reports: `mean`, `per_user`, `share_of_users`, `p90`.
        package var name: String {
            switch self {
            case .mean: "mean"
            case .perUser: "per_user"
            case .shareOfUsers: "share_of_users"
            case .percentile(let p): "p\(p)"
            }
        }

        /// The aggregate `name` stands for, nil for another name.
        package init?(name: String) {
            switch name {
            case "mean": self = .mean
            case "per_user": self = .perUser
            case "share_of_users": self = .shareOfUsers
            default:
                guard name.hasPrefix("p"), let p = Int(name.dropFirst()), (1...99).contains(p), name == "p\(p)" else { return nil }
                self = .percentile(p)
            }
        }

        static let names = "mean, per_user, share_of_users or p1 to p99"

        /// Whether the day's values are kept one by one (a percentile's).
        var keepsValues: Bool { if case .percentile = self { true } else { false } }
    }

    package var id: String
    package var label: String
    /// The app whose users' days it is computed on (`cohort`: every active user's).
    package var app: Metric.App
    package var unit: Metric.Unit
    package var aggregate: Aggregate

    package init(id: String, label: String, app: Metric.App, unit: Metric.Unit, aggregate: Aggregate) {
        self.id = id
        self.label = label
        self.app = app
        self.unit = unit
        self.aggregate = aggregate
    }

    /// The units a metric may name in `metrics.lua` (snake_case), with their ``Metric/Unit``.
    static let units: [(name: String, unit: Metric.Unit)] = [
        ("share", .share), ("count", .count), ("per_user_day", .perUserDay), ("days", .days), ("credits", .credits),
        ("credits_per_unlock", .creditsPerUnlock),
    ]

    package var unitName: String { Self.units.first { $0.unit == unit }!.name }

    /// The figure as reports read it (``MetricRegistry``): from the run's totals, and a day's.
    package var metric: Metric {
        let id = id, aggregate = aggregate
        return Metric(
            id, label, unit: unit, app: app, ratio: ratio,
            summary: { s in Self.value(aggregate, of: s.habitTotals.team(id), users: true) },
            day: { d in Self.value(aggregate, of: d.team(id), users: false) })
    }

    /// The figure as a ratio of sums over the users (`analyze`'s), nil for a percentile: the mean
    /// over user-days (the delta method's ratio), or per user among those that had a value.
    private var ratio: Metric.Ratio? {
        let id = id
        let totals = { @Sendable (s: ReportSummary) in s.habitTotals.team(id) }
        switch aggregate {
        case .mean: return .init({ totals($0)?.sum ?? 0 }, per: { Double(totals($0)?.userDays ?? 0) })
        case .perUser: return .init(perUser: { totals($0)?.sum ?? 0 }, followed: { Double(totals($0)?.users ?? 0) })
        case .shareOfUsers:
            return .init(perUser: { Double(totals($0)?.usersNonzero ?? 0) }, followed: { Double(totals($0)?.users ?? 0) })
        case .percentile: return nil
        }
    }

    /// The figure of `totals` (a day's, or the run's sum of days'): `users` for the run's figure
    /// (per user and share of users count users, not user-days).
    static func value(_ aggregate: Aggregate, of totals: TeamMetricTotals?, users: Bool) -> Double {
        guard let t = totals, t.userDays > 0 else { return 0 }
        switch aggregate {
        case .mean: return t.sum / Double(t.userDays)
        case .perUser: return users ? t.sum / Double(max(1, t.users)) : t.sum / Double(t.userDays)
        case .shareOfUsers: return users ? Double(t.usersNonzero) / Double(max(1, t.users)) : Double(t.nonzero) / Double(t.userDays)
        case .percentile(let p): return t.percentile(p)
        }
    }
}

extension TeamMetric: Codable {
    enum CodingKeys: String, CodingKey { case id, label, app, unit, aggregate }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        label = try c.decode(String.self, forKey: .label)
        let appName = try c.decode(String.self, forKey: .app)
        let unitName = try c.decode(String.self, forKey: .unit)
        let aggregateName = try c.decode(String.self, forKey: .aggregate)
        guard let app = Metric.App(rawValue: appName) else {
            throw DecodingError.dataCorruptedError(forKey: .app, in: c, debugDescription: "unknown app '\(appName)'")
        }
        guard let unit = Self.units.first(where: { $0.name == unitName })?.unit else {
            throw DecodingError.dataCorruptedError(forKey: .unit, in: c, debugDescription: "unknown unit '\(unitName)'")
        }
        guard let aggregate = Aggregate(name: aggregateName) else {
            throw DecodingError.dataCorruptedError(
                forKey: .aggregate, in: c, debugDescription: "unknown aggregate '\(aggregateName)' (expected \(Aggregate.names))")
        }
        (self.app, self.unit, self.aggregate) = (app, unit, aggregate)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(label, forKey: .label)
        try c.encode(app.rawValue, forKey: .app)
        try c.encode(unitName, forKey: .unit)
        try c.encode(aggregate.name, forKey: .aggregate)
    }

    /// The declaration in a JSON report (`team_metrics`).
    package var json: JSONValue {
        .object([
            ("id", .string(id)), ("label", .string(label)), ("app", .string(app.rawValue)), ("unit", .string(unitName)),
            ("aggregate", .string(aggregate.name)),
        ])
    }
}

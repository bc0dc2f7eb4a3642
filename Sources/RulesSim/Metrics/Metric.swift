/// One figure of a simulation run: its id, label, unit and app, how an interval treats it, and how
/// it is read off a run (``summary``: the whole run's ``ReportSummary``; ``day``: one day's
/// ``DayTotals``, for a per-day series). ``MetricRegistry`` declares every metric once and lists
/// them in the order each report prints them; `compare`, `simulate --replicas`, `simulate --html`,
/// `sweep` and `watch --simulate` read the figures from there.
package struct Metric: Sendable {
    /// The app a metric belongs to: a report lists only the metrics of the apps its run has
    /// (``apps(of:)``).
    package enum App: String, Sendable, CaseIterable {
        case pressure, habits, miga, earned
        /// Not an app: the cohort's own figures (who is still active), in every report.
        case cohort

        /// The apps a persona may use (`apps` in a persona file).
        package static let used: [App] = [.pressure, .habits, .miga, .earned]

        /// The app a persona file names, nil for another name.
        package init?(persona name: String) {
            guard let app = App(rawValue: name), Self.used.contains(app) else { return nil }
            self = app
        }

        /// The app's name in reports.
        package var name: String {
            switch self {
            case .pressure: "Pressure"
            case .habits: "habit tracker"
            case .miga: "MIGA"
            case .earned: "Earned"
            case .cohort: "the cohort"
            }
        }
    }

    /// What a value counts.
    package enum Unit: String, Sendable {
        /// A fraction of a whole (printed as a percentage).
        case share
        /// A number of things: events, check-ins, user-days, reminders, shields, unlocks.
        case count
        /// A count divided by the user-days (Earned's: by the Earned user-days).
        case perUserDay
        /// A streak's length.
        case days
        /// Earned's credits: a total or a balance.
        case credits
        /// Credits paid per unlock (an average price).
        case creditsPerUnlock

        /// Digits after the point where a report prints a fixed number of them (`watch`; a share
        /// in percent).
        package var decimals: Int {
            switch self {
            case .share: 1
            case .count, .days, .credits: 0
            case .perUserDay, .creditsPerUnlock: 2
            }
        }
    }

    /// How the whole cohort's value relates to the values of groups of its users, for the
    /// batch-means interval (``Estimate/around(_:groups:scale:)``).
    package enum Kind: Sendable {
        /// A share or a rate per user or user-day, a percentile: about the groups' mean.
        case rate
        /// A count over the users: the groups' sum.
        case total
        /// A maximum over the users: neither (no interval from groups of users; replicas have one).
        case extreme
    }

    /// Stable snake_case name (`yes_rate`): `sweep --metric` takes it as well as the label.
    package let id: String
    /// The name reports print (`YES rate`); the key of the metric in `compare --json` and `sweep`'s JSON.
    package let label: String
    package let unit: Unit
    package let app: App
    package let kind: Kind
    /// The whole run's value, when the metric has one.
    package let summary: (@Sendable (ReportSummary) -> Double)?
    /// One day's value, when the metric has a per-day series.
    package let day: (@Sendable (DayTotals) -> Double)?
    /// The key of the per-day series in JSON, JSONL and CSV reports (`compare`'s `per_day`,
    /// `simulate --replicas`' `days`): the label, but for the series named before the registry
    /// (`tier 3`, `reminders per user`), kept so that scripts reading them go on working.
    package let seriesKey: String
    /// The label before it named its app (`final streak p50`), still taken by `sweep --metric`.
    package let formerLabel: String?
    /// The fewest days a run needs for the metric to be listed (`retained on day 30`: 30).
    package let minimumDays: Int
    /// The whole run's value as a ratio of two sums over its users (`analyze` reads each user's
    /// part of both for its intervals): nil for a percentile or a maximum (no sum of users' parts).
    package let ratio: Ratio?
    /// The whole run's value as a percentile of one whole value per user (a streak at the end of
    /// the user's last day), which `analyze` compares from each arm's histogram of its users'
    /// values: nil for other metrics (a percentile over user-days or tasks, whose values of one
    /// user are not independent, has none).
    package let quantile: Quantile?

    /// The `percentile`-th percentile of the histogram (`counts[v]` users have the value v) that
    /// `histogram` reads from a summary.
    package struct Quantile: Sendable {
        package let percentile: Int
        package let histogram: @Sendable (ReportSummary) -> [Int]
    }

    /// A value that is `numerator / denominator`, each a sum over the users: a rate per check-in
    /// or user-day (the delta method's ratio), or a count per user (the denominator the users: a
    /// per-user mean, Welch's), so that the value of a group is the sums of its users' parts.
    package struct Ratio: Sendable {
        package let numerator: @Sendable (ReportSummary) -> Double
        package let denominator: @Sendable (ReportSummary) -> Double

        /// Whether the denominator counts the users (each user's part is 1: a per-user mean).
        package let perUser: Bool

        package init(
            _ numerator: @escaping @Sendable (ReportSummary) -> Double, per denominator: @escaping @Sendable (ReportSummary) -> Double
        ) {
            self.numerator = numerator
            self.denominator = denominator
            perUser = false
        }

        /// A count (or a 0/1) per user; `followed`, the users it counts (all of them by default).
        package init(
            perUser numerator: @escaping @Sendable (ReportSummary) -> Double,
            followed: @escaping @Sendable (ReportSummary) -> Double = { Double($0.users) }
        ) {
            self.numerator = numerator
            denominator = followed
            perUser = true
        }
    }

    package init(
        _ id: String, _ label: String, unit: Unit, app: App, kind: Kind = .rate, seriesKey: String? = nil, formerLabel: String? = nil,
        minimumDays: Int = 1, ratio: Ratio? = nil, quantile: Quantile? = nil,
        summary: (@Sendable (ReportSummary) -> Double)? = nil, day: (@Sendable (DayTotals) -> Double)? = nil
    ) {
        self.quantile = quantile
        self.id = id
        self.label = label
        self.unit = unit
        self.app = app
        self.kind = kind
        self.seriesKey = seriesKey ?? label
        self.formerLabel = formerLabel
        self.minimumDays = minimumDays
        self.summary = summary
        self.day = day
        // A total is compared per user (arms of different sizes); its sum over the users is the value.
        self.ratio = ratio ?? (kind == .total ? summary.map { Ratio(perUser: $0) } : nil)
    }

    /// Whether the value is a share (printed as a percentage).
    package var isShare: Bool { unit == .share }

    /// The whole run's value (a metric of a summary list has one: `MetricRegistryTests`).
    package func value(_ summary: ReportSummary) -> Double {
        guard let read = self.summary else { preconditionFailure("the metric \(id) has no whole-run value") }
        return read(summary)
    }

    /// The value of a part of a run (a group of its users, a persona's users, a replica) as one
    /// sample of the metric for an interval: nil for a rate or a share of an app none of the part's
    /// users uses (it has no value there, not 0); a total counts 0 there.
    package func sampled(_ summary: ReportSummary) -> Double? {
        kind == .total || (summary.users > 0 && Self.apps(of: summary).contains(app)) ? value(summary) : nil
    }

    /// One day's value (a metric of ``MetricRegistry/perDay`` has one).
    package func value(_ day: DayTotals) -> Double {
        guard let read = self.day else { preconditionFailure("the metric \(id) has no per-day value") }
        return read(day)
    }

    /// The value as printed: a share as a percentage, a whole number as such, others with 2 decimals.
    package func format(_ value: Double) -> String { PopulationComparison.format(value, share: isShare) }

    /// The apps whose metrics a run's reports list: those its users use (a report written before
    /// personas declared their apps: Pressure, the habit tracker and MIGA, and Earned when any user
    /// used it).
    package static func apps(of summary: ReportSummary) -> Set<App> {
        Set(
            [
                (summary.pressureUserDays, App.pressure), (summary.habitUserDays, .habits), (summary.migaUserDays, .miga),
                (summary.earnedUserDays, .earned),
            ].filter { $0.0 > 0 }.map(\.1) + [.cohort])
    }

    /// The apps of any of these runs (`compare`'s two sets, replicas).
    package static func apps(of summaries: [ReportSummary]) -> Set<App> { summaries.reduce(into: []) { $0.formUnion(apps(of: $1)) } }
}

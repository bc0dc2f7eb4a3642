/// A named figure of a whole run, computed from its ``ReportSummary``: the one list that
/// `compare`'s population half, `simulate --replicas` (and anything else that reports a run in a
/// few numbers, `sweep` among them) print, in this order.
public struct SummaryMetric: Sendable {
    /// How the whole cohort's value relates to the values of groups of its users, for the
    /// batch-means interval (``Estimate/around(_:groups:scale:)``).
    public enum Kind: Sendable {
        /// A share or a rate per user or user-day, a percentile: about the groups' mean.
        case rate
        /// A count over the users: the groups' sum.
        case total
        /// A maximum over the users: neither (no interval from groups of users; replicas have one).
        case extreme
    }

    public var name: String
    /// Whether the value is a share (printed as a percentage).
    public var isShare: Bool
    public var kind: Kind
    /// Whether the metric is Earned's (listed only when a run has Earned users).
    public var isEarned: Bool
    public var value: @Sendable (ReportSummary) -> Double

    public init(
        _ name: String, isShare: Bool = false, kind: Kind = .rate, isEarned: Bool = false,
        value: @escaping @Sendable (ReportSummary) -> Double
    ) {
        self.name = name
        self.isShare = isShare
        self.kind = kind
        self.isEarned = isEarned
        self.value = value
    }

    /// The value as printed: a share as a percentage, a whole number as such, others with 2 decimals.
    public func format(_ value: Double) -> String { PopulationComparison.format(value, share: isShare) }

    /// The metrics of a run: Pressure's and the habit tracker's, then Earned's when `earned`.
    public static func all(earned: Bool) -> [SummaryMetric] { pressure + (earned ? SummaryMetric.earned : []) }

    private static func share(_ n: Int, _ of: Int) -> Double { of == 0 ? 0 : Double(n) / Double(of) }

    /// Events the engine refused (rule errors among them: a rule that fails refuses the event),
    /// check-ins, tiers, reminders, shields, streaks, habits, MIGA.
    public static let pressure: [SummaryMetric] =
        [
            SummaryMetric("refused events", kind: .total) { Double($0.refused) },
            SummaryMetric("YES rate", isShare: true) { $0.yesRate },
            SummaryMetric("MISSED per user-day", isShare: true) { share($0.missed, $0.userDays) },
        ]
        + (0...3).map { tier in
            SummaryMetric("user-days at tier \(tier)", isShare: true) { share($0.userDaysAtTier[tier], $0.userDays) }
        }
        + [
            SummaryMetric("reminders per user-day") { $0.remindersPerUserDay },
            SummaryMetric("most reminders in a user-day", kind: .extreme) { Double($0.maxRemindersPerUserDay) },
            SummaryMetric("restart shields used", kind: .total) { Double($0.shields) },
            SummaryMetric("final streak p50") { Double($0.finalStreaks.streakPercentile(50)) },
            SummaryMetric("final streak p90") { Double($0.finalStreaks.streakPercentile(90)) },
            SummaryMetric("habit completion rate", isShare: true) { $0.habitRate },
            SummaryMetric("exits to focus", kind: .total) { Double($0.exits) },
        ]

    /// Earned's economy, per Earned user-day (the users whose persona uses Earned): credits,
    /// unlocks by method, denials, giving up, end-of-day balances.
    public static let earned: [SummaryMetric] = {
        func perDay(_ name: String, _ count: @escaping @Sendable (EconomyTotals) -> Int) -> SummaryMetric {
            SummaryMetric(name, isEarned: true) { $0.perEarnedUserDay(count($0.earned)) }
        }
        return [
            perDay("credits earned per user-day") { $0.creditsEarned },
            perDay("credits spent per user-day") { $0.creditsSpent },
            perDay("credits forfeited per user-day") { $0.creditsForfeited },
            SummaryMetric("credits per credit unlock", isEarned: true) { $0.creditsPerCreditUnlock },
            perDay("unlocks per user-day") { $0.unlocks.total },
            perDay("credit unlocks per user-day") { $0.unlocks[.credits] },
            perDay("quest unlocks per user-day") { $0.unlocks[.quest] },
            perDay("emergency unlocks per user-day") { $0.unlocks[.emergency] },
            SummaryMetric("denied choices at the gate", isShare: true, isEarned: true) { $0.earned.denialShare },
            perDay("gave up at the gate per user-day") { $0.gaveUp },
            SummaryMetric("end-of-day balance p50", isEarned: true) { Double($0.earned.balancePercentile(50)) },
            SummaryMetric("end-of-day balance p90", isEarned: true) { Double($0.earned.balancePercentile(90)) },
        ]
    }()
}

/// A named per-day series of a run, computed from a day's ``DayTotals``: what `simulate
/// --replicas` reports day by day with its interval (and what a chart of a run draws).
public struct DayMetric: Sendable {
    public var name: String
    /// Whether the value is a share (printed as a percentage).
    public var isShare: Bool
    /// Whether the series is Earned's (listed only when a run has Earned users).
    public var isEarned: Bool
    public var value: @Sendable (DayTotals) -> Double

    public init(_ name: String, isShare: Bool = false, isEarned: Bool = false, value: @escaping @Sendable (DayTotals) -> Double) {
        self.name = name
        self.isShare = isShare
        self.isEarned = isEarned
        self.value = value
    }

    /// The series of a run: Pressure's, then Earned's when `earned`.
    public static func all(earned: Bool) -> [DayMetric] { pressure + (earned ? DayMetric.earned : []) }

    private static func per(_ n: Int, _ of: Int) -> Double { of == 0 ? 0 : Double(n) / Double(of) }

    /// Users on each tier at the end of the day, the YES rate of the day's check-ins, reminders
    /// per user, the current streak's median and 90th percentile.
    public static let pressure: [DayMetric] =
        (0...3).map { tier in DayMetric("tier \(tier)", isShare: true) { per($0.tiers[tier], $0.users) } }
        + [
            DayMetric("YES rate", isShare: true) { per($0.yes, $0.yes + $0.no + $0.missed) },
            DayMetric("reminders per user") { per($0.reminders, $0.users) },
            DayMetric("streak p50") { Double($0.streakPercentile(50)) },
            DayMetric("streak p90") { Double($0.streakPercentile(90)) },
        ]

    /// Earned's credits earned, spent and forfeited, and its unlocks, per Earned user.
    public static let earned: [DayMetric] = [
        DayMetric("credits earned per user", isEarned: true) { per($0.earned.creditsEarned, $0.earned.users) },
        DayMetric("credits spent per user", isEarned: true) { per($0.earned.creditsSpent, $0.earned.users) },
        DayMetric("credits forfeited per user", isEarned: true) { per($0.earned.creditsForfeited, $0.earned.users) },
        DayMetric("unlocks per user", isEarned: true) { per($0.earned.unlocks.total, $0.earned.users) },
    ]
}

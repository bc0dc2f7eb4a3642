import LuaHost

/// A summary metric a sweep reports for each variant, named as `compare` names it
/// (``PopulationComparison``): its value for one run's ``ReportSummary``. This is the one place a
/// sweep looks metrics up.
public struct SweepMetric: Sendable {
    public var name: String
    /// Whether the value is a share (printed as a percentage).
    public var isShare: Bool
    public var value: @Sendable (ReportSummary) -> Double

    /// Every metric a sweep can report, in the order `compare` lists them.
    public static let all: [SweepMetric] = {
        @Sendable func share(_ n: Int, _ of: Int) -> Double { of == 0 ? 0 : Double(n) / Double(of) }
        func count(_ name: String, _ value: @escaping @Sendable (ReportSummary) -> Int) -> SweepMetric {
            SweepMetric(name: name, isShare: false) { Double(value($0)) }
        }
        func perDay(_ name: String, _ value: @escaping @Sendable (EconomyTotals) -> Int) -> SweepMetric {
            SweepMetric(name: name, isShare: false) { $0.perEarnedUserDay(value($0.earned)) }
        }
        var metrics: [SweepMetric] = [
            count("refused events", \.refused),
            SweepMetric(name: "YES rate", isShare: true, value: \.yesRate),
            SweepMetric(name: "MISSED per user-day", isShare: true) { share($0.missed, $0.userDays) },
        ]
        for tier in 0...3 {
            metrics.append(SweepMetric(name: "user-days at tier \(tier)", isShare: true) { share($0.userDaysAtTier[tier], $0.userDays) })
        }
        metrics += [
            SweepMetric(name: "reminders per user-day", isShare: false, value: \.remindersPerUserDay),
            count("most reminders in a user-day", \.maxRemindersPerUserDay),
            count("restart shields used", \.shields),
            count("final streak p50") { $0.finalStreaks.streakPercentile(50) },
            count("final streak p90") { $0.finalStreaks.streakPercentile(90) },
            SweepMetric(name: "habit completion rate", isShare: true, value: \.habitRate),
            count("exits to focus", \.exits),
            perDay("credits earned per user-day", \.creditsEarned),
            perDay("credits spent per user-day", \.creditsSpent),
            perDay("credits forfeited per user-day", \.creditsForfeited),
            SweepMetric(name: "credits per credit unlock", isShare: false, value: \.creditsPerCreditUnlock),
            perDay("unlocks per user-day", \.unlocks.total),
            perDay("credit unlocks per user-day") { $0.unlocks[.credits] },
            perDay("quest unlocks per user-day") { $0.unlocks[.quest] },
            perDay("emergency unlocks per user-day") { $0.unlocks[.emergency] },
            SweepMetric(name: "denied choices at the gate", isShare: true) { $0.earned.denialShare },
            perDay("gave up at the gate per user-day", \.gaveUp),
            count("end-of-day balance p50") { $0.earned.balancePercentile(50) },
            count("end-of-day balance p90") { $0.earned.balancePercentile(90) },
        ]
        return metrics
    }()

    /// What a sweep reports without `--metric`.
    public static let defaultNames = [
        "YES rate", "user-days at tier 3", "reminders per user-day", "final streak p50", "habit completion rate",
        "credits spent per user-day",
    ]

    /// The metric named `name` (as `compare` prints it), or an error listing them.
    public static func named(_ name: String) throws(SweepError) -> SweepMetric {
        if let metric = all.first(where: { $0.name == name }) { return metric }
        var message = "--metric \"\(name)\": no such metric"
        if let suggestion = Suggestion.closest(to: name, among: all.map(\.name)) { message += "; did you mean '\(suggestion)'?" }
        throw SweepError(message + " (the metrics: \(all.map(\.name).joined(separator: ", ")))")
    }

    /// The value as printed: a share as a percentage, a whole number as such, others with 2 decimals.
    public func format(_ value: Double) -> String { PopulationComparison.format(value, share: isShare) }
}

/// A sweep that cannot run as asked: the message names the option.
public struct SweepError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

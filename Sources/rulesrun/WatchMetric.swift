import Foundation
import RulesSim

/// One figure of a simulation's summary that `rulesrun watch --simulate` prints at each cycle,
/// with its change since the last good version (`YES rate  61.2 %  (+1.3)`).
struct WatchMetric: Equatable {
    let name: String
    let value: Double
    /// Digits after the point (0 for counts).
    let decimals: Int
    /// `%` for a rate (shown ×100).
    let unit: String

    /// The figures of a report's summary (the Earned ones when the cohort has Earned users).
    static func of(_ report: SimulationReport) -> [WatchMetric] {
        let s = ReportSummary(report)
        func count(_ name: String, _ n: Int) -> WatchMetric { WatchMetric(name: name, value: Double(n), decimals: 0, unit: "") }
        func rate(_ name: String, _ r: Double) -> WatchMetric { WatchMetric(name: name, value: r * 100, decimals: 1, unit: " %") }
        var metrics = [
            count("events applied", s.events), count("events refused", s.refused), rate("YES rate", s.yesRate), count("NO", s.no),
            count("MISSED", s.missed), count("user-days at tier 3", s.userDaysAtTier[3]),
            WatchMetric(name: "reminders per user-day", value: s.remindersPerUserDay, decimals: 2, unit: ""),
            count("restart shields used", s.shields), rate("habit completion rate", s.habitRate),
            count("final streak p50", s.finalStreaks.streakPercentile(50)), count("final streak p90", s.finalStreaks.streakPercentile(90)),
            count("MIGA exits to focus", s.exits),
        ]
        if s.earnedUserDays > 0 {
            let e = s.earned
            metrics += [
                count("credits earned", e.creditsEarned), count("credits spent", e.creditsSpent),
                count("credits forfeited", e.creditsForfeited), count("unlocks", e.unlocks.total), count("denials", e.denials.total),
            ]
        }
        return metrics
    }

    var formatted: String { String(format: "%.\(decimals)f", value) + unit }

    /// `name  value  (+delta)` against `previous` (the same figure of the last good version), or
    /// `(=)` when it did not change; `name  value` without one.
    func line(against previous: WatchMetric?, nameWidth: Int) -> String {
        var out = name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  " + formatted
        guard let previous else { return out }
        let delta = value - previous.value
        let shown = String(format: "%+.\(decimals)f", delta)
        // A change too small for the digits shown is still a change: say so rather than "+0.0".
        if delta == 0 {
            out += "  (=)"
        } else if Double(shown) == 0 {
            out +=
                delta > 0
                ? "  (+ less than \(String(format: "%.\(decimals)f", pow(10, -Double(decimals)))))"
                : "  (- less than \(String(format: "%.\(decimals)f", pow(10, -Double(decimals)))))"
        } else {
            out += "  (\(shown)\(unit == " %" ? " pts" : ""))"
        }
        return out
    }
}

import RulesEngine
import RulesModel

/// One Pressure user's days, as the escalation and streak rules see them: a starting state, then
/// per day the final check-in result, whether a restart shield was used and the check-in window.
struct PressureHistory: Hashable, Sendable, CustomStringConvertible {
    /// One day of the history.
    struct Day: Hashable, Sendable {
        /// YES, NO or MISSED.
        var result: CommitmentStatus
        /// A restart shield was activated for this day's NO or MISSED (never on a YES day).
        var shieldUsed: Bool
        /// The check-in window: the commitment deadline and the check-in window close.
        var open: LocalTime
        var close: LocalTime

        init(_ result: CommitmentStatus, shieldUsed: Bool = false, open: LocalTime = HistoryGenerator.defaultOpen,
             close: LocalTime = HistoryGenerator.defaultClose) {
            precondition(result.isFinal && (!shieldUsed || result != .yes), "a final result; a shield only on NO or MISSED")
            self.result = result
            self.shieldUsed = shieldUsed
            self.open = open
            self.close = close
        }

        /// `NO, shield   window 09:00–22:00`.
        var text: String {
            let what = result.rawValue + (shieldUsed ? ", shield" : "")
            return what.padding(toLength: 16, withPad: " ", startingAt: 0) + "window \(open)–\(close)"
        }
    }

    var counters: EscalationCounters
    var streak: PressureStreak
    var days: [Day]
    /// Where the history was generated (`seed 0x…, case 17`), kept while it shrinks.
    var origin: String = ""

    /// The history as a reader (or a future replay file) wants it, one line per day.
    var description: String {
        var lines = ["PressureHistory\(origin.isEmpty ? "" : " (\(origin))"), \(days.count) day\(days.count == 1 ? "" : "s")",
                     "  start: \(Self.describe(counters)); \(Self.describe(streak))"]
        for (i, day) in days.enumerated() {
            lines.append("  day \(i + 1):".padding(toLength: 11, withPad: " ", startingAt: 0) + day.text)
        }
        return lines.joined(separator: "\n")
    }

    /// `tier 2, misses 2, successes 0`.
    static func describe(_ counters: EscalationCounters) -> String {
        "tier \(counters.tier), misses \(counters.misses), successes \(counters.successes)"
    }

    /// `streak 3 (longest 5)`.
    static func describe(_ streak: PressureStreak) -> String {
        "streak \(streak.current) (longest \(streak.longest))"
    }
}

import RulesEngine
import RulesModel

/// One Pressure user's days, as the escalation and streak rules see them: a starting state, the
/// calendar day before the first day (the set-up day of its replay file), then per day what the
/// user did (committed or not, YES, NO or nothing), whether a restart shield was used and the
/// check-in window.
package struct PressureHistory: Hashable, Sendable, CustomStringConvertible {
    /// One day of the history.
    package struct Day: Hashable, Sendable {
        /// YES, NO or MISSED. A MISSED day with `committed` false had no commitment by the deadline,
        /// and counts as the rule set's `no_commitment_counts_as`.
        package var result: CommitmentStatus
        /// The user set a commitment (always for YES and NO).
        package var committed: Bool
        /// A restart shield was activated for this day's NO or MISSED (never on a YES day).
        package var shieldUsed: Bool
        /// The check-in window: the commitment deadline and the check-in window close.
        package var open: LocalTime
        package var close: LocalTime

        package init(
            _ result: CommitmentStatus, committed: Bool = true, shieldUsed: Bool = false,
            open: LocalTime = PressureHistory.defaultOpen, close: LocalTime = PressureHistory.defaultClose
        ) {
            precondition(result.isFinal && (!shieldUsed || result != .yes), "a final result; a shield only on NO or MISSED")
            precondition(committed || result == .missed, "only a MISSED day can lack a commitment")
            self.result = result
            self.committed = committed
            self.shieldUsed = shieldUsed
            self.open = open
            self.close = close
        }

        /// `NO, shield         window 09:00–22:00`.
        package var text: String {
            let what = (committed ? result.rawValue : "no commitment") + (shieldUsed ? ", shield" : "")
            return what.padding(toLength: 22, withPad: " ", startingAt: 0) + "window \(open)–\(close)"
        }

        var hasDefaultWindow: Bool { open == PressureHistory.defaultOpen && close == PressureHistory.defaultClose }
    }

    /// The document's default window: "commitment_deadline (default 09:00)", "checkin_window_close
    /// (default 22:00)". Shrinking moves windows here.
    package static let defaultOpen = LocalTime(hour: 9, minute: 0)
    package static let defaultClose = LocalTime(hour: 22, minute: 0)
    /// The set-up day shrinking moves histories to.
    package static let defaultSetupDay = try! DayID("2026-03-01")

    package var counters: EscalationCounters
    package var streak: PressureStreak
    /// The calendar day before day 1: the replay file's set-up events happen on it.
    package var setupDay: DayID
    package var days: [Day]
    /// Where the history was generated (`seed 0x…, case 17`), kept while it shrinks.
    package var origin: String = ""

    package init(
        counters: EscalationCounters = EscalationCounters(tier: 0, misses: 0, successes: 0),
        streak: PressureStreak = PressureStreak(current: 0, longest: 0),
        setupDay: DayID = PressureHistory.defaultSetupDay, days: [Day], origin: String = ""
    ) {
        self.counters = counters
        self.streak = streak
        self.setupDay = setupDay
        self.days = days
        self.origin = origin
    }

    /// Whether it starts as a new user does (tier 0, no counters, no streak): only such a history
    /// can be written as a replay file that reproduces it exactly.
    package var startsFresh: Bool {
        counters == EscalationCounters(tier: 0, misses: 0, successes: 0) && streak == PressureStreak(current: 0, longest: 0)
    }

    /// The calendar day of day `number` (1-based).
    package func date(ofDay number: Int) -> DayID { setupDay.adding(days: number)! }

    /// The history as a reader wants it, one line per day.
    package var description: String {
        var lines = [
            "PressureHistory\(origin.isEmpty ? "" : " (\(origin))"), \(days.count) day\(days.count == 1 ? "" : "s")",
            "  start: \(Self.describe(counters)); \(Self.describe(streak)); set-up day \(setupDay)",
        ]
        for (i, day) in days.enumerated() {
            lines.append("  day \(i + 1):".padding(toLength: 11, withPad: " ", startingAt: 0) + day.text)
        }
        return lines.joined(separator: "\n")
    }

    /// `tier 2, misses 2, successes 0`.
    package static func describe(_ counters: EscalationCounters) -> String {
        "tier \(counters.tier), misses \(counters.misses), successes \(counters.successes)"
    }

    /// `streak 3 (longest 5)`.
    package static func describe(_ streak: PressureStreak) -> String {
        "streak \(streak.current) (longest \(streak.longest))"
    }
}

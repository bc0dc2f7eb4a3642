import RulesEngine
import RulesModel

/// Walks a Pressure history through one implementation of the rules, day by day, as the engine
/// would: the day's reminders follow the tier in force during the day; the final result goes
/// through `transition` and `pressureStreak`. A restart shield leaves the escalation counters as
/// they are ("escalation_tier = unchanged, consecutive_misses = unchanged"), so on a shield day
/// `transition` is still asked (and its answer compared) but not applied.
struct HistoryWalker {
    /// What the rules answered for one day.
    struct Outcome: Equatable {
        /// The tier in force during the day, before its check-in.
        var tier: Int
        /// `reminderTimes` for that tier and the day's window.
        var reminders: [LocalTime]
        /// What `transition` returned for the day's result.
        var transition: EscalationCounters
        /// The counters after the day: `transition`, or unchanged on a shield day.
        var counters: EscalationCounters
        /// What `pressureStreak` returned.
        var streak: PressureStreak

        /// `tier 2 | 15:30 20:00 21:30 | → tier 3, misses 3, successes 0 | streak 0 (longest 5)`.
        var text: String {
            let times = reminders.isEmpty ? "none" : reminders.map(\.text).joined(separator: " ")
            let applied = counters == transition ? "" : " (shield: kept \(PressureHistory.describe(counters)))"
            return "tier \(tier) | reminders \(times) | → \(PressureHistory.describe(transition))\(applied) | \(PressureHistory.describe(streak))"
        }
    }

    let rules: any PolicyRules
    private(set) var counters: EscalationCounters
    private(set) var streak: PressureStreak

    init(_ rules: any PolicyRules, from history: PressureHistory) {
        self.rules = rules
        counters = history.counters
        streak = history.streak
    }

    /// Asks the rules about one day and moves on to the next.
    mutating func step(_ day: PressureHistory.Day) throws -> Outcome {
        let tier = counters.tier
        let reminders = try rules.reminderTimes(tier: tier, open: day.open, close: day.close)
        let transition = try rules.transition(counters, day.result)
        streak = try rules.pressureStreak(streak, result: day.result, shieldUsed: day.shieldUsed)
        if !day.shieldUsed { counters = transition }
        return Outcome(tier: tier, reminders: reminders, transition: transition, counters: counters, streak: streak)
    }
}

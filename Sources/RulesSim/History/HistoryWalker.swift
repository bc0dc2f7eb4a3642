import RulesEngine
import RulesModel

/// Walks a Pressure history through one implementation of the rules, day by day, deciding what
/// `Engine.apply` decides for the events of the history's replay file (`ReplayScript`), without the
/// store, the clock or JSON: the engine stays the reference, and `RuleComparison` confirms every
/// difference it reports by replaying it through the engine.
///
/// Per day, as the engine does it:
/// - on the 1st of a month, a paid user's restart shields are replenished (`shields.per_month_paid`);
/// - the day's reminders follow the tier in force at its start (`reminderTimes`, sorted, checked
///   against the document's limits);
/// - the result: a check-in (YES or NO), a commitment left without a check-in (MISSED when the
///   window closes), or no commitment by the deadline (`no_commitment_counts_as`), through
///   `transition` and `pressureStreak` (the day's date, from the history's set-up day, and whether
///   it had a commitment), with the engine's checks of their answers;
/// - a restart shield, five minutes after the NO, the close or the deadline, when the user has one
///   left and the activation window allows it: the counters go back to what they were before the
///   day ("escalation_tier = unchanged, consecutive_misses = unchanged") and the streak is
///   `pressureStreak(before, day)` with the day's shield used. With a 23:59 close the shield falls on the
///   next day, after that day's replenishment.
///
/// The replay file's user is paid from its set-up day on, so shields follow the paid allowance.
package struct HistoryWalker {
    /// What the rules decided for one day.
    package struct Outcome: Equatable, Sendable {
        /// The tier in force during the day, before its result.
        package var tier: Int
        /// The day's reminder times (for the tier in force and the day's window), sorted.
        package var reminders: [LocalTime]
        /// Whether the day had a commitment (its reminders and badge show in the replay's output).
        package var committed: Bool
        /// The result that went through the rules.
        package var result: CommitmentStatus
        /// What `transition` returned for the day's result.
        package var transition: EscalationCounters
        /// The counters after the day: `transition`, or those before the day when a shield was used.
        package var counters: EscalationCounters
        /// The streak after the day.
        package var streak: PressureStreak
        /// Whether the day's shield was applied (nil when the history uses none).
        package var shieldApplied: Bool?
        /// Restart shields left after the day.
        package var shieldsRemaining: Int
        /// Tier 3's persistent badge during the day (before the check-in).
        package var persistentBadge: Bool

        /// `tier 2 | reminders 15:30 20:00 21:30 | → tier 3, misses 3, successes 0 | streak 0 (longest 5)`.
        package var text: String {
            let times = reminders.isEmpty ? "none" : reminders.map(\.text).joined(separator: " ")
            let applied = counters == transition ? "" : " (shield: kept \(PressureHistory.describe(counters)))"
            let refused = shieldApplied == false ? " (shield refused)" : ""
            return
                "tier \(tier) | reminders \(times) | → \(PressureHistory.describe(transition))\(applied)\(refused) | \(PressureHistory.describe(streak))"
        }
    }

    /// A rule answered what the engine refuses (`RULE_VIOLATION`).
    package struct Violation: Error, CustomStringConvertible {
        package var description: String
    }

    package let rules: any PolicyRules
    /// The rules asked for the reminders and the transitions: `rules`, or with `remembering` its
    /// answers remembered for the history (`PolicyRules.remembering()`). `pressure.next` is always
    /// asked of `rules`: its day carries the date, which never comes back within a history, so
    /// remembering it would only cost the hashing.
    private let asked: any PolicyRules
    private let escalation: EscalationPolicy.Knobs
    private let history: PressureHistory
    package private(set) var counters: EscalationCounters
    package private(set) var streak: PressureStreak
    package private(set) var shieldsRemaining: Int
    /// Days walked so far.
    package private(set) var dayNumber = 0
    private var replenished: DayID?

    package init(_ rules: any PolicyRules, from history: PressureHistory, remembering: Bool = false) {
        self.rules = rules
        asked = remembering ? rules.remembering() : rules
        self.history = history
        escalation = rules.escalationKnobs
        counters = history.counters
        streak = history.streak
        // The set-up's subscription gives this month's shields (none used yet).
        shieldsRemaining = escalation.shield.perMonthPaid
    }

    /// Asks the rules about the next day of the history and moves on.
    package mutating func step(_ day: PressureHistory.Day) throws -> Outcome {
        dayNumber += 1
        let date = history.date(ofDay: dayNumber)
        replenish(on: date)
        let tier = counters.tier
        let reminders = try checkedReminders(tier: tier, open: day.open, close: day.close)
        let result = day.committed ? day.result : escalation.noCommitmentCountsAs
        let before = (counters, streak)
        let transition = try asked.transition(counters, result)
        try check(transition, from: before.0, result: result)
        let pressureDay = PressureDay(result: result, date: date, committed: day.committed)
        let next = try rules.pressureStreak(streak, day: pressureDay)
        guard next.current >= 0, next.current <= streak.current + 1, next.longest >= max(next.current, streak.longest) else {
            throw Violation(
                description:
                    "pressure.next(current \(streak.current), longest \(streak.longest), \(pressureDay.text)) returned current \(next.current), longest \(next.longest)"
            )
        }
        counters = transition
        streak = next
        var shieldApplied: Bool?
        if day.shieldUsed {
            // Five minutes after the NO check-in (deadline + 10), the close, or the deadline.
            let shieldAt = day.result == .no ? day.open.minutes + 15 : day.committed ? day.close.minutes + 5 : day.open.minutes + 5
            if shieldAt >= 24 * 60 { replenish(on: date.adding(days: 1)!) }
            shieldApplied = 5 <= escalation.shield.activationWindowMinutes && shieldsRemaining > 0
            if shieldApplied == true {
                // The engine passes MISSED for a day without a commitment, whatever it counted as.
                let shieldResult: CommitmentStatus = day.result == .no ? .no : .missed
                let s = try rules.pressureStreak(
                    before.1, day: PressureDay(result: shieldResult, shieldUsed: true, date: date, committed: day.committed))
                guard s.current >= 0, s.longest >= max(s.current, before.1.longest) else {
                    throw Violation(description: "pressure.next with a shield returned current \(s.current), longest \(s.longest)")
                }
                counters = before.0
                streak = PressureStreak(current: s.current, longest: max(s.longest, streak.longest))
                shieldsRemaining -= 1
            }
        }
        return Outcome(
            tier: tier, reminders: reminders, committed: day.committed, result: result, transition: transition,
            counters: counters, streak: streak, shieldApplied: shieldApplied, shieldsRemaining: shieldsRemaining,
            persistentBadge: tier >= escalation.persistentBadgeFromTier)
    }

    /// "1 per month replenished on the first of the month" (paid).
    private mutating func replenish(on date: DayID) {
        guard date.day == 1, replenished != date else { return }
        replenished = date
        shieldsRemaining = escalation.shield.perMonthPaid
    }

    /// The engine's checks of a transition's answer.
    private func check(_ counters: EscalationCounters, from before: EscalationCounters, result: CommitmentStatus) throws {
        let maxTier = min(escalation.maxTier, PressureLimits.maxTier)
        // Built only for a message: the walk checks every day of every history.
        var input: String { "tier \(before.tier), misses \(before.misses), successes \(before.successes), result \(result.rawValue)" }
        guard (0...maxTier).contains(counters.tier) else {
            throw Violation(description: "transition(\(input)) returned tier \(counters.tier), outside 0–\(maxTier)")
        }
        guard counters.misses >= 0, counters.successes >= 0 else {
            throw Violation(
                description: "transition(\(input)) returned negative counters (misses \(counters.misses), successes \(counters.successes))")
        }
    }

    /// The engine's reminders for a tier: sorted, at most 3 a day, 30 minutes apart, inside the window.
    private func checkedReminders(tier: Int, open: LocalTime, close: LocalTime) throws -> [LocalTime] {
        let times = try asked.reminderTimes(tier: tier, open: open, close: close).sorted()
        let spacing = PressureLimits.minReminderSpacingMinutes
        if times.count > PressureLimits.maxRemindersPerDay
            || times.contains(where: { $0 < open || $0 >= close })
            || zip(times, times.dropFirst()).contains(where: { $1.minutes - $0.minutes < spacing })
        {
            throw Violation(
                description:
                    "reminder_times(tier \(tier), window \(open)–\(close)) returned \(times.map(\.text)); at most \(PressureLimits.maxRemindersPerDay) a day, \(spacing) minutes apart, inside the window"
            )
        }
        return times
    }
}

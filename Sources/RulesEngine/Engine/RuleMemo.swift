import RulesModel

/// The answers of the rules already asked during one `Engine.batch`, by their arguments.
///
/// Rules are pure functions of their arguments (the design's contract: no clock, no state kept in
/// Lua between calls), so asking twice gives the same answer: a user's MIGA streak over the same
/// 90 days of exits, a task's streak over the same periods, the transition from the same counters.
/// The memo lives for one batch only: a simulation runs one batch per user, so even a rule that
/// draws from the (per-user reseeded) `math.random` sees the same calls in the same order whichever
/// worker runs the user. Errors are not remembered: a failing call fails again.
final class RuleMemo: PolicyRules {
    let base: any PolicyRules
    let parameters: PolicyParameters

    private struct TransitionKey: Hashable { var counters: EscalationCounters; var result: CommitmentStatus }
    private struct StreakKey: Hashable { var streak: PressureStreak; var result: CommitmentStatus; var shieldUsed: Bool }
    private struct ReminderKey: Hashable { var tier: Int; var open: LocalTime; var close: LocalTime }

    private var transitions: [TransitionKey: EscalationCounters] = [:]
    private var streaks: [StreakKey: PressureStreak] = [:]
    private var reminders: [ReminderKey: [LocalTime]] = [:]
    private var habits: [HashedKey<[HabitPeriod]>: Int] = [:]
    /// MIGA: the last question and its answer only. Consecutive events of a day often ask the
    /// same; an earlier question comes back too seldom to be worth hashing 90 days each time.
    private var lastMiga: (exits: [Int], streak: Int)?

    /// A long key hashed once, for the lookup and the insertion that follows a miss.
    private struct HashedKey<T: Hashable>: Hashable {
        let value: T
        let hash: Int
        init(_ value: T) {
            self.value = value
            hash = value.hashValue
        }
        static func == (a: Self, b: Self) -> Bool { a.hash == b.hash && a.value == b.value }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    init(_ base: any PolicyRules) {
        self.base = base
        parameters = base.parameters
    }

    func transition(_ state: EscalationCounters, _ result: CommitmentStatus) throws -> EscalationCounters {
        let key = TransitionKey(counters: state, result: result)
        if let known = transitions[key] { return known }
        let answer = try base.transition(state, result)
        transitions[key] = answer
        return answer
    }

    func reminderTimes(tier: Int, open: LocalTime, close: LocalTime) throws -> [LocalTime] {
        let key = ReminderKey(tier: tier, open: open, close: close)
        if let known = reminders[key] { return known }
        let answer = try base.reminderTimes(tier: tier, open: open, close: close)
        reminders[key] = answer
        return answer
    }

    func pressureStreak(_ streak: PressureStreak, result: CommitmentStatus, shieldUsed: Bool) throws -> PressureStreak {
        let key = StreakKey(streak: streak, result: result, shieldUsed: shieldUsed)
        if let known = streaks[key] { return known }
        let answer = try base.pressureStreak(streak, result: result, shieldUsed: shieldUsed)
        streaks[key] = answer
        return answer
    }

    func habitStreak(_ periods: [HabitPeriod]) throws -> Int {
        let key = HashedKey(periods)
        if let known = habits[key] { return known }
        let answer = try base.habitStreak(periods)
        habits[key] = answer
        return answer
    }

    func migaStreak(_ exitsPerDay: [Int]) throws -> Int {
        if let last = lastMiga, last.exits == exitsPerDay { return last.streak }
        let answer = try base.migaStreak(exitsPerDay)
        lastMiga = (exitsPerDay, answer)
        return answer
    }

    func earnedQualification(focusMinutes: Int, habitCompletions: Int) throws -> StreakQualificationMethod? {
        try base.earnedQualification(focusMinutes: focusMinutes, habitCompletions: habitCompletions)
    }

    func earnedBonus(streakCount: Int) throws -> Int { try base.earnedBonus(streakCount: streakCount) }

    var economy: EconomyParameters { base.economy }
    func questBlocked(_ gate: QuestGate) throws -> UnlockDenialReason? { try base.questBlocked(gate) }
    func emergencyBlocked(_ gate: EmergencyGate) throws -> UnlockDenialReason? { try base.emergencyBlocked(gate) }
    func focusCredits(_ session: FocusOutcome) throws -> Int { try base.focusCredits(session) }
    func carriedCredits(balance: Int) throws -> Int { try base.carriedCredits(balance: balance) }
    func habitAward(rewardCredits: Int, completionsInWindow: Int) throws -> HabitAward {
        try base.habitAward(rewardCredits: rewardCredits, completionsInWindow: completionsInWindow)
    }
    func effectiveMode(_ modes: [ModeCandidate], at now: LocalMoment) throws -> Int? { try base.effectiveMode(modes, at: now) }
}

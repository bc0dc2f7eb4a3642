import LuaHost
import RulesModel

/// The answers of the rules already asked during one `Engine.batch`, by their arguments.
///
/// Rules are pure functions of their arguments (the design's contract: no clock, no state kept in
/// Lua between calls), so asking twice gives the same answer: a user's MIGA streak over the same
/// 90 days of exits, a task's streak over the same periods, task and user, the transition from the same
/// counters, the economy's small questions (a quest or emergency gate, a habit award, a focus
/// session's credits). A price is remembered by the fields of its context the rule read
/// (`readingPrice`): the default rule reads only the length, so a user's gates ask it three times in
/// all. `effective_mode` and Pressure's day streak are always asked: the first's moments seldom
/// repeat, and the second's question holds the day, which one user's batch never asks twice (a
/// simulation's 6,091 questions of 200 users found no answer to reuse; remembering cost 2,400
/// instructions each).
/// The memo lives for one batch only: a simulation runs one batch per user, so even a rule that
/// draws from the (per-user reseeded) `math.random` sees the same calls in the same order whichever
/// worker runs the user. Errors are not remembered: a failing call fails again.
final class RuleMemo: PolicyRules {
    let base: any PolicyRules

    private struct TransitionKey: Hashable { var counters: EscalationCounters; var result: CommitmentStatus }
    private struct ReminderKey: Hashable { var tier: Int; var open: LocalTime; var close: LocalTime }
    private struct Pair: Hashable { var a: Int; var b: Int }

    private var transitions: [TransitionKey: EscalationCounters] = [:]
    private var reminders: [ReminderKey: [LocalTime]] = [:]
    /// Habit streaks: the last question and its answer per task name. A task's question changes
    /// with each completion, so an older one seldom comes back; comparing with the last (which
    /// differs in the first, running period when it differs at all) costs less than hashing 90
    /// periods, their task and user for every call.
    private var lastHabit: [String: (periods: [HabitPeriod], task: HabitTaskRecord, user: HabitUserRecord, streak: HabitStreak)] = [:]
    /// MIGA: the last question and its answer only. Consecutive events of a day often ask the
    /// same; an earlier question comes back too seldom to be worth hashing 90 days each time.
    private var lastMiga: (exits: [Int], streak: Int)?
    private var qualifications: [Pair: StreakQualificationMethod?] = [:]
    private var bonuses: [Int: Int] = [:]
    private var questGates: [QuestGate: UnlockDenialReason?] = [:]
    private var emergencyGates: [EmergencyGate: UnlockDenialReason?] = [:]
    /// Prices by the fields of their context the rule read, and the sets of fields read so far (a
    /// price is looked up under each): a rule reads the same fields in most situations.
    private var prices: [PriceContext.Read: Int] = [:]
    private var priceReads: [LuaFieldReads] = []
    private var focusOutcomes: [FocusOutcome: Int] = [:]
    private var carried: [Int: Int] = [:]
    private var habitAwards: [Pair: HabitAward] = [:]

    /// Whether prices are remembered (`price` asks the rule each time otherwise).
    private let remembersPrices: Bool
    var argumentReuse: ArgumentReuse { base.argumentReuse }

    var streakParams: RuleParams { base.streakParams }
    var priceParams: RuleParams { base.priceParams }

    init(_ base: any PolicyRules) {
        self.base = base
        escalationKnobs = base.escalationKnobs
        streakKnobs = base.streakKnobs
        pricingKnobs = base.pricingKnobs
        questKnobs = base.questKnobs
        remembersPrices = base.argumentReuse == .kept
    }

    /// The answer remembered in `memo` for `key`, or `ask`'s, then remembered.
    private func remembered<Key: Hashable, Answer>(_ memo: inout [Key: Answer], _ key: Key, _ ask: () throws -> Answer) rethrows -> Answer {
        if let known = memo[key] { return known }
        let answer = try ask()
        memo[key] = answer
        return answer
    }

    func transition(_ state: EscalationCounters, _ result: CommitmentStatus) throws -> EscalationCounters {
        try remembered(&transitions, TransitionKey(counters: state, result: result)) { try base.transition(state, result) }
    }

    func reminderTimes(tier: Int, open: LocalTime, close: LocalTime) throws -> [LocalTime] {
        try remembered(&reminders, ReminderKey(tier: tier, open: open, close: close)) {
            try base.reminderTimes(tier: tier, open: open, close: close)
        }
    }

    func pressureStreak(_ streak: PressureStreak, day: PressureDay) throws -> PressureStreak {
        try base.pressureStreak(streak, day: day)
    }

    func habitStreak(_ periods: [HabitPeriod], task: HabitTaskRecord, user: HabitUserRecord) throws -> HabitStreak {
        if let last = lastHabit[task.name], last.periods == periods, last.task == task, last.user == user { return last.streak }
        let answer = try base.habitStreak(periods, task: task, user: user)
        lastHabit[task.name] = (periods, task, user, answer)
        return answer
    }

    func migaStreak(_ exitsPerDay: [Int]) throws -> Int {
        if let last = lastMiga, last.exits == exitsPerDay { return last.streak }
        let answer = try base.migaStreak(exitsPerDay)
        lastMiga = (exitsPerDay, answer)
        return answer
    }

    func earnedQualification(focusMinutes: Int, habitCompletions: Int) throws -> StreakQualificationMethod? {
        try remembered(&qualifications, Pair(a: focusMinutes, b: habitCompletions)) {
            try base.earnedQualification(focusMinutes: focusMinutes, habitCompletions: habitCompletions)
        }
    }

    func earnedBonus(streakCount: Int) throws -> Int {
        try remembered(&bonuses, streakCount) { try base.earnedBonus(streakCount: streakCount) }
    }

    /// Not remembered: each day ends once.
    func earnedDayEnds(_ day: EarnedDayEnd) throws -> EarnedStreak { try base.earnedDayEnds(day) }

    /// Asked once: the engine reads them for most events.
    let escalationKnobs: EscalationPolicy.Knobs
    let streakKnobs: StreakPolicy.Knobs
    let pricingKnobs: PricingPolicy.Knobs
    let questKnobs: QuestPolicy.Knobs

    func questBlocked(_ gate: QuestGate) throws -> UnlockDenialReason? {
        try remembered(&questGates, gate) { try base.questBlocked(gate) }
    }

    func emergencyBlocked(_ gate: EmergencyGate) throws -> UnlockDenialReason? {
        try remembered(&emergencyGates, gate) { try base.emergencyBlocked(gate) }
    }

    func price(_ context: PriceContext) throws -> Int { try readingPrice(context).credits }

    /// At most this many different sets of fields read are looked up (a rule whose reads vary
    /// more is asked again for the others).
    static let maxPriceReads = 8

    func readingPrice(_ context: PriceContext) throws -> (credits: Int, read: LuaFieldReads) {
        guard remembersPrices else { return try base.readingPrice(context) }
        for reads in priceReads {
            if let credits = prices[context.read(reads)] { return (credits, reads) }
        }
        let answer = try base.readingPrice(context)
        if !priceReads.contains(answer.read) {
            guard priceReads.count < Self.maxPriceReads else { return answer }
            priceReads.append(answer.read)
        }
        prices[context.read(answer.read)] = answer.credits
        return answer
    }

    func focusCredits(_ session: FocusOutcome) throws -> Int {
        try remembered(&focusOutcomes, session) { try base.focusCredits(session) }
    }

    func carriedCredits(balance: Int) throws -> Int {
        try remembered(&carried, balance) { try base.carriedCredits(balance: balance) }
    }

    func habitAward(rewardCredits: Int, completionsInWindow: Int) throws -> HabitAward {
        try remembered(&habitAwards, Pair(a: rewardCredits, b: completionsInWindow)) {
            try base.habitAward(rewardCredits: rewardCredits, completionsInWindow: completionsInWindow)
        }
    }

    /// Not remembered: the moments asked about seldom repeat (2.5 % of a simulation's questions).
    func effectiveMode(_ modes: [ModeCandidate], at now: LocalMoment) throws -> Int? { try base.effectiveMode(modes, at: now) }
}

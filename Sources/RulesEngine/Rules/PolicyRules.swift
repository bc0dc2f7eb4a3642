import LuaHost
import RulesModel

/// The policies the engine asks, wherever they run: in Lua (`RuleSet`) or natively
/// (`NativeReference`, the seeds' defaults in Swift, for property tests). Every method is a pure
/// function of its arguments.
package protocol PolicyRules: AnyObject {
    /// Pressure: escalation.lua's plain values, as decoded; the engine applies them itself (tiers,
    /// shields, the badge, a day without a commitment).
    var escalationKnobs: EscalationPolicy.Knobs { get }
    /// streaks.lua's plain values, as decoded; the engine applies them itself (day boundaries, the
    /// completions a habit period needs, backfill and per-day limits, freezes).
    var streakKnobs: StreakPolicy.Knobs { get }

    /// Pressure: the escalation counters after one day's final result.
    func transition(_ state: EscalationCounters, _ result: CommitmentStatus) throws -> EscalationCounters
    /// Pressure: the local reminder times of a tier for a check-in window.
    func reminderTimes(tier: Int, open: LocalTime, close: LocalTime) throws -> [LocalTime]
    /// Pressure: the streak after one day's final result (`pressure.next(streak, day)`).
    func pressureStreak(_ streak: PressureStreak, day: PressureDay) throws -> PressureStreak
    /// Habit tracker: the streak of a task from its periods, most recent (running) first, its
    /// record and its user's (`habit.streak(periods, task, user)`).
    func habitStreak(_ periods: [HabitPeriod], task: HabitTaskRecord, user: HabitUserRecord) throws -> HabitStreak
    /// Habit tracker: the params streaks.lua declares (a task's `params` are checked against them).
    var streakParams: RuleParams { get }
    /// MIGA: the current streak from the counting events per day, today first.
    func migaStreak(_ exitsPerDay: [Int]) throws -> Int
    /// Earned: how a day qualified for the streak, if it did.
    func earnedQualification(focusMinutes: Int, habitCompletions: Int) throws -> StreakQualificationMethod?
    /// Earned: the streak bonus in credits on the day the streak reaches `streakCount`.
    func earnedBonus(streakCount: Int) throws -> Int
    /// Earned: the streak and the freezes held after a day ends (`earned.day_ends(day)`).
    func earnedDayEnds(_ day: EarnedDayEnd) throws -> EarnedStreak

    /// Earned: pricing.lua's plain values, as decoded; the engine applies them itself.
    var pricingKnobs: PricingPolicy.Knobs { get }
    /// Earned: quests.lua's plain values, as decoded; the engine applies them itself.
    var questKnobs: QuestPolicy.Knobs { get }
    /// Earned: why a quest type is disabled at the gate (an A4.2 reason), nil when it is enabled.
    func questBlocked(_ gate: QuestGate) throws -> UnlockDenialReason?
    /// Earned: why the emergency unlock is disabled at the gate, nil when it is enabled.
    func emergencyBlocked(_ gate: EmergencyGate) throws -> UnlockDenialReason?
    /// Earned: the price in credits of the unlock length `context.minutes` in its situation.
    func price(_ context: PriceContext) throws -> Int
    /// `price`, and the fields of `context` it read (`PriceContext.luaViewKeys`): the same price
    /// holds for every context that agrees on them. The default: `price`, all fields.
    func readingPrice(_ context: PriceContext) throws -> (credits: Int, read: LuaFieldReads)
    /// Earned: the price of every unlock length of `credit_costs` in `situation`, checked against
    /// `PriceBounds` (the default asks `price` once per length).
    func prices(in situation: PriceContext) throws -> [PricingPolicy.CreditCost]
    /// Earned: the params pricing.lua declares (`ctx.params` holds their defaults).
    var priceParams: RuleParams { get }
    /// Earned: the credits an ended focus session earns.
    func focusCredits(_ session: FocusOutcome) throws -> Int
    /// Earned: the credits carried over the daily rollover from `balance`.
    func carriedCredits(balance: Int) throws -> Int
    /// Earned: the award of one habit completion, given the completions in the suspension window before it.
    func habitAward(rewardCredits: Int, completionsInWindow: Int) throws -> HabitAward
    /// Earned: the index (0-based) of the mode in force at `now` among `modes`, nil when none is.
    func effectiveMode(_ modes: [ModeCandidate], at now: LocalMoment) throws -> Int?
    /// Which arguments the rules' calls reuse (`LuaLimits.argumentReuse`; `kept` for rules not in
    /// Lua): a `RuleMemo` remembers prices by the fields read only when it is `kept`.
    var argumentReuse: ArgumentReuse { get }
}

extension PolicyRules {
    package var argumentReuse: ArgumentReuse { .kept }
}

/// Pressure's streak: consecutive extending days, and the longest ever.
package struct PressureStreak: Hashable, Sendable {
    package var current: Int
    package var longest: Int
    package init(current: Int, longest: Int) {
        self.current = current
        self.longest = longest
    }
}

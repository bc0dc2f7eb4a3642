import LuaHost
import RulesModel

/// The policies the engine asks, wherever they run: in Lua (`RuleSet`) or natively
/// (`NativeReference`, the seeds' defaults in Swift, for property tests). Every method is a pure
/// function of its arguments.
public protocol PolicyRules: AnyObject {
    /// The parameters the engine applies itself (shields, day boundaries, limits).
    var parameters: PolicyParameters { get }

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
    public var argumentReuse: ArgumentReuse { .kept }
}

/// The plain parameters of a rule set (no functions).
public struct PolicyParameters: Sendable, Equatable {
    public var maxTier: Int
    public var persistentBadgeFromTier: Int
    public var noCommitmentCountsAs: CommitmentStatus
    public var shieldsPerMonthPaid: Int
    public var shieldsPerMonthFree: Int
    public var shieldActivationWindowMinutes: Int
    public var habitDayStartsAt: LocalTime
    /// `habit.max_backfill_days`: how far back habit events may reach (0: today only).
    public var habitMaxBackfillDays: Int
    /// The completions a habit period needs to be `done` (the host's status): `habit.min_completions`,
    /// raised to the task's times per day when `habit.require_times_per_day`.
    public var habitMinCompletions: Int
    public var habitRequireTimesPerDay: Bool
    /// `habit.best_order`: how the state lists a task's best streaks.
    public var habitBestOrder: HabitStreak.BestOrder = .longest
    /// `habit.max_completions_per_day`: nil, any number.
    public var habitMaxCompletionsPerDay: Int?
    /// `habit.track_app_opens`: the engine records the days the user opened the app, and
    /// `habit.streak`'s periods carry `opened`.
    public var habitTrackAppOpens = false
    public var migaDayStartsAt: LocalTime
    public var earnedDayStartsAt: LocalTime
    /// `earned.freeze_max`: the freeze policy is on when above 0 (the rollover's decision then
    /// shows the freezes held).
    public var earnedFreezeMax: Int

    public init(
        maxTier: Int, persistentBadgeFromTier: Int, noCommitmentCountsAs: CommitmentStatus, shieldsPerMonthPaid: Int,
        shieldsPerMonthFree: Int, shieldActivationWindowMinutes: Int, habitDayStartsAt: LocalTime,
        migaDayStartsAt: LocalTime, earnedDayStartsAt: LocalTime, habitMinCompletions: Int = 1,
        habitRequireTimesPerDay: Bool = false, habitMaxBackfillDays: Int = 0, earnedFreezeMax: Int = 0
    ) {
        self.earnedFreezeMax = earnedFreezeMax
        self.habitMaxBackfillDays = habitMaxBackfillDays
        self.maxTier = maxTier
        self.persistentBadgeFromTier = persistentBadgeFromTier
        self.noCommitmentCountsAs = noCommitmentCountsAs
        self.shieldsPerMonthPaid = shieldsPerMonthPaid
        self.shieldsPerMonthFree = shieldsPerMonthFree
        self.shieldActivationWindowMinutes = shieldActivationWindowMinutes
        self.habitDayStartsAt = habitDayStartsAt
        self.habitMinCompletions = habitMinCompletions
        self.habitRequireTimesPerDay = habitRequireTimesPerDay
        self.migaDayStartsAt = migaDayStartsAt
        self.earnedDayStartsAt = earnedDayStartsAt
    }
}

/// Pressure's streak: consecutive extending days, and the longest ever.
public struct PressureStreak: Hashable, Sendable {
    public var current: Int
    public var longest: Int
    public init(current: Int, longest: Int) {
        self.current = current
        self.longest = longest
    }
}

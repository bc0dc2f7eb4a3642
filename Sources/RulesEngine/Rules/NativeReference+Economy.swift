import LuaHost
import RulesModel

/// Earned's economy in Swift, knob for knob as rules/pricing.lua, rules/quests.lua and
/// rules/modes.lua (earned-data-model-v1.1.md, A4.1 settings and A4.2 disabled reasons).
extension NativeReference {
    /// A4.1 credit_costs: 5/15/30 minutes for 10/25/45 credits (`credit_costs`).
    public static let creditCosts = [
        PricingPolicy.CreditCost(minutes: 5, credits: 10), PricingPolicy.CreditCost(minutes: 15, credits: 25),
        PricingPolicy.CreditCost(minutes: 30, credits: 45),
    ]
    /// economy_state.rollover_cap DEFAULT 10 (`rollover_cap`).
    public static let rolloverCap = 10
    /// A4.1 focus.min_minutes_to_qualify (`focus.min_minutes_to_qualify`).
    public static let focusMinMinutesToQualify = 20
    /// Decision of pricing.lua: one credit per 5 focused minutes (`focus.minutes_per_credit`).
    public static let focusMinutesPerCredit = 5
    /// Decision of pricing.lua: more than 6 completions within 60 minutes suspend habit awards for
    /// the next day (`habits.suspension`).
    public static let suspension = (maxCompletions: 6, windowMinutes: 60, suspendDays: 1)

    public var economy: EconomyParameters {
        EconomyParameters(
            creditCosts: Self.creditCosts, rolloverCap: Self.rolloverCap, focusMinMinutesToQualify: Self.focusMinMinutesToQualify,
            focusPresetMinutes: [25, 50, 75], defaultRewardCredits: 5, suspensionWindowMinutes: Self.suspension.windowMinutes,
            suspendDays: Self.suspension.suspendDays, questTypes: QuestType.allCases, questUnlockMinutes: 5, questSessionMinutes: 10,
            questMaxUnlocksPerAppPerDay: 2, questCooldownMinutesPerApp: 15, keyChangeCooldownHoursStrict: 24,
            emergencyDailyLimit: 1, emergencyDelaySeconds: 60, emergencyUnlockMinutes: 5,
            emergencyBlockSameAppConsecutive: true, gateExpiresAfterMinutes: 10)
    }

    /// quests.lua `quest_blocked`: HARD mode, then the daily limit (2), the cooldown (15 minutes),
    /// the QR key.
    public func questBlocked(_ gate: QuestGate) throws -> UnlockDenialReason? {
        if gate.strictness == .hard { return .disallowedInHardMode }
        if gate.questUnlocksToday >= 2 { return .dailyLimitReached }
        if let since = gate.minutesSinceLastQuestUnlock, since < 15 { return .cooldownActive }
        if gate.questType == .qrScan && !gate.qrKeySet { return .qrKeyNotSet }
        return nil
    }

    /// quests.lua `emergency_blocked`: one a day, never the same app twice in a row.
    public func emergencyBlocked(_ gate: EmergencyGate) throws -> UnlockDenialReason? {
        if gate.usedToday >= 1 { return .dailyLimitReached }
        if gate.sameAppAsLast { return .sameAppConsecutiveBlocked }
        return nil
    }

    /// pricing.lua `price` reads the length only (field 0 of `PriceContext.luaViewKeys`).
    public func readingPrice(_ context: PriceContext) throws -> (credits: Int, read: LuaFieldReads) {
        (try price(context), .field(0))
    }

    /// pricing.lua `price`: the length's credits in `credit_costs`, whatever the situation.
    public func price(_ context: PriceContext) throws -> Int {
        guard let cost = Self.creditCosts.first(where: { $0.minutes == context.minutes }) else {
            throw EngineError(.ruleViolation, "price: no unlock of \(context.minutes) minutes in credit_costs")
        }
        return cost.credits
    }

    /// pricing.lua `focus_credits`.
    public func focusCredits(_ session: FocusOutcome) throws -> Int {
        session.actualMinutes < Self.focusMinMinutesToQualify ? 0 : session.actualMinutes / Self.focusMinutesPerCredit
    }

    /// pricing.lua `carried_credits`.
    public func carriedCredits(balance: Int) throws -> Int { min(balance, Self.rolloverCap) }

    /// pricing.lua `habit_award`.
    public func habitAward(rewardCredits: Int, completionsInWindow: Int) throws -> HabitAward {
        completionsInWindow + 1 > Self.suspension.maxCompletions
            ? HabitAward(credits: 0, suspend: true)
            : HabitAward(credits: rewardCredits, suspend: false)
    }

    /// modes.lua `effective_mode`: among the active modes, the highest priority, then the strictest;
    /// the first one listed on a tie.
    public func effectiveMode(_ modes: [ModeCandidate], at now: LocalMoment) throws -> Int? {
        var best: Int?
        for (i, mode) in modes.enumerated() where Self.active(mode, at: now) {
            guard let b = best else { best = i; continue }
            if mode.priority > modes[b].priority
                || (mode.priority == modes[b].priority && mode.strictness.rank > modes[b].strictness.rank)
            {
                best = i
            }
        }
        return best
    }

    /// modes.lua `mode_active`: a manual override in force wins; otherwise any window.
    static func active(_ mode: ModeCandidate, at now: LocalMoment) -> Bool {
        if mode.overrideInForce && mode.manualState == .forcedOn { return true }
        if mode.overrideInForce && mode.manualState == .forcedOff { return false }
        return mode.windows.contains { windowActive($0, at: now) }
    }

    /// modes.lua `window_active`: windows that end before they start cross midnight (the part after
    /// midnight belongs to the previous day's mask); equal bounds mean the whole day.
    static func windowActive(_ window: ModeCandidate.Window, at now: LocalMoment) -> Bool {
        func has(_ weekday: Int) -> Bool { window.daysMask >> (weekday - 1) & 1 == 1 }
        let (s, e, m) = (window.startMinutes, window.endMinutes, now.minutes)
        let previous = now.weekday == 1 ? 7 : now.weekday - 1
        if s < e { return has(now.weekday) && m >= s && m < e }
        if s > e { return (has(now.weekday) && m >= s) || (has(previous) && m < e) }
        return has(now.weekday)
    }
}

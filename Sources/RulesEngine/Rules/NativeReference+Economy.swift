import LuaHost
import RulesModel

/// Earned's economy in Swift, knob for knob as rules/pricing.lua, rules/quests.lua and
/// rules/modes.lua (earned-data-model-v1.1.md, A4.1 settings and A4.2 disabled reasons).
extension NativeReference {
    /// pricing.lua's values (earned-data-model-v1.1.md A4.1 and the file's decisions): unlocks of
    /// 5/15/30 minutes for 10/25/45 credits; economy_state.rollover_cap DEFAULT 10; focus presets
    /// 25/50/75 minutes, a session qualifies from 20 minutes and earns one credit per 5; a habit's
    /// reward DEFAULT 5, and more than 6 completions within 60 minutes suspend habit awards for the
    /// next day.
    package static let pricing = PricingPolicy.Knobs(
        creditCosts: [
            PricingPolicy.CreditCost(minutes: 5, credits: 10), PricingPolicy.CreditCost(minutes: 15, credits: 25),
            PricingPolicy.CreditCost(minutes: 30, credits: 45),
        ],
        rolloverCap: 10, focus: PricingPolicy.Focus(presetMinutes: [25, 50, 75], minMinutesToQualify: 20, minutesPerCredit: 5),
        habits: PricingPolicy.Habits(
            defaultRewardCredits: 5,
            suspension: PricingPolicy.Habits.Suspension(maxCompletions: 6, windowMinutes: 60, suspendDays: 1)))

    /// quests.lua's values (A4.1, fixed in v1.1): every quest type, a quest unlocks 5 minutes and
    /// runs 10, at most 2 a day per app 15 minutes apart, never in HARD mode, QR_SCAN needs the key
    /// (which changes 24 hours apart in STRICT and HARD mode); one emergency unlock a day, after
    /// 60 seconds, for 5 minutes, never the same app twice in a row; an attempt expires after 10
    /// minutes; A8's retention.
    package static let quests = QuestPolicy.Knobs(
        specVersion: .v1_1,
        quest: QuestPolicy.Quest(
            enabledTypes: QuestType.allCases, unlockMinutes: 5, maxUnlocksPerAppPerDay: 2, cooldownMinutesPerApp: 15,
            qrRequiresKey: true, allowedIn: ["GENTLE": true, "STRICT": true, "HARD": false], keyChangeCooldownHoursStrict: 24,
            sessionMinutes: 10),
        emergency: QuestPolicy.Emergency(dailyLimit: 1, delaySeconds: 60, unlockMinutes: 5, blockSameAppConsecutive: true),
        gate: QuestPolicy.Gate(expiresAfterMinutes: 10), retention: QuestPolicy.Retention())

    package var pricingKnobs: PricingPolicy.Knobs { Self.pricing }
    package var questKnobs: QuestPolicy.Knobs { Self.quests }

    /// quests.lua `quest_blocked`: the modes that allow quests, then the daily limit, the
    /// cooldown, the QR key.
    package func questBlocked(_ gate: QuestGate) throws -> UnlockDenialReason? {
        let quest = Self.quests.quest
        if quest.allowedIn[gate.strictness.rawValue] != true { return .disallowedInHardMode }
        if gate.questUnlocksToday >= quest.maxUnlocksPerAppPerDay { return .dailyLimitReached }
        if let since = gate.minutesSinceLastQuestUnlock, since < quest.cooldownMinutesPerApp { return .cooldownActive }
        if gate.questType == .qrScan && quest.qrRequiresKey && !gate.qrKeySet { return .qrKeyNotSet }
        return nil
    }

    /// quests.lua `emergency_blocked`: the daily limit, then the same app twice in a row.
    package func emergencyBlocked(_ gate: EmergencyGate) throws -> UnlockDenialReason? {
        let emergency = Self.quests.emergency
        if gate.usedToday >= emergency.dailyLimit { return .dailyLimitReached }
        if emergency.blockSameAppConsecutive && gate.sameAppAsLast { return .sameAppConsecutiveBlocked }
        return nil
    }

    /// pricing.lua `price` reads the length only.
    package func readingPrice(_ context: PriceContext) throws -> (credits: Int, read: LuaFieldReads) {
        (try price(context), PriceContext.bit(PriceContext.minutesKey))
    }

    /// pricing.lua `price`: the length's credits in `credit_costs`, whatever the situation.
    package func price(_ context: PriceContext) throws -> Int {
        guard let cost = Self.pricing.creditCosts.first(where: { $0.minutes == context.minutes }) else {
            throw EngineError(.ruleViolation, "price: no unlock of \(context.minutes) minutes in credit_costs")
        }
        return cost.credits
    }

    /// pricing.lua `focus_credits`.
    package func focusCredits(_ session: FocusOutcome) throws -> Int {
        let focus = Self.pricing.focus
        return session.actualMinutes < focus.minMinutesToQualify ? 0 : session.actualMinutes / focus.minutesPerCredit
    }

    /// pricing.lua `carried_credits`.
    package func carriedCredits(balance: Int) throws -> Int { min(balance, Self.pricing.rolloverCap) }

    /// pricing.lua `habit_award`.
    package func habitAward(rewardCredits: Int, completionsInWindow: Int) throws -> HabitAward {
        completionsInWindow + 1 > Self.pricing.habits.suspension.maxCompletions
            ? HabitAward(credits: 0, suspend: true)
            : HabitAward(credits: rewardCredits, suspend: false)
    }

    /// modes.lua `effective_mode`: among the active modes, the highest priority, then the strictest;
    /// the first one listed on a tie.
    package func effectiveMode(_ modes: [ModeCandidate], at now: LocalMoment) throws -> Int? {
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

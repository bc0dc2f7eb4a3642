import LuaHost
import RulesModel

/// What the unlock gate needs to know when it opens for an app (Earned, A4.2).
package struct UnlockGateInput: Sendable, Equatable {
    package var generatedAt: EpochMillis
    package var modeID: String?
    package var strictness: Strictness
    package var appID: AppID
    package var creditBalance: Int
    /// Quest unlocks of this app granted today (failed, cancelled and expired quests never count).
    package var questUnlocksToday: Int
    /// Minutes since this app's last quest unlock, nil when there was none.
    package var minutesSinceLastQuestUnlock: Int?
    package var qrKeySet: Bool
    package var emergencyUsedToday: Int
    /// Whether the last emergency unlock was for this same app.
    package var sameAppAsLastEmergency: Bool
    /// The credits of each unlock length (pricing.lua `price` in this situation, or the prices
    /// recorded when the gate opened); nil: the `credit_costs` table.
    package var prices: [PricingPolicy.CreditCost]?

    package init(
        generatedAt: EpochMillis, modeID: String?, strictness: Strictness, appID: AppID, creditBalance: Int,
        questUnlocksToday: Int = 0, minutesSinceLastQuestUnlock: Int? = nil, qrKeySet: Bool = false,
        emergencyUsedToday: Int = 0, sameAppAsLastEmergency: Bool = false, prices: [PricingPolicy.CreditCost]? = nil
    ) {
        self.generatedAt = generatedAt
        self.modeID = modeID
        self.strictness = strictness
        self.appID = appID
        self.creditBalance = creditBalance
        self.questUnlocksToday = questUnlocksToday
        self.minutesSinceLastQuestUnlock = minutesSinceLastQuestUnlock
        self.qrKeySet = qrKeySet
        self.emergencyUsedToday = emergencyUsedToday
        self.sameAppAsLastEmergency = sameAppAsLastEmergency
        self.prices = prices
    }
}

extension PolicyRules {
    /// The options snapshot of the unlock gate, in A4.2's shape, as the rules decide it:
    /// - credits: one entry per unlock length of pricing.lua at the gate's `prices`, disabled with INSUFFICIENT_CREDITS
    ///   when the balance is short; the option is enabled when any length is;
    /// - quests: one entry per enabled quest type, disabled with the reason `quest_blocked` gives;
    ///   the option is enabled when any type is, else it carries the reason its types share (or the
    ///   first type's). Decision: with no quest type enabled the option is left out;
    /// - emergency: disabled with the reason `emergency_blocked` gives, with the delay and length
    ///   of quests.lua.
    package func unlockOptions(_ gate: UnlockGateInput) throws -> AvailableOptions {
        let (pricing, quests) = (pricingKnobs, questKnobs)
        let durations = (gate.prices ?? pricing.creditCosts).map { cost in
            let affordable = gate.creditBalance >= cost.credits
            return AvailableOptions.Duration(
                minutes: cost.minutes, costCredits: cost.credits, enabled: affordable,
                disabledReason: affordable ? nil : .insufficientCredits)
        }
        let creditsEnabled = durations.contains(where: \.enabled)
        var options: [AvailableOptions.Option] = []
        options.reserveCapacity(3)  // at every unlock: one array, not one grown twice
        options.append(.credits(enabled: creditsEnabled, disabledReason: creditsEnabled ? nil : .insufficientCredits, durations: durations))
        let choices = try quests.quest.enabledTypes.map { type in
            let reason = try questBlocked(
                QuestGate(
                    strictness: gate.strictness, questType: type, questUnlocksToday: gate.questUnlocksToday,
                    minutesSinceLastQuestUnlock: gate.minutesSinceLastQuestUnlock, qrKeySet: gate.qrKeySet))
            return AvailableOptions.QuestChoice(questType: type, enabled: reason == nil, disabledReason: reason)
        }
        if !choices.isEmpty {
            let enabled = choices.contains(where: \.enabled)
            let reasons = choices.compactMap(\.disabledReason)
            let shared = reasons.allSatisfy { $0 == reasons.first } ? reasons.first : choices.first?.disabledReason
            options.append(.quest(enabled: enabled, disabledReason: enabled ? nil : shared, questTypes: choices))
        }
        let emergencyReason = try emergencyBlocked(
            EmergencyGate(usedToday: gate.emergencyUsedToday, sameAppAsLast: gate.sameAppAsLastEmergency))
        options.append(
            .emergency(
                enabled: emergencyReason == nil, disabledReason: emergencyReason,
                delaySeconds: quests.emergency.delaySeconds, unlockMinutes: quests.emergency.unlockMinutes))
        let snapshot = AvailableOptions(
            generatedAt: gate.generatedAt, modeID: gate.modeID, modeStrictness: gate.strictness,
            appID: gate.appID, options: options)
        try snapshot.validate()
        return snapshot
    }
}

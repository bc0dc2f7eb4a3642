import LuaHost
import RulesModel

/// The Lua rule set answers the economy's questions (pricing.lua, quests.lua, modes.lua).
extension RuleSet {
    package var pricingKnobs: PricingPolicy.Knobs { pricing.knobs }
    package var questKnobs: QuestPolicy.Knobs { quests.knobs }

    package func questBlocked(_ gate: QuestGate) throws -> UnlockDenialReason? {
        try denialReason(host.call(quests.questBlocked, Pooled(gate), returning: LuaValue.self), from: quests.questBlocked)
    }

    package func emergencyBlocked(_ gate: EmergencyGate) throws -> UnlockDenialReason? {
        try denialReason(host.call(quests.emergencyBlocked, Pooled(gate), returning: LuaValue.self), from: quests.emergencyBlocked)
    }

    package func price(_ context: PriceContext) throws -> Int { try readingPrice(context).credits }

    /// The context goes to the rule as a view: the host learns which fields it read.
    package func readingPrice(_ context: PriceContext) throws -> (credits: Int, read: LuaFieldReads) {
        let answer = try host.call(pricing.price, View(context), returning: LuaReadAnswer.self)
        return (try integer(answer.value, from: pricing.price), answer.reads)
    }

    package func focusCredits(_ session: FocusOutcome) throws -> Int {
        try integer(host.call(pricing.focusCredits, Pooled(session), returning: LuaValue.self), from: pricing.focusCredits)
    }

    package func carriedCredits(balance: Int) throws -> Int {
        try integer(host.call(pricing.carriedCredits, .integer(Int64(balance))).first, from: pricing.carriedCredits)
    }

    package func habitAward(rewardCredits: Int, completionsInWindow: Int) throws -> HabitAward {
        let out =
            try host.call(
                pricing.habitAward,
                [
                    "reward_credits": .integer(Int64(rewardCredits)),
                    "completions_in_window": .integer(Int64(completionsInWindow)),
                ]
            ).first ?? .nil
        do {
            return try LuaDecoder().decode(HabitAward.self, from: out)
        } catch let error as LuaError {
            throw LuaError(
                kind: .decoding, file: pricing.habitAward.source, line: pricing.habitAward.line, path: error.path,
                message: "habit_award returned \(out.errorDescription): \(error.message)")
        }
    }

    package func effectiveMode(_ modes: [ModeCandidate], at now: LocalMoment) throws -> Int? {
        let out = try host.call(self.modes.effectiveMode, KeptList(modes), Pooled(now), returning: LuaValue.self)
        if out.isNil { return nil }
        guard let index = out.integerValue, out.doubleValue == Double(index), (1...Int64(modes.count)).contains(index) else {
            throw LuaError(
                kind: .decoding, file: self.modes.effectiveMode.source, line: self.modes.effectiveMode.line,
                message: "effective_mode returned \(out.errorDescription), expected nil or an index of the \(modes.count) modes given")
        }
        return Int(index) - 1
    }

    private func denialReason(_ value: LuaValue?, from function: LuaFunction) throws -> UnlockDenialReason? {
        guard let value, !value.isNil else { return nil }
        guard let text = value.stringValue, let reason = UnlockDenialReason(rawValue: text) else {
            throw LuaError(
                kind: .decoding, file: function.source, line: function.line,
                message: "returned \(value.errorDescription), expected nil or a disabled reason of A4.2")
        }
        return reason
    }
}

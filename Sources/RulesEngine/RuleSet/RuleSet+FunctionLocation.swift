import LuaHost

extension RuleSet {
    /// The rule function a message of the engine is about, by the name it starts with
    /// (`transition(tier 3, …) returned tier 7` → `transition`), as `file:line` of its definition
    /// (`escalation.lua:3`); nil when the message names no rule function.
    public func location(ofFunctionIn message: String) -> String? {
        let functions: [(String, LuaFunction)] = [
            ("transition", escalation.transition), ("reminder_times", escalation.reminderTimes),
            ("pressure.next", streaks.pressure.next), ("habit.streak", streaks.habit.streak),
            ("miga.current_streak", streaks.miga.currentStreak), ("earned.qualifies", streaks.earned.qualifies),
            ("earned.bonus", streaks.earned.bonus), ("focus_credits", pricing.focusCredits),
            ("carried_credits", pricing.carriedCredits), ("habit_award", pricing.habitAward), ("price", pricing.price),
            ("quest_blocked", quests.questBlocked), ("emergency_blocked", quests.emergencyBlocked),
            ("effective_mode", modes.effectiveMode), ("mode_active", modes.modeActive), ("window_active", modes.windowActive),
        ]
        let name = message.prefix { $0 != "(" && $0 != " " }
        guard let function = functions.first(where: { $0.0 == name })?.1, function.line > 0 else { return nil }
        return "\(function.source):\(function.line)"
    }
}

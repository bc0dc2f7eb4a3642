import LuaHost

extension RuleSet {
    /// The rule functions the engine calls: the name messages give each (`transition`,
    /// `pressure.next`) and the file whose table holds it (`escalation`).
    var ruleFunctions: [(name: String, module: String, function: LuaFunction)] {
        [
            ("transition", "escalation", escalation.transition), ("reminder_times", "escalation", escalation.reminderTimes),
            ("pressure.next", "streaks", streaks.pressure.next), ("habit.streak", "streaks", streaks.habit.streak),
            ("miga.current_streak", "streaks", streaks.miga.currentStreak), ("earned.qualifies", "streaks", streaks.earned.qualifies),
            ("earned.bonus", "streaks", streaks.earned.bonus), ("earned.day_ends", "streaks", streaks.earned.dayEnds),
            ("focus_credits", "pricing", pricing.focusCredits), ("carried_credits", "pricing", pricing.carriedCredits),
            ("habit_award", "pricing", pricing.habitAward), ("price", "pricing", pricing.price),
            ("quest_blocked", "quests", quests.questBlocked), ("emergency_blocked", "quests", quests.emergencyBlocked),
            ("effective_mode", "modes", modes.effectiveMode), ("mode_active", "modes", modes.modeActive),
            ("window_active", "modes", modes.windowActive),
        ]
    }

    /// Every rule function the engine calls, by its name from its file's table (`pricing.price`),
    /// as this set defines it (an inherited one where its base file does).
    package var namedRuleFunctions: [(name: String, function: LuaFunction)] {
        ruleFunctions.map { ("\($0.module).\($0.name)", $0.function) }
    }

    /// The rule function a message of the engine is about, by the name it starts with
    /// (`transition(tier 3, …) returned tier 7` → `transition`), as `file:line` of its definition
    /// (`escalation.lua:3`); nil when the message names no rule function.
    package func location(ofFunctionIn message: String) -> String? {
        let name = message.prefix { $0 != "(" && $0 != " " }
        guard let function = ruleFunctions.first(where: { $0.name == name })?.function, function.line > 0 else { return nil }
        return "\(function.source):\(function.line)"
    }

    /// The name of a rule function from its file's table (`escalation.transition`,
    /// `streaks.habit.streak`), or nil for a function the engine does not call by name.
    /// A function of a file loaded again (with knobs changed: `with_knobs`) is named as the one
    /// defined at the same place.
    package func qualifiedName(of function: LuaFunction) -> String? {
        let functions = ruleFunctions
        let found =
            functions.first { $0.function == function }
            ?? functions.first { $0.function.source == function.source && $0.function.line == function.line && function.line > 0 }
        return found.map { "\($0.module).\($0.name)" }
    }
}

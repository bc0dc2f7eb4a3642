import RulesModel

/// A habit task's `params` against streaks.lua's declared params (design17 §1; docs/rules.md).
///
/// Decision, when the rule set changes under stored tasks (a reload, or a replay against another
/// folder): a stored value whose name streaks.lua no longer declares is ignored (the rule receives
/// the declared params, at their defaults where the task sets none); a stored value the declaration
/// no longer accepts (out of the new range, another type, not one of the enum's values) refuses
/// the event that asks for the streak with RULE_VIOLATION naming the task and `params.NAME`, and
/// changes nothing: redefining the task with a `habit_task` that sets an accepted value mends it.
/// The state leaves that task's streak out and says why under `habit_streak_errors`, so the user's
/// other events go on (`Engine.habitStreaks(_:at:)`).
extension Engine {
    /// Checks the params a `habit_task` sets: an undeclared name (with a suggestion for a misspelt
    /// one), a wrong type or a value out of range is INVALID_EVENT naming `params.NAME`.
    func checkTaskParams(_ params: [String: ParamValue]) throws(EngineError) {
        _ = try rules.streakParams.resolve(ParamOverrides(params))
    }

    /// The params `habit.streak` receives as `task.params` for `task` (named `name` in events).
    func taskParams(_ task: HabitTask, name: String) throws(EngineError) -> ResolvedParams {
        let declared = rules.streakParams
        guard !task.params.isEmpty else { return declared.defaults }
        let kept = task.params.filter { declared[$0.key] != nil }
        do {
            return try declared.resolve(ParamOverrides(kept))
        } catch {
            let message = "habit task \"\(name)\" stores a value streaks.lua's params no longer accept: \(error.message)"
            throw EngineError(.ruleViolation, message + " (redefine the task with a habit_task that sets an accepted value)")
        }
    }
}

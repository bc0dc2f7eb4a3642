import RulesModel

extension EventDeclaration {
    /// `habit_completion`: one completion of a task, of today or of a past day.
    static let habitCompletion: EventDeclaration = {
        let task = EventField.required("task", .name)
        let value = EventField.optional("value", .number, "goal tasks only", doc: "goal tasks only")
        let forDay = EventField.optional(
            "for_day", .day, "a past day within habit.max_backfill_days",
            doc: "`YYYY-MM-DD`, from `habit.max_backfill_days` days back (0: today only) up to today, not before the task's start")
        return EventDeclaration(
            "habit_completion", app: .habitTracker,
            doc: """
                one completion, of today or of `for_day` (recorded at that day's last millisecond), refused (`INVALID_EVENT`) \
                when that day has `habit.max_completions_per_day` already; the decision gives the task's period and current streak
                """,
            fields: [task, value, forDay],
            make: { v in .habitCompletion(task: v[task], value: v[value], forDay: v[forDay]) },
            values: { kind in
                guard case .habitCompletion(let t, let amount, let day) = kind else { return [] }
                return [task.with(t), value.with(amount), forDay.with(day)]
            })
    }()
}

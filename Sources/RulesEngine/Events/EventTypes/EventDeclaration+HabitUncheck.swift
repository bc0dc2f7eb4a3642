import RulesModel

extension EventDeclaration {
    /// `habit_uncheck`: removes the latest completion of a task on a day.
    static let habitUncheck: EventDeclaration = {
        let task = EventField.required("task", .name)
        let day = EventField.optional("day", .day, "default: today", doc: "default today; back as far as `for_day`")
        return EventDeclaration(
            "habit_uncheck", app: .habitTracker,
            doc: """
                removes that day's latest completion (`INVALID_EVENT` when it has none); decision `{task, day, \
                completions_on_day, current_streak}`
                """,
            fields: [task, day],
            make: { v in .habitUncheck(task: v[task], day: v[day]) },
            values: { kind in
                guard case .habitUncheck(let t, let d) = kind else { return [] }
                return [task.with(t), day.with(d)]
            })
    }()
}

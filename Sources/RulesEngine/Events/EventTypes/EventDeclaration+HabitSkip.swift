import RulesModel

extension EventDeclaration {
    /// `habit_skip`: a task is skipped on a day.
    static let habitSkip: EventDeclaration = {
        let task = EventField.required("task", .name)
        let day = EventField.optional(
            "day", .day, "default: today", doc: "default today; up to a year ahead, back as far as `for_day`")
        return EventDeclaration(
            "habit_skip", app: .habitTracker, doc: "the task is skipped that day (once per day); decision `{task, day}`",
            fields: [task, day],
            make: { v in .habitSkip(task: v[task], day: v[day]) },
            values: { kind in
                guard case .habitSkip(let t, let d) = kind else { return [] }
                return [task.with(t), day.with(d)]
            })
    }()
}

import RulesModel

extension EventDeclaration {
    /// `habit_freeze`: a streak freeze used on a day, or equipped.
    static let habitFreeze: EventDeclaration = {
        let task = EventField.required("task", .name)
        let action = EventField.required("action", .enumeration(FreezeAction.self))
        let day = EventField.optional("day", .day, "default: today", doc: "default today; back as far as `for_day`")
        return EventDeclaration(
            "habit_freeze", app: .habitTracker,
            doc: """
                a streak freeze used on a day (once per day) or equipped (held; any number); how many may be used is the streak \
                rule's to decide; decision `{task, action, day, freezes_equipped}` (equipped since the task's start)
                """,
            fields: [task, action, day],
            make: { v in .habitFreeze(task: v[task], action: v[action], day: v[day]) },
            values: { kind in
                guard case .habitFreeze(let t, let a, let d) = kind else { return [] }
                return [task.with(t), action.with(a), day.with(d)]
            })
    }()
}

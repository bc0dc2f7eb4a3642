import RulesModel

extension EventDeclaration {
    /// `habit_task`: defines or changes a habit task; only the fields given change.
    static let habitTask: EventDeclaration = {
        let task = EventField.required("task", .name, doc: "a name")
        let title = EventField.optional("title", .string, doc: "1–100 characters; default the name's first 100")
        let measurement = EventField.optional(
            "measurement", .enumeration(MeasurementDuration.self),
            doc: "a weekly or monthly task's `times_per_day` is its target for the period")
        let frequency = EventField.optional(
            "frequency", .named(FrequencyType.self, \.eventName, written: \.rawValue),
            doc: """
                `times_in_days` needs `times` x (1…y) and `days` y (2…365), `every_n_days` `every` n (2…365, counted from the \
                start date), `days_of_month` `days_of_month` (1…31; a day past a shorter month's end is its last day)
                """)
        let timesPerDay = EventField.optional("times_per_day", .integer)
        let scheduledDays = EventField.optional("scheduled_days", .weekdays, doc: "ISO weekdays 1–7")
        let times = EventField.optional("times", .integer, "times_in_days: x times …")
        let days = EventField.optional("days", .integer, "… in y days (2–365)")
        let every = EventField.optional("every", .integer, "every_n_days: every n days (2–365) from the start date")
        let daysOfMonth = EventField.optional(
            "days_of_month", .list(.integer, schema: .object([("type", .string("array")), ("items", EventSchema.type("integer"))])),
            "days 1–31")
        let goalType = EventField.optional(
            "goal_type", .enumeration(GoalType.self),
            doc: "a task whose completions have values keeps a goal: `none` is refused, another type is not")
        let goalValue = EventField.optional("goal_value", .number, "> 0", doc: "> 0")
        let goalUnit = EventField.optional("goal_unit", .string, "one of the goal type's units", doc: "one of the goal type's units")
        let goalDirection = EventField.optional(
            "goal_direction", .named(GoalDirection.self, \.eventName, written: \.eventName),
            doc: "`at_most` is a ceiling, which needs a `goal_value`")
        let startDate = EventField.optional(
            "start_date", .day,
            doc: "`YYYY-MM-DD`, a habit day; default the day it is created; a later day is a task that starts then, see below")
        let params = EventField.optional(
            "params", .params, "values of the params streaks.lua declares",
            doc: """
                an object of at most 64 names `[a-z][a-z0-9_]*` with numbers, booleans or strings of at most 40 bytes, each \
                checked against streaks.lua's declared params: docs/rules.md
                """)
        let fields: [any AnyEventField] = [
            task, title, measurement, frequency, timesPerDay, scheduledDays, times, days, every, daysOfMonth, goalType, goalValue,
            goalUnit, goalDirection, startDate, params,
        ]
        // What a frequency, a ceiling and a goal type need with them.
        let needs: [JSONValue] =
            [
                EventSchema.when("frequency", is: FrequencyType.timesInDays, require: ["times", "days"]),
                EventSchema.when("frequency", is: FrequencyType.everyNDays, require: ["every"]),
                EventSchema.when(
                    "frequency", is: FrequencyType.daysOfMonth, require: ["days_of_month"],
                    [("days_of_month", .object([("minItems", .int(1))]))]),
                EventSchema.when("goal_direction", is: GoalDirection.atMost, require: ["goal_value"]),
            ]
            + GoalType.allCases.filter { !$0.compatibleUnits.isEmpty }.map { goal in
                EventSchema.when(
                    "goal_type", in: [goal.rawValue], require: ["goal_unit"],
                    [("goal_unit", .object([("enum", .array(goal.compatibleUnits.map(JSONValue.string)))]))])
            }
        return EventDeclaration(
            "habit_task", app: .habitTracker, doc: "defines or changes a habit task; giving `frequency` sets its own fields afresh",
            fields: fields,
            // (The order the type's fields have always been read in: of two bad fields, the same is named.)
            readOrder: [
                task, title, measurement, frequency, times, days, every, params, timesPerDay, scheduledDays, daysOfMonth, goalType,
                goalValue, goalUnit, goalDirection, startDate,
            ],
            schemaConditions: [("allOf", .array(needs))],
            make: { v in
                .habitTask(
                    HabitTaskDefinition(
                        task: v[task], title: v[title], measurement: v[measurement], frequency: v[frequency],
                        timesPerDay: v[timesPerDay], scheduledDays: v[scheduledDays], times: v[times], days: v[days], every: v[every],
                        daysOfMonth: v[daysOfMonth], goalType: v[goalType], goalValue: v[goalValue], goalUnit: v[goalUnit],
                        goalDirection: v[goalDirection], startDate: v[startDate], params: v[params]))
            },
            values: { kind in
                guard case .habitTask(let t) = kind else { return [] }
                return [
                    task.with(t.task), title.with(t.title), measurement.with(t.measurement), frequency.with(t.frequency),
                    timesPerDay.with(t.timesPerDay), scheduledDays.with(t.scheduledDays), times.with(t.times), days.with(t.days),
                    every.with(t.every), daysOfMonth.with(t.daysOfMonth), goalType.with(t.goalType), goalValue.with(t.goalValue),
                    goalUnit.with(t.goalUnit), goalDirection.with(t.goalDirection), startDate.with(t.startDate), params.with(t.params),
                ]
            })
    }()
}

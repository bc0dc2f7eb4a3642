import Foundation
import RulesModel
import RulesStore

/// Issue 17's habit events: a task's frequency, goal, start date and params (`habit_task`), skips
/// and freezes (`habit_skip`, `habit_freeze`), unchecking a day (`habit_uncheck`) and completing a
/// past day (`habit_completion`'s `for_day`).
///
/// Which days an event may name: from `habit.max_backfill_days` days before today (the user's
/// habit day, `settings.day_starts_at`) up to today, and not before the task's start (its
/// `start_date`, else the day it was created). A skip may also name a future day (up to a year
/// ahead: a planned holiday). Freezes are recorded, not counted: how many a user may hold or use
/// is the streak rule's to decide (it reads `freezes_equipped` and the `frozen` periods).
extension Engine {
    /// A task's validation error in the event's words (the model's field names mapped to the event's).
    static func taskError(_ error: any Error, _ task: HabitTask, _ definition: HabitTaskDefinition) -> EngineError {
        if let error = error as? ModelValidationError, error.field.hasPrefix("params.") {
            return EngineError(.invalidEvent, "\(error.field): expected \(error.rule), found \(error.found)")
        }
        return EngineError(
            .invalidEvent, error,
            fields: [
                "title": definition.title == nil ? "task" : "title", "timesPerDay": "times_per_day", "scheduledDays": "scheduled_days",
                "frequencyTimes": "times", "frequencyDays": frequencyDaysField(task), "daysOfMonth": "days_of_month",
                "goalValue": "goal_value", "goalUnit": "goal_unit", "goalDirection": "goal_direction", "params": "params",
            ])
    }

    /// Applies `habit_task`'s issue-17 fields to `task` (the model checks them afterwards).
    func applyTaskFields(_ definition: HabitTaskDefinition, to task: inout HabitTask) throws {
        if definition.frequency != nil {
            task.frequencyTimes = definition.times
            task.frequencyDays = definition.days ?? definition.every
            task.daysOfMonth = definition.daysOfMonth ?? []
        } else {
            if let times = definition.times { task.frequencyTimes = times }
            if let days = definition.days ?? definition.every { task.frequencyDays = days }
            if let days = definition.daysOfMonth { task.daysOfMonth = days }
        }
        if definition.days != nil, definition.every != nil {
            throw EngineError(.invalidEvent, "every: expected either days (times_in_days) or every (every_n_days), found both")
        }
        let kind = task.frequencyType
        if definition.times != nil, kind != .timesInDays {
            throw EngineError(.invalidEvent, "times: expected only with frequency \"times_in_days\", found frequency \"\(kind.eventName)\"")
        }
        if definition.days != nil, kind != .timesInDays {
            throw EngineError(.invalidEvent, "days: expected only with frequency \"times_in_days\", found frequency \"\(kind.eventName)\"")
        }
        if definition.every != nil, kind != .everyNDays {
            throw EngineError(.invalidEvent, "every: expected only with frequency \"every_n_days\", found frequency \"\(kind.eventName)\"")
        }
        if let goalType = definition.goalType {
            task.goalType = goalType
            if goalType == .none {
                task.goalValue = nil
                task.goalUnit = nil
            }
        }
        if let value = definition.goalValue { task.goalValue = value }
        if let unit = definition.goalUnit { task.goalUnit = unit }
        if let direction = definition.goalDirection { task.goalDirection = direction }
        if task.goalDirection == .atMost, task.goalValue == nil {
            throw EngineError(.invalidEvent, "goal_value: expected a value when goal_direction is \"at_most\" (a ceiling), found none")
        }
        if let start = definition.startDate { task.startDate = start }
        if let params = definition.params {
            task.params = params.mapValues { value in
                if case .number(let number) = value { return ParamValue.of(number) }
                return value
            }
        }
    }

    /// A completion keeps the value it was recorded with, and a task without a goal has none
    /// (habit-tracker-data-model.md §2): the goal of a task whose completions have values cannot
    /// be dropped (another goal type may replace it).
    func requireNoValues(of task: HabitTask, name: String, _ context: UserContext) throws {
        let valued = try context.storage.completions(
            context.userID, taskID: task.id, from: Millis.supportedRange.lowerBound, to: Millis.supportedRange.upperBound
        ).filter { $0.value != nil }.count
        guard valued == 0 else {
            throw EngineError(
                .invalidEvent,
                "goal_type: expected a goal for habit task \"\(name)\", whose completions have values (\(valued) of them), found \"none\"")
        }
    }

    /// The event's name for the model field `frequencyDays` of `task`.
    static func frequencyDaysField(_ task: HabitTask) -> String { task.frequencyType == .everyNDays ? "every" : "days" }

    /// The decision fields of `habit_task` beyond the seed's, present only when they differ from
    /// the seed's task (so the decisions of the seed's tasks stay as they were).
    static func taskDecisionFields(_ task: HabitTask) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        if let times = task.frequencyTimes { fields.append(("times", .int(times))) }
        if let days = task.frequencyDays { fields.append((frequencyDaysField(task), .int(days))) }
        if !task.daysOfMonth.isEmpty { fields.append(("days_of_month", .array(task.daysOfMonth.sorted().map { .int($0) }))) }
        if task.goalDirection != .atLeast { fields.append(("goal_direction", .string(task.goalDirection.eventName))) }
        if let start = task.startDate { fields.append(("start_date", .string(start.rawValue))) }
        if !task.params.isEmpty {
            fields.append(("params", .object(task.params.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) })))
        }
        return fields
    }

    /// A skip or a freeze on one of the task's days.
    func markDay(
        _ name: String, _ kind: DayMarkKind, day: DayID?, _ context: inout UserContext, at now: EpochMillis,
        _ decisions: inout Decisions
    ) throws {
        let (id, task) = try namedTask(name, context)
        let clock = try habitClock(context)
        let field = "day"
        let target = try habitDay(
            day, field: field, task: task, name: name, context, clock: clock, at: now, future: kind == .skip ? 366 : 0)
        let mark = DayMark(userID: context.userID, taskID: id, day: target, kind: kind, createdAt: now)
        if kind.isOncePerDay,
            try context.storage.dayMarks(context.userID, taskID: id, fromDay: target, toDay: target).contains(where: { $0.kind == kind })
        {
            throw EngineError(
                .invalidEvent,
                "\(field): expected a day without a \(kind == .skip ? "skip" : "used freeze") of habit task \"\(name)\", found \(target.rawValue), which has one"
            )
        }
        try context.storage.addDayMark(mark)
        context.cache.marksPerPeriod[id] = nil
        context.cache.streaks[id] = nil
        switch kind {
        case .skip:
            decisions.set(.other(key: "habit_skip", .object([("task", .string(name)), ("day", .string(target.rawValue))])))
        case .freezeUsed, .freezeEquipped:
            let equipped = try context.storage.dayMarks(
                context.userID, taskID: id, fromDay: task.startDay(clock), toDay: clock.day(of: now)
            )
            .filter { $0.kind == .freezeEquipped }.count
            decisions.set(
                .other(
                    key: "habit_freeze",
                    .object([
                        ("task", .string(name)), ("action", .string(kind == .freezeUsed ? "use" : "equip")),
                        ("day", .string(target.rawValue)), ("freezes_equipped", .int(equipped)),
                    ])))
        }
    }

    /// Removes the latest completion of the task on a day.
    func uncheckTask(_ name: String, day: DayID?, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions) throws {
        let (id, task) = try namedTask(name, context)
        let clock = try habitClock(context)
        let target = try habitDay(day, field: "day", task: task, name: name, context, clock: clock, at: now, future: 0)
        let from = clock.start(of: target)
        let to = min(clock.start(of: target.adding(days: 1)!), now + 1)
        guard try context.storage.deleteLatestCompletion(context.userID, taskID: id, from: from, to: to) != nil else {
            throw EngineError(
                .invalidEvent, "day: expected a day with a completion of habit task \"\(name)\" to remove, found none on \(target.rawValue)"
            )
        }
        context.cache.completionsPerPeriod[id] = nil
        context.cache.streaks[id] = nil
        let periods = try habitPeriods(task, &context, at: now)
        let streak = try habitStreak(periods, task, name: name, context)
        try remember(streak, of: id, &context, at: now)
        let left = try context.storage.completions(context.userID, taskID: id, from: from, to: to).count
        decisions.set(
            .other(
                key: "habit_uncheck",
                .object(
                    [
                        ("task", .string(name)), ("day", .string(target.rawValue)),
                        ("completions_on_day", .int(left)),
                    ] + streak.decisionFields)))
    }

    /// The instant a completion of `task` is recorded at: `now` for today (the seed's behaviour),
    /// else the last millisecond of the past day `forDay` (after that day's own completions).
    func completionInstant(
        _ forDay: DayID?, task: HabitTask, name: String, _ context: UserContext, at now: EpochMillis
    ) throws -> EpochMillis {
        let clock = try habitClock(context)
        let target = try habitDay(forDay, field: "for_day", task: task, name: name, context, clock: clock, at: now, future: 0)
        if target == clock.day(of: now) { return now }
        return clock.start(of: target.adding(days: 1)!) - 1
    }

    /// The day an event names (today when it names none), checked against the backfill window,
    /// the task's start and `future` days ahead. Before a task starts (a `start_date` after
    /// today), no day before its start, today included, may be named: only a skip planned on a
    /// later day is accepted.
    private func habitDay(
        _ day: DayID?, field: String, task: HabitTask, name: String, _ context: UserContext, clock: LocalClock,
        at now: EpochMillis, future: Int
    ) throws -> DayID {
        let today = clock.day(of: now)
        let start = task.startDay(clock)
        let latest = today.adding(days: future)!
        if start > today {
            let target = day ?? today
            guard target >= start, target <= latest else {
                let window = "a day from the task's start, \(start.rawValue), \(future > 0 ? "to" : "up to today,") \(latest.rawValue)"
                let found = "\(target.rawValue)\(day == nil ? " (today, as none was given)" : "")"
                throw EngineError(.invalidEvent, "\(field): expected \(window), found \(found): habit task \"\(name)\" has not started yet")
            }
            return target
        }
        guard let day else { return today }
        let back = rules.streakKnobs.habit.maxBackfillDays
        let earliest = max(today.adding(days: -back)!, start)
        guard day >= earliest, day <= latest else {
            let window =
                back == 0
                ? "today (\(today.rawValue); habit.max_backfill_days is 0)"
                : "a day from \(earliest.rawValue) to \(latest.rawValue) (habit.max_backfill_days is \(back); the task starts \(start.rawValue))"
            throw EngineError(
                .invalidEvent,
                "\(field): expected \(future > 0 && back == 0 ? "today or a later day, up to \(latest.rawValue)" : window), found \(day.rawValue)"
            )
        }
        return day
    }

    private func namedTask(_ name: String, _ context: UserContext) throws -> (UUID, HabitTask) {
        guard let id = context.book.tasks[name], let task = try context.cache.tasks[id] ?? context.storage.task(context.userID, id: id)
        else {
            throw EngineError(.unknownTask, Engine.unknown("habit task", name, known: context.book.tasks.keys, definedBy: "a habit_task"))
        }
        return (id, task)
    }
}

extension HabitTask {
    /// The first day the task counts: its start date, else the day it was created.
    func startDay(_ clock: LocalClock) -> DayID { startDate ?? clock.day(of: createdAt) }
}

extension Engine {
    /// Refuses a completion of the task on `day` when it has `most` already
    /// (`habit.max_completions_per_day`).
    func checkCompletionsPerDay(_ most: Int, name: String, id: UUID, day: DayID, _ context: UserContext) throws {
        let clock = try habitClock(context)
        let done = try context.storage.completions(
            context.userID, taskID: id, from: clock.start(of: day), to: clock.start(of: day.adding(days: 1)!)
        ).count
        guard done < most else {
            throw EngineError(
                .invalidEvent,
                "task: expected at most \(most) completion\(most == 1 ? "" : "s") of habit task \"\(name)\" a day "
                    + "(habit.max_completions_per_day), found \(most == 1 ? "a second" : "one more") on \(day.rawValue)")
        }
    }
}

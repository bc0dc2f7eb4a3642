import Foundation
import RulesModel
import RulesStore

/// The habit tracker's events: tasks and completions, and the streak of a task's periods.
extension Engine {
    func defineTask(_ definition: HabitTaskDefinition, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions) throws {
        let id = context.book.tasks[definition.task] ?? DeterministicID.uuid("task", context.name, definition.task)
        let existing = try context.storage.task(context.userID, id: id)
        var task = existing ?? HabitTask(id: id, userID: context.userID, title: definition.title ?? definition.task, createdAt: now, updatedAt: now)
        if let title = definition.title { task.title = title }
        if let measurement = definition.measurement { task.measurementDuration = measurement }
        if let frequency = definition.frequency { task.frequencyType = frequency }
        try applyTaskFields(definition, to: &task)
        if let times = definition.timesPerDay { task.timesPerDay = times }
        if let days = definition.scheduledDays {
            task.scheduledDays = try days.enumerated().map { i, n in
                guard let day = Weekday(rawValue: n) else {
                    throw EngineError(.invalidEvent, "scheduled_days[\(i + 1)]: expected an ISO weekday 1 (Monday)…7 (Sunday), found \(n)")
                }
                return day
            }
        }
        task.updatedAt = now
        do { try task.validate() } catch {
            throw Engine.taskError(error, task, definition)
        }
        try context.storage.saveTask(task)
        context.book.tasks[definition.task] = id
        context.cache.tasks[id] = task
        context.cache.completionsPerPeriod[id] = nil   // its measurement may have changed
        decisions.set("habit_task", .object([("task", .string(definition.task)), ("created", .bool(existing == nil)),
                                             ("measurement", .string(task.measurementDuration.rawValue)),
                                             ("frequency", .string(task.frequencyType.eventName)),
                                             ("times_per_day", .int(task.timesPerDay))] + Engine.taskDecisionFields(task)))
    }

    func completeTask(_ name: String, value: Double?, forDay: DayID? = nil, _ context: inout UserContext, at now: EpochMillis,
                      _ decisions: inout Decisions) throws {
        guard let id = context.book.tasks[name], let task = try context.cache.tasks[id] ?? context.storage.task(context.userID, id: id) else {
            throw EngineError(.unknownTask, Engine.unknown("habit task", name, known: context.book.tasks.keys, definedBy: "a habit_task"))
        }
        let completedAt = try completionInstant(forDay, task: task, context, at: now)
        let completion = TaskCompletion(userID: context.userID, taskID: id, completedAt: completedAt, value: value)
        if value != nil, task.goalType == .none {
            throw EngineError(.invalidEvent, "value: expected none: habit task \"\(name)\" has no goal to measure")
        }
        do { try completion.validate(against: task) } catch { throw EngineError(.invalidEvent, error, fields: ["value": "value"]) }
        context.cache.tasks[id] = task
        // The completions before this one, so that the cache then counts this one exactly once.
        let clock = try habitClock(context)
        if context.cache.completionsPerPeriod[id] == nil {
            context.cache.completionsPerPeriod[id] = try completionCounts(task, context, clock: clock, at: now)
        }
        try context.storage.addCompletion(completion)
        context.cache.completionsPerPeriod[id]![periodIndex(clock.day(of: completedAt), task.measurementDuration), default: 0] += 1
        let periods = try habitPeriods(task, context, at: now)
        let streak = try habitStreak(periods, task: name)
        decisions.set("habit_completion", .object([("task", .string(name)), ("period", .string(try periodName(task, context, at: now))),
                                                   ("completions_in_period", .int(periods.first?.completions ?? 0)),
                                                   ("current_streak", .int(streak))]))
    }

    func habitStreak(_ periods: [HabitPeriod], task: String) throws -> Int {
        let streak = try asked.habitStreak(periods)
        guard (0...periods.count).contains(streak) else {
            throw EngineError(.ruleViolation, "habit.current_streak returned \(streak) for \(periods.count) periods of task \"\(task)\"")
        }
        return streak
    }

    /// The task's periods from the one running at `now` back to the one it was created in.
    func habitPeriods(_ task: HabitTask, _ context: UserContext, at now: EpochMillis) throws -> [HabitPeriod] {
        let clock = try habitClock(context)
        let counts = try context.cache.completionsPerPeriod[task.id] ?? completionCounts(task, context, clock: clock, at: now)
        let today = clock.day(of: now)
        let first = clock.day(of: task.createdAt)
        let current = periodIndex(today, task.measurementDuration)
        let oldest = periodIndex(first, task.measurementDuration)
        return (oldest...current).reversed().map { index in
            var scheduled = true
            if task.measurementDuration == .daily, task.frequencyType == .specificDays, let day = DayID(ordinal: index) {
                scheduled = task.scheduledDays.contains { $0.rawValue == day.isoWeekday }
            }
            return HabitPeriod(completions: counts[index] ?? 0, scheduled: scheduled, timesPerDay: task.timesPerDay)
        }
    }

    /// The task's completions up to `now`, per period index.
    private func completionCounts(_ task: HabitTask, _ context: UserContext, clock: LocalClock, at now: EpochMillis) throws -> [Int: Int] {
        let completions = try context.storage.completions(context.userID, taskID: task.id, from: task.createdAt, to: now + 1)
        var counts: [Int: Int] = [:]
        for completion in completions { counts[periodIndex(clock.day(of: completion.completedAt), task.measurementDuration), default: 0] += 1 }
        return counts
    }

    func habitClock(_ context: UserContext) throws -> LocalClock {
        try clock(context, dayStartsAt: context.book.habitDayStartsAt ?? rules.parameters.habitDayStartsAt)
    }

    /// Days by ordinal, ISO weeks by the ordinal of their Monday / 7, months by year*12+month.
    private func periodIndex(_ day: DayID, _ measurement: MeasurementDuration) -> Int {
        switch measurement {
        case .daily: day.ordinal
        case .weekly: (day.ordinal - (day.isoWeekday - 1)) / 7
        case .monthly: day.year * 12 + day.month - 1
        }
    }

    private func periodName(_ task: HabitTask, _ context: UserContext, at now: EpochMillis) throws -> String {
        let clock = try habitClock(context)
        let day = clock.day(of: now)
        switch task.measurementDuration {
        case .daily: return day.rawValue
        case .weekly:
            let monday = day.adding(days: -(day.isoWeekday - 1))!
            return "week of \(monday.rawValue)"
        case .monthly: return String(day.rawValue.prefix(7))
        }
    }

    /// Every task's current streak, by name.
    func habitStreaks(_ context: UserContext, at now: EpochMillis) throws -> [(String, Int)] {
        try context.book.tasks.sorted { $0.key < $1.key }.compactMap { name, id in
            guard let task = try context.storage.task(context.userID, id: id) else { return nil }
            return (name, try habitStreak(try habitPeriods(task, context, at: now), task: name))
        }
    }
}

extension Engine {
    /// `no habit task "run" (known: read, walk)`, or how to define one when there is none.
    static func unknown(_ what: String, _ name: String, known: some Collection<String>, definedBy event: String) -> String {
        "no \(what) \"\(name)\"" + (known.isEmpty ? " (define it with \(event) event)" : " (known: \(known.sorted().joined(separator: ", ")))")
    }
}

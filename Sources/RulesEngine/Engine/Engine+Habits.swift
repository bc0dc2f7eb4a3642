import Foundation
import RulesModel
import RulesStore

/// The habit tracker's events: tasks and completions, and the streak of a task's periods.
///
/// What a habit event costs (docs/replay.md): `habit.streak` is asked about the task the event
/// changes, over at most ``maxHabitPeriods`` periods; the other tasks' streaks in the state are
/// the answers kept in the user's context (``ReadCache/streaks``), asked again once per task on the
/// first event of a new habit day. A user has at most ``maxHabitTasks`` tasks.
extension Engine {
    /// The most periods `habit.streak` is given: the most recent ones, ten years of days (the
    /// longest run). A task started longer ago is asked about its last 3,660 periods only, so that
    /// no question grows with the years.
    package static let maxHabitPeriods = 3660
    /// The most habit tasks one user may define: each event's state holds every task's streak,
    /// and a new habit day asks about each.
    package static let maxHabitTasks = 200

    func defineTask(
        _ definition: HabitTaskDefinition, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions
    ) throws {
        if context.book.tasks[definition.task] == nil, context.book.tasks.count >= Self.maxHabitTasks {
            throw EngineError(
                .invalidEvent,
                "task: expected one of the user's \(context.book.tasks.count) habit tasks, found a new one, \"\(definition.task)\" "
                    + "(a user has at most \(Self.maxHabitTasks) habit tasks)")
        }
        let id = context.book.tasks[definition.task] ?? DeterministicID.uuid("task", context.name, definition.task)
        let existing = try context.storage.task(context.userID, id: id)
        var task =
            existing
            ?? HabitTask(
                id: id, userID: context.userID, title: definition.title ?? String(definition.task.prefix(HabitTask.maxTitleLength)),
                createdAt: now, updatedAt: now)
        if let title = definition.title { task.title = title }
        if let measurement = definition.measurement { task.measurementDuration = measurement }
        if let frequency = definition.frequency { task.frequencyType = frequency }
        try applyTaskFields(definition, to: &task)
        if let existing, existing.goalType != .none, task.goalType == .none {
            try requireNoValues(of: existing, name: definition.task, context)
        }
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
        if definition.params != nil { try checkTaskParams(task.params) }
        try context.storage.saveTask(task)
        context.book.tasks[definition.task] = id
        context.cache.tasks[id] = task
        context.cache.completionsPerPeriod[id] = nil  // its measurement or start may have changed
        context.cache.marksPerPeriod[id] = nil
        context.cache.streaks[id] = nil
        decisions.set(
            .other(
                key: "habit_task",
                .object(
                    [
                        ("task", .string(definition.task)), ("created", .bool(existing == nil)),
                        ("measurement", .string(task.measurementDuration.rawValue)),
                        ("frequency", .string(task.frequencyType.eventName)),
                        ("times_per_day", .int(task.timesPerDay)),
                    ] + Engine.taskDecisionFields(task))))
    }

    func completeTask(
        _ name: String, value: Double?, forDay: DayID? = nil, _ context: inout UserContext, at now: EpochMillis,
        _ decisions: inout Decisions
    ) throws {
        guard let id = context.book.tasks[name], let task = try context.cache.tasks[id] ?? context.storage.task(context.userID, id: id)
        else {
            throw EngineError(.unknownTask, Engine.unknown("habit task", name, known: context.book.tasks.keys, definedBy: "a habit_task"))
        }
        let completedAt = try completionInstant(forDay, task: task, name: name, context, at: now)
        if let most = rules.streakKnobs.habit.maxCompletionsPerDay {
            try checkCompletionsPerDay(most, name: name, id: id, day: try habitClock(context).day(of: completedAt), context)
        }
        let completion = TaskCompletion(userID: context.userID, taskID: id, completedAt: completedAt, value: value)
        if value != nil, task.goalType == .none {
            throw EngineError(.invalidEvent, "value: expected none: habit task \"\(name)\" has no goal to measure")
        }
        do { try completion.validate(against: task) } catch { throw EngineError(.invalidEvent, error, fields: ["value": "value"]) }
        context.cache.tasks[id] = task
        // The completions before this one, so that the cache then counts this one exactly once.
        let clock = try habitClock(context)
        if context.cache.completionsPerPeriod[id] == nil {
            context.cache.completionsPerPeriod[id] = try completionTallies(task, context, clock: clock, at: now)
        }
        try context.storage.addCompletion(completion)
        context.cache.completionsPerPeriod[id]![periodIndex(clock.day(of: completedAt), task.measurementDuration), default: HabitTally()]
            .add(value)
        let periods = try habitPeriods(task, &context, at: now)
        let streak = try habitStreak(periods, task, name: name, context)
        try remember(streak, of: id, &context, at: now)
        decisions.set(
            .habitCompletion(
                task: name, period: try periodName(task, context, at: now), completionsInPeriod: periods.first?.completions ?? 0,
                streak: streak))
    }

    /// The task's streak as the rule gives it, checked (RULE_VIOLATION naming the task when broken);
    /// `params`: the task's, when the caller has resolved them already.
    func habitStreak(
        _ periods: [HabitPeriod], _ task: HabitTask, name: String, params: ResolvedParams? = nil, _ context: UserContext
    ) throws -> HabitStreak {
        var record = HabitTaskRecord(task, name: name, startDate: task.startDay(try habitClock(context)))
        record.params = try params ?? taskParams(task, name: name)
        let streak = try asked.habitStreak(periods, task: record, user: habitUser(context))
        if let problem = streak.violation(periods: periods.count, window: record.openWindow) {
            throw EngineError(.ruleViolation, "habit.streak returned \(problem) for the \(periods.count) periods of task \"\(name)\"")
        }
        return streak.ranked(rules.streakKnobs.habit.bestOrder)
    }

    /// The user as `habit.streak` sees it (its third argument): what the habit days' clock is made of.
    func habitUser(_ context: UserContext) -> HabitUserRecord {
        HabitUserRecord(
            timezone: context.settings.timezoneIdentifier, dayStartsAt: context.book.habitDayStartsAt ?? rules.streakKnobs.habit.dayStartsAt
        )
    }

    /// A task's streak as the rules answered it (``ReadCache/streaks``), with what the answer
    /// depends on besides the task's own records: the habit day (which periods there are and which
    /// one is running), the user's record (the clock that cuts the periods; the rule's third
    /// argument) and the rules (``Engine/rulesGeneration``).
    struct KnownStreak {
        var day: DayID
        var user: HabitUserRecord
        var rules: Int
        var streak: HabitStreak
    }

    /// Keeps `streak`, the task's answer at `now`, for the events after this one (``knownStreak``).
    func remember(_ streak: HabitStreak, of task: UUID, _ context: inout UserContext, at now: EpochMillis) throws {
        context.cache.streaks[task] = KnownStreak(
            day: try habitClock(context).day(of: now), user: habitUser(context), rules: rulesGeneration, streak: streak)
    }

    /// `task`'s streak at `now`: the one the cache keeps when it was answered on the same habit
    /// day, clock and rules (the rules are pure: the same periods, task and user give the same
    /// answer), else the rules' answer (``habitStreak``), then kept. So an event asks the rules
    /// again only for the tasks it changed, and the first event of a new habit day once per task.
    func knownStreak(
        _ task: HabitTask, name: String, params: ResolvedParams, _ context: inout UserContext, at now: EpochMillis
    ) throws -> HabitStreak {
        if let known = context.cache.streaks[task.id], known.rules == rulesGeneration, known.user == habitUser(context),
            known.day == (try habitClock(context).day(of: now))
        {
            return known.streak
        }
        let streak = try habitStreak(try habitPeriods(task, &context, at: now), task, name: name, params: params, context)
        try remember(streak, of: task.id, &context, at: now)
        return streak
    }

    /// A period's completions and the sum of their values.
    struct HabitTally: Hashable, Sendable {
        var count = 0
        var value = 0.0
        mutating func add(_ value: Double?) {
            count += 1
            self.value += value ?? 0
        }
    }

    /// The day marks of a period: `frozen` when a freeze was used on one of its days, else
    /// `skipped` when one is skipped; the freezes equipped on its days.
    struct HabitPeriodMarks: Hashable, Sendable {
        var mark: HabitPeriod.Mark?
        var equipped = 0
        mutating func add(_ kind: DayMarkKind) {
            switch kind {
            case .freezeUsed: mark = .frozen
            case .skip: if mark == nil { mark = .skipped }
            case .freezeEquipped: equipped += 1
            }
        }
    }

    /// The task's periods from the one running at `now` back to the one its start day is in (its
    /// `start_date`, else the day it was created), at most ``maxHabitPeriods`` of them (the most
    /// recent); day marks set the status of the periods not done and their `freezes_equipped`, the
    /// user's open days (``AppOpenDays``, `habit.track_app_opens`) their `opened`. The day marks
    /// per period are read once and kept (``ReadCache/marksPerPeriod``) for the events after.
    func habitPeriods(_ task: HabitTask, _ context: inout UserContext, at now: EpochMillis) throws -> [HabitPeriod] {
        let clock = try habitClock(context)
        let tallies = try context.cache.completionsPerPeriod[task.id] ?? completionTallies(task, context, clock: clock, at: now)
        let first = task.startDay(clock)
        let marks: [Int: HabitPeriodMarks]
        if let kept = context.cache.marksPerPeriod[task.id], kept.from == first {
            marks = kept.marks
        } else {
            marks = try periodMarks(task, context, clock: clock)
            context.cache.marksPerPeriod[task.id] = (first, marks)
        }
        let today = clock.day(of: now)
        let measurement = task.measurementDuration
        let current = periodIndex(today, measurement)
        let oldest = max(periodIndex(first, measurement), current - (Self.maxHabitPeriods - 1))
        let needed = rules.streakKnobs.habit.neededCompletions(timesPerDay: task.timesPerDay)
        let goalTarget = task.goalType == .none ? nil : task.goalValue
        var periods: [HabitPeriod] = []
        periods.reserveCapacity(max(0, current - oldest + 1))
        let opens = tracksAppOpens ? context.book.appOpens ?? AppOpenDays() : nil
        var openCursor = (opens?.runs.count ?? 0) - 1
        var index = current
        while index >= oldest {
            let (start, end) = periodDays(index, measurement)
            let scheduled = measurement != .daily || task.isDue(on: start, from: first)
            let tally = tallies[index] ?? HabitTally()
            let mark = marks[index]
            let status = HabitPeriod.status(
                completions: tally.count, value: tally.value, needed: needed, goalTarget: goalTarget,
                direction: task.goalDirection, running: index == current, mark: mark?.mark)
            periods.append(
                HabitPeriod(
                    start: start, end: end, isDay: measurement == .daily, scheduled: scheduled,
                    completions: tally.count, value: tally.value, status: status,
                    freezesEquipped: mark?.equipped ?? 0, opened: opens?.opened(start, end, cursor: &openCursor)))
            index -= 1
        }
        return periods
    }

    private static let lastDay = try! DayID("9999-12-31")

    /// The task's day marks from its start day on (later days included: a planned skip), per period.
    private func periodMarks(_ task: HabitTask, _ context: UserContext, clock: LocalClock) throws -> [Int: HabitPeriodMarks] {
        let marks = try context.storage.dayMarks(
            context.userID, taskID: task.id, fromDay: task.startDay(clock),
            toDay: Self.lastDay)
        var periods: [Int: HabitPeriodMarks] = [:]
        for mark in marks { periods[periodIndex(mark.day, task.measurementDuration), default: HabitPeriodMarks()].add(mark.kind) }
        return periods
    }

    /// The first and last day of the period `index` (see `periodIndex`).
    private func periodDays(_ index: Int, _ measurement: MeasurementDuration) -> (DayID, DayID) {
        switch measurement {
        case .daily:
            let day = DayID(ordinal: index)!
            return (day, day)
        case .weekly:
            // Monday ordinals are 4 mod 7 (1970-01-05); `periodIndex` divides them by 7.
            let monday = DayID(ordinal: index * 7 + 4)!
            return (monday, monday.adding(days: 6)!)
        case .monthly:
            let (year, month) = (index / 12, index % 12 + 1)
            let first = try! DayID(String(format: "%04d-%02d-01", year, month))
            let next =
                try! month == 12 ? DayID(String(format: "%04d-01-01", year + 1)) : DayID(String(format: "%04d-%02d-01", year, month + 1))
            return (first, next.adding(days: -1)!)
        }
    }

    /// The task's completions from its start day up to `now`, per period index.
    private func completionTallies(
        _ task: HabitTask, _ context: UserContext, clock: LocalClock, at now: EpochMillis
    ) throws -> [Int: HabitTally] {
        let from = clock.start(of: task.startDay(clock))
        // A task that starts after today (docs/replay.md) has nothing to count yet.
        guard from <= now else { return [:] }
        let completions = try context.storage.completions(context.userID, taskID: task.id, from: from, to: now + 1)
        var tallies: [Int: HabitTally] = [:]
        for completion in completions {
            tallies[periodIndex(clock.day(of: completion.completedAt), task.measurementDuration), default: HabitTally()].add(
                completion.value)
        }
        return tallies
    }

    @inline(__always)  // not called: a call copies the whole context (see nextStep)
    func habitClock(_ context: UserContext) throws -> LocalClock {
        try clock(context, dayStartsAt: context.book.habitDayStartsAt ?? rules.streakKnobs.habit.dayStartsAt)
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

    /// Every task's streak, by name, and the tasks left out: a task whose stored params the rules
    /// no longer accept (`taskParams`) is listed in `refused` with why instead of refusing the
    /// event — the state shows it as `habit_streak_errors`, and only the events that ask for that
    /// task's streak are refused.
    func habitStreaks(
        _ context: inout UserContext, at now: EpochMillis
    ) throws -> (streaks: [(String, HabitStreak)], refused: [(String, String)]) {
        var streaks: [(String, HabitStreak)] = []
        var refused: [(String, String)] = []
        for (name, id) in context.book.tasks.sorted(by: { $0.key < $1.key }) {
            guard let task = try context.cache.tasks[id] ?? context.storage.task(context.userID, id: id) else { continue }
            context.cache.tasks[id] = task
            let params: ResolvedParams
            do {
                params = try taskParams(task, name: name)
            } catch {
                refused.append((name, error.message))
                continue
            }
            streaks.append((name, try knownStreak(task, name: name, params: params, &context, at: now)))
        }
        return (streaks, refused)
    }
}

extension HabitStreak {
    /// The habit_completion decision's fields: `current_streak`, then `best_streak` (the longest's
    /// length, whatever the order of `best`) and `score` when the rule returns them.
    var decisionFields: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("current_streak", .int(current))]
        if let longest = longestBest { fields.append(("best_streak", .int(longest))) }
        if let score { fields.append(("score", .double(score))) }
        return fields
    }

    /// The state's fields: `habit_streaks` (current, by task), then `habit_best_streaks` (the
    /// intervals, by task) and `habit_scores` for the tasks whose rule returns them.
    static func stateFields(_ streaks: [(String, HabitStreak)]) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("habit_streaks", .object(streaks.map { ($0.0, .int($0.1.current)) }))]
        let best = streaks.compactMap { name, streak in
            streak.best.map {
                (
                    name,
                    JSONValue.array(
                        $0.map {
                            .object([
                                ("first", .string($0.first.rawValue)), ("last", .string($0.last.rawValue)),
                                ("length", .int($0.length)),
                            ])
                        })
                )
            }
        }
        if !best.isEmpty { fields.append(("habit_best_streaks", .object(best))) }
        let scores = streaks.compactMap { name, streak in streak.score.map { (name, JSONValue.double($0)) } }
        if !scores.isEmpty { fields.append(("habit_scores", .object(scores))) }
        return fields
    }
}

extension Engine {
    /// `no habit task "run" (known: read, walk)`, or how to define one when there is none.
    static func unknown(_ what: String, _ name: String, known: some Collection<String>, definedBy event: String) -> String {
        "no \(what) \"\(name)\""
            + (known.isEmpty ? " (define it with \(event) event)" : " (known: \(known.sorted().joined(separator: ", ")))")
    }
}

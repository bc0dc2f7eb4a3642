import RulesEngine
import RulesModel

/// The habit tracker's day of a simulated user: each due task's completions (with a goal's
/// values), and on a due day it would miss, a completion the next morning for that day (`late`), a
/// skip or a streak freeze used; freezes equipped; and, when the rule set returns them, the tasks'
/// best streaks and scores at the end of each day. Every draw is from the habits stream, and the
/// draws beyond a task's completions only for a persona that sets what they are for.
extension UserSimulator {
    enum HabitAction {
        /// A completion of a task, today's or (late) the day before's, with its value (a goal's).
        case complete(String, forDay: DayID?, value: Double?)
        case skip(String)
        case freeze(String, use: Bool)
    }

    /// Plans the day's habit events.
    func planHabits(
        _ d: Int, date: DayID, dayStart: EpochMillis, spec: PersonaSpec, habitScale: Double, _ run: inout Run,
        _ days: inout [DayTotals], _ plan: inout [Planned]
    ) {
        func add(_ minutes: Int, _ action: HabitAction) {
            plan.append(Planned(at: dayStart + Int64(minutes) * Millis.minute, order: plan.count, action: .habit(action)))
        }
        // Yesterday's misses the user completes this morning (`late`), for yesterday.
        for task in run.lateTomorrow {
            let at = run.habits.int(7 * 60, 10 * 60)
            add(
                at,
                .complete(task, forDay: date.adding(days: -1), value: spec.habits.first { $0.task == task }?.goal.map { draw($0, &run) }))
        }
        run.lateTomorrow = []
        for (h, habit) in spec.habits.enumerated() {
            if let freeze = habit.freeze, run.freezesHeld[habit.task, default: 0] < freeze.max,
                freeze.every.map({ d % $0 == 0 }) ?? run.habits.chance(freeze.equip ?? 0)
            {
                add(run.habits.int(8 * 60, 22 * 60), .freeze(habit.task, use: false))
            }
            if let task = run.habitTasks[h], !task.isDue(on: date, from: config.start) { continue }
            var done = 0
            var p = min(1, habit.rate * habitScale)
            if let response = run.responses.streak {
                p = response.chance(
                    p, streak: run.habitStreak[habit.task, default: 0], insured: run.freezesHeld[habit.task, default: 0] > 0,
                    sinceBroken: run.habitStreakBroken[habit.task].map { d - $0 })
            }
            for _ in 0..<habit.timesPerDay {
                days[d].habitPlanned += 1
                if run.habits.chance(p) {
                    let at = run.habits.int(7 * 60, 21 * 60)
                    add(at, .complete(habit.task, forDay: nil, value: habit.goal.map { draw($0, &run) }))
                    done += 1
                }
            }
            // A due day it will miss: completed tomorrow for today, else skipped, else frozen.
            guard done == 0, habit.marksDays else { continue }
            if let late = habit.late, run.habits.chance(late) {
                run.lateTomorrow.append(habit.task)
            } else if let skip = habit.skip, run.habits.chance(skip) {
                add(run.habits.int(18 * 60, 22 * 60), .skip(habit.task))
            } else if let freeze = habit.freeze, run.freezesHeld[habit.task, default: 0] > 0, run.habits.chance(freeze.use) {
                add(run.habits.int(21 * 60, 23 * 60), .freeze(habit.task, use: true))
            }
        }
    }

    /// Applies a planned habit event and counts it into day `d` when the engine accepts it.
    func applyHabit(_ action: HabitAction, at time: EpochMillis, name: String, day d: Int, _ run: inout Run, _ days: inout [DayTotals]) {
        switch action {
        // (`step` counts what was applied: `DayTotals.count(applied:…)`.)
        case .complete(let task, let forDay, let value):
            step(.habitCompletion(task: task, value: value, forDay: forDay), at: time, name: name, day: d, &run, &days)
        case .skip(let task):
            step(.habitSkip(task: task, day: nil), at: time, name: name, day: d, &run, &days)
        case .freeze(let task, let use):
            guard step(.habitFreeze(task: task, action: use ? .use : .equip, day: nil), at: time, name: name, day: d, &run, &days) != nil
            else { return }
            run.freezesHeld[task, default: 0] += use ? -1 : 1
        }
    }

    /// A completion's value for a goal: uniform between its bounds, to 0.1.
    private func draw(_ goal: PersonaSpec.Habit.Goal, _ run: inout Run) -> Double {
        ((goal.value[0] + run.habits.unit() * (goal.value[1] - goal.value[0])) * 10).rounded() / 10
    }

    /// Counts the user's habit tasks by their current streak, and by their longest best streak and
    /// their score when the rule set returns them, at `time` (the end of the day), and notes each
    /// current streak for the next day's choices; whether the rule set returned best streaks or scores. When the rule
    /// fails nothing is counted (the failures of the events are).
    @discardableResult
    func countHabitStreaks(name: String, at time: EpochMillis, into day: inout DayTotals, _ run: inout Run) -> Bool {
        guard let streaks = try? engine.habitStreaks(ofRecorded: name, at: time) else { return false }
        for (task, streak) in streaks { run.noteStreak(task, streak.current) }
        return day.countHabitStreaks(streaks)
    }
}

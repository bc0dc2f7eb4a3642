import RulesEngine
import RulesModel

/// A random habit-tracker history as replay lines, reproducible from a seed: a fresh user sets its
/// time zone (sometimes its day start), defines one to three tasks — of any frequency (daily,
/// weekdays, x times in y days, every n days, days of the month, weekly or monthly targets), some
/// with a numeric goal (at least or at most) or a start date in the past — then lives `days` days:
/// each task has runs of good and bad days, completions at a rate of its own (values for goals,
/// sometimes after midnight, before a 03:00 or 04:00 day start), and now and then an uncheck of
/// the day's completion, a skip of today or a day ahead, a freeze equipped or used, or a completion
/// `for_day` one to three days back (refused by a rule set whose `habit.max_backfill_days` is
/// shorter). A tick at 05:00 each day shows the streaks as the day starts; a last one closes the
/// last day.
///
/// Every line is accepted by the default rules except the completions `for_day` (their
/// `habit.max_backfill_days` is 0). Case `k` of seed `s` comes from its own generator seeded from `(s, k)`.
package struct HabitHistory: ComparedHistory {
    package static let timeZones = ["UTC", "Europe/Paris", "America/New_York", "Asia/Tokyo", "Australia/Sydney"]
    static let dayStarts = ["03:00", "04:00"]
    static let names = ["walk", "read", "water", "gym", "meditate"]
    /// Goal type, unit and the goal's values.
    static let goals: [(type: String, unit: String, values: ClosedRange<Int>)] = [
        ("cups", "cups", 4...8), ("time", "min", 10...40), ("distance", "km", 2...10),
    ]

    package var seed: UInt64
    package var days: Int

    package init(seed: UInt64, days: Int) {
        self.seed = seed
        self.days = days
    }

    /// The replay lines of case `k` (user `u1`, time order; the first are the set-up).
    package func lines(case k: Int) -> [String] {
        var rng = SeededGenerator(seed: seed, UInt64(truncatingIfNeeded: k), 0x4841_4249)
        return Self.lines(days: days, using: &rng)
    }

    /// One task as the generator lives it.
    private struct Task {
        var name: String
        /// A numeric goal: its value, and whether it is a ceiling.
        var goal: Int?
        var atMost = false
        /// Completions on a day that has any: up to `times_per_day` (1 for weekly and monthly targets).
        var perDay = 1
        /// How likely a good day has completions (a bad day: a fifth of it), and whether today is good.
        var rate: Double
        var good = true
        /// The day (0: the day it was created) from which completions may be backfilled.
        var start = 0
        var skipped: Set<Int> = []
    }

    static func lines<R: RandomNumberGenerator>(days: Int, using rng: inout R) -> [String] {
        let first = try! DayID("2026-03-01")  // a Sunday; day 1 is a Monday
        let zone = timeZones.randomElement(using: &rng)!
        let dayStart = Int.random(in: 0..<3, using: &rng) == 0 ? dayStarts.randomElement(using: &rng)! : nil
        let clock = try! LocalClock(timeZoneID: zone)
        func date(_ d: Int) -> DayID { first.adding(days: d)! }
        func at(_ d: Int, _ minutes: Int) -> EpochMillis { clock.instant(on: date(d), at: minutes) }
        var events = TimedLines()
        let setup = at(0, 20 * 60)
        events.add(setup, "settings", "\"timezone\": \"\(zone)\"" + (dayStart.map { ", \"day_starts_at\": \"\($0)\"" } ?? ""))
        var tasks: [Task] = []
        for name in names.shuffled(using: &rng).prefix(Int.random(in: 1...3, using: &rng)) {
            var task = Task(name: name, rate: Double.random(in: 0.5..<0.95, using: &rng))
            var fields = "\"task\": \"\(name)\""
            var daily = true
            switch Int.random(in: 0..<7, using: &rng) {
            case 0: break
            case 1:
                let weekdays = (1...7).filter { _ in Bool.random(using: &rng) }
                fields += ", \"frequency\": \"specificDays\", \"scheduled_days\": \(weekdays.isEmpty ? [1, 3, 5] : weekdays)"
            case 2:
                let y = Int.random(in: 2...10, using: &rng)
                fields += ", \"frequency\": \"times_in_days\", \"times\": \(Int.random(in: 1...y, using: &rng)), \"days\": \(y)"
            case 3: fields += ", \"frequency\": \"every_n_days\", \"every\": \(Int.random(in: 2...5, using: &rng))"
            case 4:
                let month = Array(Set((0..<Int.random(in: 1...4, using: &rng)).map { _ in Int.random(in: 1...31, using: &rng) })).sorted()
                fields += ", \"frequency\": \"days_of_month\", \"days_of_month\": \(month)"
            default:
                daily = false
                let measurement = Bool.random(using: &rng) ? "weekly" : "monthly"
                fields +=
                    ", \"measurement\": \"\(measurement)\", \"times_per_day\": \(Int.random(in: 1...(measurement == "weekly" ? 5 : 12), using: &rng))"
            }
            if daily, Int.random(in: 0..<3, using: &rng) == 0 {
                let goal = goals.randomElement(using: &rng)!
                let value = Int.random(in: goal.values, using: &rng)
                task.goal = value
                task.atMost = Int.random(in: 0..<4, using: &rng) == 0
                fields += ", \"goal_type\": \"\(goal.type)\", \"goal_value\": \(value), \"goal_unit\": \"\(goal.unit)\""
                if task.atMost { fields += ", \"goal_direction\": \"at_most\"" }
            } else if daily, Int.random(in: 0..<5, using: &rng) == 0 {
                task.perDay = 2
                fields += ", \"times_per_day\": 2"
            }
            if Int.random(in: 0..<4, using: &rng) == 0 {
                task.start = -Int.random(in: 1...7, using: &rng)
                fields += ", \"start_date\": \"\(date(task.start))\""
            }
            events.add(setup, "habit_task", fields)
            tasks.append(task)
        }
        for d in 1...max(1, days) {
            events.add(at(d, 5 * 60), "tick")
            for i in tasks.indices {
                if Double.random(in: 0..<1, using: &rng) < 0.25 { tasks[i].good.toggle() }
                let task = tasks[i]
                let name = "\"task\": \"\(task.name)\""
                func value() -> String {
                    guard let goal = task.goal else { return "" }
                    let most = max(1, task.atMost ? goal * 3 / 2 : goal)
                    return ", \"value\": \(Int.random(in: 1...most, using: &rng))"
                }
                let rate = task.good ? task.rate : task.rate / 5
                if Double.random(in: 0..<1, using: &rng) < rate {
                    let count = Int.random(in: 1...max(task.perDay, task.goal == nil ? 1 : 2), using: &rng)
                    let times = (0..<count).map { _ in Int.random(in: 7 * 60...21 * 60, using: &rng) }.sorted()
                    for time in times { events.add(at(d, time), "habit_completion", name + value()) }
                    if Int.random(in: 0..<10, using: &rng) == 0 {
                        // Unchecked again the same day (the day's latest completion goes).
                        events.add(at(d, times.last! + Int.random(in: 1...30, using: &rng)), "habit_uncheck", name)
                    }
                }
                if Int.random(in: 0..<12, using: &rng) == 0 {
                    // After midnight: the day before's under a 03:00 or 04:00 day start.
                    events.add(at(d + 1, Int.random(in: 30...150, using: &rng)), "habit_completion", name + value())
                }
                if Int.random(in: 0..<20, using: &rng) == 0 {
                    let back = Int.random(in: 1...3, using: &rng)
                    if d - back >= task.start {
                        events.add(
                            at(d, Int.random(in: 7 * 60...21 * 60, using: &rng)), "habit_completion",
                            name + value() + ", \"for_day\": \"\(date(d - back))\"")
                    }
                }
                if Int.random(in: 0..<20, using: &rng) == 0 {
                    let day = d + Int.random(in: 0...3, using: &rng)
                    if tasks[i].skipped.insert(day).inserted {
                        events.add(at(d, Int.random(in: 7 * 60...21 * 60, using: &rng)), "habit_skip", name + ", \"day\": \"\(date(day))\"")
                    }
                }
                if Int.random(in: 0..<25, using: &rng) == 0 {
                    events.add(at(d, Int.random(in: 7 * 60...21 * 60, using: &rng)), "habit_freeze", name + ", \"action\": \"equip\"")
                }
                if !task.good, Int.random(in: 0..<8, using: &rng) == 0 {
                    events.add(at(d, 21 * 60 + 45), "habit_freeze", name + ", \"action\": \"use\"")
                }
            }
        }
        events.add(at(max(1, days) + 1, 6 * 60), "tick")
        return events.lines
    }
}

import LuaHost
import RulesModel

/// The proof of `habit.streak(periods, task, user)`: the host's checks (`HabitStreak.violation`)
/// over a bounded domain of histories.
extension StreakPolicy {
    /// One period of a proof history, before its dates are set: completions, scheduled, and the
    /// mark of a period not done (a skip or a freeze).
    struct HabitProofPeriod {
        var completions: Int
        var scheduled: Bool
        var mark: HabitPeriod.Mark?
    }

    /// 0–2 completions, scheduled or not; a scheduled period without completions skipped or frozen.
    static let habitProofPeriods: [HabitProofPeriod] =
        [0, 1, 2].flatMap { c in [true, false].map { HabitProofPeriod(completions: c, scheduled: $0, mark: nil) } }
        + [
            HabitProofPeriod(completions: 0, scheduled: true, mark: .skipped),
            HabitProofPeriod(completions: 0, scheduled: true, mark: .frozen),
        ]

    /// The task kinds of the proof (their start dates are set per history): daily (once or twice
    /// a day), on weekdays, weekly, monthly, 3 times in 7 days (with its open window of 6 days),
    /// every 2 days, on days of the month (1, 15, 31), at most 1 cup a day (a ceiling), and at
    /// least 2 cups a day (a target that 1 cup leaves `partial`).
    static let habitProofTasks: [HabitTaskRecord] = {
        let start = habitProofToday
        return [
            HabitTaskRecord(name: "task", measurement: .daily, startDate: start),
            HabitTaskRecord(name: "task", measurement: .daily, timesPerDay: 2, startDate: start),
            HabitTaskRecord(name: "task", measurement: .daily, frequency: .specificDays, weekdays: [1, 3, 5], startDate: start),
            HabitTaskRecord(name: "task", measurement: .weekly, startDate: start),
            HabitTaskRecord(name: "task", measurement: .monthly, startDate: start),
            HabitTaskRecord(name: "task", measurement: .daily, frequency: .timesInDays, times: 3, days: 7, startDate: start),
            HabitTaskRecord(name: "task", measurement: .daily, frequency: .everyNDays, every: 2, startDate: start),
            HabitTaskRecord(name: "task", measurement: .daily, frequency: .daysOfMonth, daysOfMonth: [1, 15, 31], startDate: start),
            HabitTaskRecord(name: "task", measurement: .daily, goalType: .cups, goalTarget: 1, goalDirection: .atMost, startDate: start),
            HabitTaskRecord(name: "task", measurement: .daily, goalType: .cups, goalTarget: 2, startDate: start),
        ]
    }()

    /// The longest history tried at params other than the defaults (the first combination).
    static let habitProofParamsLength = 2

    /// The day the proof's histories end on: a Monday, the 1st of a month after a leap day (so that
    /// the days before it are a leap day and a last day of a month).
    static let habitProofToday = try! DayID("2032-03-01")

    /// The inputs `habit.streak` is proved over, in the proof's order (`gen.habit_streak()` draws
    /// from them): every history of up to 3 periods over `habitProofPeriods` (the first one
    /// running, with the host's status), for each task kind, then histories of every status 90
    /// periods long — at the params' defaults; at each other combination of the params' domain,
    /// every history of up to 2 periods for each task kind (so that a file with many params stays
    /// within the validation budget: 256 combinations × the full domain would be over a million
    /// calls). Input 0 is the plainest: an empty history of a daily task at the defaults.
    package struct HabitProofDomain {
        let policy: StreakPolicy
        /// The params' combinations, the defaults first.
        package let params: ParamDomain
        let histories: [[HabitProofPeriod]]
        let short: [[HabitProofPeriod]]
        package let user: HabitUserRecord

        init(_ policy: StreakPolicy) {
            self.policy = policy
            params = policy.params.domain()
            var histories = StreakPolicy.lists(of: StreakPolicy.habitProofPeriods, upTo: 3)
            for item in StreakPolicy.habitProofPeriods { histories.append(Array(repeating: item, count: 90)) }
            self.histories = histories
            short = StreakPolicy.lists(of: StreakPolicy.habitProofPeriods, upTo: StreakPolicy.habitProofParamsLength)
            user = HabitUserRecord(timezone: "UTC", dayStartsAt: policy.habit.knobs.dayStartsAt)
        }

        /// The number of inputs.
        package var count: Int {
            let kinds = StreakPolicy.habitProofTasks.count
            return kinds * histories.count + (params.combinations.count - 1) * kinds * short.count
        }

        /// Input `index` (0 ..< `count`): the periods, most recent first, and the task.
        package func input(_ index: Int) -> (periods: [HabitPeriod], task: HabitTaskRecord) {
            let kinds = StreakPolicy.habitProofTasks
            let first = kinds.count * histories.count
            let combination: Int, kind: Int, history: [HabitProofPeriod]
            if index < first {
                (combination, kind, history) = (0, index / histories.count, histories[index % histories.count])
            } else {
                let rest = index - first, perCombination = kinds.count * short.count
                combination = 1 + rest / perCombination
                kind = rest % perCombination / short.count
                history = short[rest % short.count]
            }
            var (periods, task) = policy.proofInput(history, kinds[kind])
            task.params = params.combinations[combination]
            return (periods, task)
        }
    }

    /// The inputs of `habit.streak`'s proof under this policy's params.
    package var habitProofDomain: HabitProofDomain { HabitProofDomain(self) }

    /// `habit.streak` over every input of `habitProofDomain`.
    func proveHabitStreak(_ file: RuleFile, _ host: LuaHost) -> Counterexamples {
        var failures = Counterexamples(function: habit.streak, name: "habit.streak", file: file)
        failures.unproved =
            "histories longer than 3 periods other than 90 periods of one kind (every history up to 3 was tried, for \(Self.habitProofTasks.count) task kinds), "
            + "periods of more than 2 completions (and other values) or more than 1 freeze equipped, tasks of other schedules, "
            + "start dates, times_per_day, goals and names, time zones other than UTC and days starting at other times than \(habit.knobs.dayStartsAt.text)"
        let domain = habitProofDomain
        if domain.params.combinations.count > 1 {
            failures.unproved! += ", and params other than the defaults with histories longer than \(Self.habitProofParamsLength) periods"
        }
        if let unproved = domain.params.unproved { failures.unproved! += ", and " + unproved }
        if habit.knobs.trackAppOpens { failures.unproved! += ", and days the app was opened or not (periods are passed without `opened`)" }
        for index in 0..<domain.count {
            if failures.isFinished(host) { return failures }
            let (periods, task) = domain.input(index)
            checkHabitStreak(periods, task, domain.user, host: host, into: &failures)
        }
        return failures
    }

    /// The periods of `history` for a task of `kind` (each completion worth 1 of the goal's
    /// value: 2 completions exceed an at-most-1 ceiling), and the task starting on the oldest.
    fileprivate func proofInput(_ history: [HabitProofPeriod], _ kind: HabitTaskRecord) -> ([HabitPeriod], HabitTaskRecord) {
        let needed = habit.knobs.neededCompletions(timesPerDay: kind.timesPerDay)
        let measurement = kind.measurement
        let everyDay = kind.frequency == .daily || kind.frequency == .timesInDays
        var periods: [HabitPeriod] = []
        var end = Self.habitProofToday
        for i in history.indices {
            let item = history[i]
            let start: DayID
            switch measurement {
            case .daily: start = end
            case .weekly: start = end.adding(days: -6)!
            case .monthly: start = end.adding(days: -27)!  // a 28-day month: the rule sees only dates
            }
            let value = kind.goalTarget == nil ? 0 : Double(item.completions)
            let status = HabitPeriod.status(
                completions: item.completions, value: value, needed: needed, goalTarget: kind.goalTarget,
                direction: kind.goalDirection, running: i == 0, mark: item.mark)
            periods.append(
                HabitPeriod(
                    start: start, end: end, isDay: measurement == .daily,
                    scheduled: everyDay || measurement != .daily || item.scheduled, completions: item.completions,
                    value: value, status: status, freezesEquipped: item.mark == .frozen ? 1 : 0))
            end = start.adding(days: -1)!
        }
        var task = kind
        task.startDate = periods.last?.start ?? Self.habitProofToday
        return (periods, task)
    }

    private func checkHabitStreak(
        _ periods: [HabitPeriod], _ task: HabitTaskRecord, _ user: HabitUserRecord, host: LuaHost,
        into failures: inout Counterexamples
    ) {
        var call: String { "habit.streak(\(Self.describe(periods)), \(Self.describe(task)))" }
        failures.inputs += 1
        do {
            let out = try host.call(habit.streak, PooledList(periods), Pooled(task), Pooled(user), returning: HabitStreak.self)
            if try host.call(habit.streak, PooledList(periods), Pooled(task), Pooled(user), returning: HabitStreak.self) != out { failures.recordImpure(call) }
            if let problem = out.violation(periods: periods.count, window: task.openWindow) {
                failures.record(kind: "range", "\(call) returned \(problem)")
            }
        } catch {
            failures.record(error, calling: call)
        }
    }

    /// `[open 0, done 1, missed 0 unscheduled]`, most recent first (90 periods: the first and a count).
    static func describe(_ periods: [HabitPeriod]) -> String {
        func one(_ p: HabitPeriod) -> String { "\(p.status.rawValue) \(p.completions)\(p.scheduled ? "" : " unscheduled")" }
        if periods.count > 3 {
            return
                "[\(periods.count) periods from \(periods.last!.start) to \(periods[0].end): \(one(periods[1])) each, then \(one(periods[0]))]"
        }
        return "[" + periods.map(one).joined(separator: ", ") + "]"
    }

    static func describe(_ task: HabitTaskRecord) -> String {
        let frequency =
            switch task.frequency {
            case .daily: ""
            case .specificDays: " on weekdays \(task.weekdays.map(String.init).joined(separator: ","))"
            case .timesInDays: " \(task.times ?? 0) times in \(task.days ?? 0) days"
            case .everyNDays: " every \(task.every ?? 0) days"
            case .daysOfMonth: " on days of month \(task.daysOfMonth.map(String.init).joined(separator: ","))"
            }
        let goal = task.goalDirection == .atMost ? ", at most \(task.goalTarget.map { "\($0)" } ?? "") \(task.goalType.rawValue)" : ""
        let params = task.params.values.isEmpty ? "" : ", params \(task.params)"
        return "\(task.measurement.rawValue) task\(frequency), times_per_day \(task.timesPerDay)\(goal)\(params)"
    }
}

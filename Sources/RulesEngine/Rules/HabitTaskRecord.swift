import RulesModel

/// A habit task as `habit.streak` sees it (its second argument; docs/rules.md).
package struct HabitTaskRecord: Hashable, Sendable {
    package var name: String
    package var measurement: MeasurementDuration
    /// The frequency's kind, with the ISO weekdays of a specific-days task, x and y of x times in
    /// y days (`times`, `days`), n of every n days (`every`) and the days of a days-of-month task.
    package var frequency: FrequencyType
    package var weekdays: [Int]
    package var times: Int?
    package var days: Int?
    package var every: Int?
    package var daysOfMonth: [Int]
    package var timesPerDay: Int
    package var goalType: GoalType
    package var goalTarget: Double?
    package var goalDirection: GoalDirection
    /// The task's start date, else the day it was created (its first period's).
    package var startDate: DayID
    /// streaks.lua's declared params resolved for this task (`task.params`): every declared name,
    /// the task's value where it sets one, else the default.
    package var params: ResolvedParams = .empty

    package init(
        name: String, measurement: MeasurementDuration, frequency: FrequencyType = .daily, weekdays: [Int] = [],
        times: Int? = nil, days: Int? = nil, every: Int? = nil, daysOfMonth: [Int] = [],
        timesPerDay: Int = 1, goalType: GoalType = .none, goalTarget: Double? = nil, goalDirection: GoalDirection = .atLeast,
        startDate: DayID
    ) {
        self.name = name
        self.measurement = measurement
        self.frequency = frequency
        self.weekdays = weekdays
        self.times = times
        self.days = days
        self.every = every
        self.daysOfMonth = daysOfMonth
        self.timesPerDay = timesPerDay
        self.goalType = goalType
        self.goalTarget = goalTarget
        self.goalDirection = goalDirection
        self.startDate = startDate
    }

    /// The record of `task`, named `name`, starting on `startDate`.
    package init(_ task: HabitTask, name: String, startDate: DayID) {
        let kind = task.frequencyType
        self.init(
            name: name, measurement: task.measurementDuration, frequency: kind,
            weekdays: kind == .specificDays ? task.scheduledDays.map(\.rawValue) : [],
            times: kind == .timesInDays ? task.frequencyTimes : nil, days: kind == .timesInDays ? task.frequencyDays : nil,
            every: kind == .everyNDays ? task.frequencyDays : nil, daysOfMonth: task.daysOfMonth.sorted(),
            timesPerDay: task.timesPerDay, goalType: task.goalType, goalTarget: task.goalType == .none ? nil : task.goalValue,
            goalDirection: task.goalDirection, startDate: startDate)
    }

    /// `frequency.kind` as the rule reads it (`weekdays` for specific days, else the event's name).
    package var frequencyKind: String { Self.frequencyKind(of: frequency) }

    package static func frequencyKind(of frequency: FrequencyType) -> String {
        frequency == .specificDays ? "weekdays" : frequency.eventName
    }

    /// The task's window (`task.window`): how many days past today, and before the task's first
    /// period, a streak may count, as a frequency's window reaches (Loop counts the rest of a
    /// satisfied window ahead, and a window that began before the first check): y − 1 days for x
    /// times in y days, n − 1 for every n days, 6 for weekdays (a week), 30 for days of the month
    /// (the longest month), none for daily tasks.
    package var openWindow: Int {
        switch frequency {
        case .daily: 0
        case .timesInDays: max(0, (days ?? 1) - 1)
        case .everyNDays: max(0, (every ?? 1) - 1)
        case .specificDays: 6
        case .daysOfMonth: 30
        }
    }
}

/// The task's user as `habit.streak` sees it (its third argument).
package struct HabitUserRecord: Hashable, Sendable {
    package var timezone: String
    package var dayStartsAt: LocalTime

    package init(timezone: String, dayStartsAt: LocalTime) {
        self.timezone = timezone
        self.dayStartsAt = dayStartsAt
    }
}

import RulesModel

/// A habit task as `habit.streak` sees it (its second argument; docs/rules.md).
public struct HabitTaskRecord: Hashable, Sendable {
    public var name: String
    public var measurement: MeasurementDuration
    /// The frequency's kind, with the ISO weekdays of a specific-days task, x and y of x times in
    /// y days (`times`, `days`), n of every n days (`every`) and the days of a days-of-month task.
    public var frequency: FrequencyType
    public var weekdays: [Int]
    public var times: Int?
    public var days: Int?
    public var every: Int?
    public var daysOfMonth: [Int]
    public var timesPerDay: Int
    public var goalType: GoalType
    public var goalTarget: Double?
    public var goalDirection: GoalDirection
    /// The task's start date, else the day it was created (its first period's).
    public var startDate: DayID
    /// streaks.lua's declared params resolved for this task (`task.params`): every declared name,
    /// the task's value where it sets one, else the default.
    public var params: ResolvedParams = .empty

    public init(
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
    public init(_ task: HabitTask, name: String, startDate: DayID) {
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
    public var frequencyKind: String { Self.frequencyKind(of: frequency) }

    public static func frequencyKind(of frequency: FrequencyType) -> String {
        frequency == .specificDays ? "weekdays" : frequency.eventName
    }

    /// The days past the last period that a streak may count: the rest of an x-in-y window (y − 1
    /// days) for `times_in_days` tasks, none for the others.
    public var openWindow: Int { frequency == .timesInDays ? max(0, (days ?? 1) - 1) : 0 }
}

/// The task's user as `habit.streak` sees it (its third argument).
public struct HabitUserRecord: Hashable, Sendable {
    public var timezone: String
    public var dayStartsAt: LocalTime

    public init(timezone: String, dayStartsAt: LocalTime) {
        self.timezone = timezone
        self.dayStartsAt = dayStartsAt
    }
}

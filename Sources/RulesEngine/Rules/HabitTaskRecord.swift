import RulesModel

/// A habit task as `habit.streak` sees it (its second argument; docs/rules.md).
public struct HabitTaskRecord: Hashable, Sendable {
    public var name: String
    public var measurement: MeasurementDuration
    /// `daily`, or `weekdays` with the ISO weekdays it is scheduled on.
    public var frequency: FrequencyType
    public var weekdays: [Int]
    public var timesPerDay: Int
    public var goalType: GoalType
    public var goalTarget: Double?
    /// The day the task was created (its first period's).
    public var startDate: DayID
    /// streaks.lua's declared params resolved for this task (`task.params`): every declared name,
    /// the task's value where it sets one, else the default.
    public var params: ResolvedParams = .empty

    public init(name: String, measurement: MeasurementDuration, frequency: FrequencyType = .daily, weekdays: [Int] = [],
                timesPerDay: Int = 1, goalType: GoalType = .none, goalTarget: Double? = nil, startDate: DayID) {
        self.name = name
        self.measurement = measurement
        self.frequency = frequency
        self.weekdays = weekdays
        self.timesPerDay = timesPerDay
        self.goalType = goalType
        self.goalTarget = goalTarget
        self.startDate = startDate
    }

    /// `frequency.kind` as the rule reads it.
    public var frequencyKind: String { frequency == .daily ? "daily" : "weekdays" }
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

import RulesModel

/// What one user did on one day, across the four apps: the unit of the bulk path. A user-day is
/// written whole or not at all.
public struct UserDay: Sendable {
    public var userID: UserID
    public var day: DayID
    /// Pressure: the day's commitment (inserted, or replacing that day's PENDING record).
    public var commitment: Commitment?
    /// Pressure: the escalation state at the end of the day.
    public var escalationState: EscalationState?
    public var notifications: [NotificationLogEntry]
    /// Habit tracker completions (their task must exist for the same user).
    public var taskCompletions: [TaskCompletion]
    /// MIGA Gateway Screen events.
    public var usageEvents: [UsageEvent]
    /// Earned: the economy state at the end of the day.
    public var economyState: EconomyState?
    /// Earned: the day's summary (upserted).
    public var daySummary: DaySummary?
    public var habitCompletions: [HabitCompletion]
    public var events: [EventLogEntry]

    public init(
        userID: UserID, day: DayID, commitment: Commitment? = nil, escalationState: EscalationState? = nil,
        notifications: [NotificationLogEntry] = [], taskCompletions: [TaskCompletion] = [], usageEvents: [UsageEvent] = [],
        economyState: EconomyState? = nil, daySummary: DaySummary? = nil, habitCompletions: [HabitCompletion] = [],
        events: [EventLogEntry] = []
    ) {
        self.userID = userID
        self.day = day
        self.commitment = commitment
        self.escalationState = escalationState
        self.notifications = notifications
        self.taskCompletions = taskCompletions
        self.usageEvents = usageEvents
        self.economyState = economyState
        self.daySummary = daySummary
        self.habitCompletions = habitCompletions
        self.events = events
    }

    /// The number of rows the user-day writes.
    public var rowCount: Int {
        (commitment == nil ? 0 : 1) + (escalationState == nil ? 0 : 1) + notifications.count + taskCompletions.count + usageEvents.count
            + (economyState == nil ? 0 : 1) + (daySummary == nil ? 0 : 1) + habitCompletions.count + events.count
    }
}

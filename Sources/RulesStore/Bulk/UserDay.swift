import RulesModel

/// What one user did on one day, across the four apps: the unit of the bulk path. A user-day is
/// written whole or not at all.
package struct UserDay: Sendable {
    package var userID: UserID
    package var day: DayID
    /// Pressure: the day's commitment (inserted, or replacing that day's PENDING record).
    package var commitment: Commitment?
    /// Pressure: the escalation state at the end of the day.
    package var escalationState: EscalationState?
    package var notifications: [NotificationLogEntry]
    /// Habit tracker completions (their task must exist for the same user).
    package var taskCompletions: [TaskCompletion]
    /// MIGA Gateway Screen events.
    package var usageEvents: [UsageEvent]
    /// Earned: the economy state at the end of the day.
    package var economyState: EconomyState?
    /// Earned: the day's summary (upserted).
    package var daySummary: DaySummary?
    package var habitCompletions: [HabitCompletion]
    package var events: [EventLogEntry]

    package init(
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
    package var rowCount: Int {
        (commitment == nil ? 0 : 1) + (escalationState == nil ? 0 : 1) + notifications.count + taskCompletions.count + usageEvents.count
            + (economyState == nil ? 0 : 1) + (daySummary == nil ? 0 : 1) + habitCompletions.count + events.count
    }
}

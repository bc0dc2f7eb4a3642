/// An Earned focus session (`focus_session`, A3).
///
/// Decisions: planned duration 1–1440 minutes; awarded credits 0–10,000; a session is open until `ended_ts_utc_ms` is set;
/// an ended session has `actual_duration_minutes` (0–1440) and is either completed or ended early,
/// never both; an open session is neither, has no actual duration, awards nothing and does not
/// qualify; `qualifies` requires an ended session.
public struct FocusSession: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var sessionID: String
    public var startedAt: EpochMillis
    public var endedAt: EpochMillis?
    public var timezoneID: String
    public var dayID: DayID
    public var plannedDurationMinutes: Int
    public var actualDurationMinutes: Int?
    public var completed: Bool
    public var endedEarly: Bool
    public var strict: Bool
    public var taskLabel: String?
    public var awardedCredits: Int
    public var qualifies: Bool
    public var createdAt: EpochMillis
    public var updatedAt: EpochMillis

    public init(
        userID: UserID, sessionID: String, startedAt: EpochMillis, endedAt: EpochMillis? = nil, timezoneID: String,
        dayID: DayID, plannedDurationMinutes: Int, actualDurationMinutes: Int? = nil, completed: Bool = false,
        endedEarly: Bool = false, strict: Bool = true, taskLabel: String? = nil, awardedCredits: Int = 0,
        qualifies: Bool = false, createdAt: EpochMillis, updatedAt: EpochMillis
    ) {
        self.userID = userID
        self.sessionID = sessionID
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.timezoneID = timezoneID
        self.dayID = dayID
        self.plannedDurationMinutes = plannedDurationMinutes
        self.actualDurationMinutes = actualDurationMinutes
        self.completed = completed
        self.endedEarly = endedEarly
        self.strict = strict
        self.taskLabel = taskLabel
        self.awardedCredits = awardedCredits
        self.qualifies = qualifies
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var isOpen: Bool { endedAt == nil }

    public func validate() throws {
        let check = FieldCheck("FocusSession")
        try check.identifier("session_id", sessionID)
        try check.timestamp("started_ts_utc_ms", startedAt)
        try check.notBefore("ended_ts_utc_ms", endedAt, "started_ts_utc_ms", startedAt)
        try check.timeZone("timezone_id", timezoneID)
        try check.range("planned_duration_minutes", plannedDurationMinutes, 1...1440)
        try check.optionalText("task_label", taskLabel, max: 200)
        try check.range("awarded_credits", awardedCredits, 0...10_000)
        if endedAt == nil {
            try check.require(
                actualDurationMinutes == nil, "actual_duration_minutes", "null while the session is open", "\(actualDurationMinutes ?? 0)")
            try check.require(!completed && !endedEarly, "completed", "0 while the session is open", "1")
            try check.require(awardedCredits == 0, "awarded_credits", "0 while the session is open", "\(awardedCredits)")
            try check.require(!qualifies, "qualifies", "0 while the session is open", "1")
        } else {
            try check.require(actualDurationMinutes != nil, "actual_duration_minutes", "set when the session has ended", "null")
            try check.range("actual_duration_minutes", actualDurationMinutes ?? 0, 0...1440)
            try check.require(completed != endedEarly, "ended_early", "the opposite of completed once ended", endedEarly ? "1" : "0")
        }
        try check.timestamp("created_ts_utc_ms", createdAt)
        try check.notBefore("updated_ts_utc_ms", updatedAt, "created_ts_utc_ms", createdAt)
    }
}

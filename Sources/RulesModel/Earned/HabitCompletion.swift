/// A completion of an Earned habit (`habit_completion`, A3): at most one per habit and day (A5.4).
///
/// Decision: a suspended award awards nothing (`award_suspended ⇒ awarded_credits == 0`), and
/// awarded credits are 0–100 (a habit's reward range).
public struct HabitCompletion: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var completionID: String
    public var habitID: String
    public var timestamp: EpochMillis
    public var timezoneID: String
    public var dayID: DayID
    public var awardedCredits: Int
    public var awardSuspended: Bool
    public var createdAt: EpochMillis

    public init(
        userID: UserID, completionID: String, habitID: String, timestamp: EpochMillis, timezoneID: String, dayID: DayID,
        awardedCredits: Int = 0, awardSuspended: Bool = false, createdAt: EpochMillis
    ) {
        self.userID = userID
        self.completionID = completionID
        self.habitID = habitID
        self.timestamp = timestamp
        self.timezoneID = timezoneID
        self.dayID = dayID
        self.awardedCredits = awardedCredits
        self.awardSuspended = awardSuspended
        self.createdAt = createdAt
    }

    public func validate() throws {
        let check = FieldCheck("HabitCompletion")
        try check.identifier("completion_id", completionID)
        try check.identifier("habit_id", habitID)
        try check.timestamp("ts_utc_ms", timestamp)
        try check.timeZone("timezone_id", timezoneID)
        try check.range("awarded_credits", awardedCredits, 0...100)
        try check.require(!awardSuspended || awardedCredits == 0, "awarded_credits", "0 when award_suspended", "\(awardedCredits)")
        try check.timestamp("created_ts_utc_ms", createdAt)
    }
}

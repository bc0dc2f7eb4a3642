/// Earned's `day_summary` (A3): per-day aggregates for progress and the weekly review.
///
/// Decisions: every count is 0…``EconomyState/maxCredits``; `first_qualified_ts_utc_ms` is set
/// exactly when `qualified`.
public struct DaySummary: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var dayID: DayID
    public var timezoneID: String
    public var qualified: Bool
    public var firstQualifiedAt: EpochMillis?
    public var focusMinutesCompleted: Int
    public var creditsEarned: Int
    public var creditsSpent: Int
    public var unlockAttemptsCount: Int
    public var creditsUnlocksCount: Int
    public var questUnlocksCount: Int
    public var emergencyUnlocksCount: Int
    public var createdAt: EpochMillis
    public var updatedAt: EpochMillis

    public init(
        userID: UserID, dayID: DayID, timezoneID: String, qualified: Bool = false, firstQualifiedAt: EpochMillis? = nil,
        focusMinutesCompleted: Int = 0, creditsEarned: Int = 0, creditsSpent: Int = 0, unlockAttemptsCount: Int = 0,
        creditsUnlocksCount: Int = 0, questUnlocksCount: Int = 0, emergencyUnlocksCount: Int = 0,
        createdAt: EpochMillis, updatedAt: EpochMillis
    ) {
        self.userID = userID
        self.dayID = dayID
        self.timezoneID = timezoneID
        self.qualified = qualified
        self.firstQualifiedAt = firstQualifiedAt
        self.focusMinutesCompleted = focusMinutesCompleted
        self.creditsEarned = creditsEarned
        self.creditsSpent = creditsSpent
        self.unlockAttemptsCount = unlockAttemptsCount
        self.creditsUnlocksCount = creditsUnlocksCount
        self.questUnlocksCount = questUnlocksCount
        self.emergencyUnlocksCount = emergencyUnlocksCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public func validate() throws {
        let check = FieldCheck("DaySummary")
        try check.timeZone("timezone_id", timezoneID)
        try check.require(
            qualified == (firstQualifiedAt != nil), "first_qualified_ts_utc_ms",
            qualified ? "set when qualified" : "null when not qualified", firstQualifiedAt.map { "\($0)" } ?? "null")
        try check.timestamp("first_qualified_ts_utc_ms", firstQualifiedAt)
        // One call per count, not a loop over an array literal: a simulation validates a day's
        // summary at every Earned event, and the array was an allocation each time.
        let counts = 0...EconomyState.maxCredits
        try check.range("focus_minutes_completed", focusMinutesCompleted, counts)
        try check.range("credits_earned", creditsEarned, counts)
        try check.range("credits_spent", creditsSpent, counts)
        try check.range("unlock_attempts_count", unlockAttemptsCount, counts)
        try check.range("credits_unlocks_count", creditsUnlocksCount, counts)
        try check.range("quest_unlocks_count", questUnlocksCount, counts)
        try check.range("emergency_unlocks_count", emergencyUnlocksCount, counts)
        try check.timestamp("created_ts_utc_ms", createdAt)
        try check.notBefore("updated_ts_utc_ms", updatedAt, "created_ts_utc_ms", createdAt)
    }
}

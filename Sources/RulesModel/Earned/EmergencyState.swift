/// Earned's `emergency_state` singleton (A3).
///
/// Decision: `used_count_today > 0 ⇒ last_used_day_id` and `last_app_id_used` are set.
public struct EmergencyState: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var lastUsedDayID: DayID?
    public var usedCountToday: Int
    public var lastAppIDUsed: AppID?
    public var updatedAt: EpochMillis

    public init(
        userID: UserID, lastUsedDayID: DayID? = nil, usedCountToday: Int = 0, lastAppIDUsed: AppID? = nil,
        updatedAt: EpochMillis
    ) {
        self.userID = userID
        self.lastUsedDayID = lastUsedDayID
        self.usedCountToday = usedCountToday
        self.lastAppIDUsed = lastAppIDUsed
        self.updatedAt = updatedAt
    }

    public func validate() throws {
        let check = FieldCheck("EmergencyState")
        try check.atLeast("used_count_today", usedCountToday, 0)
        if usedCountToday > 0 {
            try check.require(lastUsedDayID != nil, "last_used_day_id", "set when used_count_today > 0", "null")
            try check.require(lastAppIDUsed != nil, "last_app_id_used", "set when used_count_today > 0", "null")
        }
        try check.timestamp("updated_ts_utc_ms", updatedAt)
    }
}

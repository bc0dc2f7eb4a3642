/// Per-day, per-app quest counters (`daily_app_limits`, A3).
///
/// Decision: `last_quest_grant_start_ts_utc_ms` is set exactly when `quest_grants_count > 0`.
public struct DailyAppLimits: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var dayID: DayID
    public var appID: AppID
    public var questGrantsCount: Int
    public var lastQuestGrantStartAt: EpochMillis?

    public init(userID: UserID, dayID: DayID, appID: AppID, questGrantsCount: Int = 0, lastQuestGrantStartAt: EpochMillis? = nil) {
        self.userID = userID
        self.dayID = dayID
        self.appID = appID
        self.questGrantsCount = questGrantsCount
        self.lastQuestGrantStartAt = lastQuestGrantStartAt
    }

    public func validate() throws {
        let check = FieldCheck("DailyAppLimits")
        try check.atLeast("quest_grants_count", questGrantsCount, 0)
        try check.require(
            (questGrantsCount > 0) == (lastQuestGrantStartAt != nil), "last_quest_grant_start_ts_utc_ms",
            "set exactly when quest_grants_count > 0", lastQuestGrantStartAt.map { "\($0)" } ?? "null")
    }
}

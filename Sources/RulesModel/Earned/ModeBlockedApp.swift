/// An app blocked by an Earned mode (`mode_blocked_app`, A3).
public struct ModeBlockedApp: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var modeID: String
    public var appID: AppID
    public var createdAt: EpochMillis

    public init(userID: UserID, modeID: String, appID: AppID, createdAt: EpochMillis) {
        self.userID = userID
        self.modeID = modeID
        self.appID = appID
        self.createdAt = createdAt
    }

    public func validate() throws {
        let check = FieldCheck("ModeBlockedApp")
        try check.identifier("mode_id", modeID)
        try check.timestamp("created_ts_utc_ms", createdAt)
    }
}

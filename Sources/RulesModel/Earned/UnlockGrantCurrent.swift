/// The mapping that makes one grant current per app (`unlock_grant_current`, A3, A5.2).
public struct UnlockGrantCurrent: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var appID: AppID
    public var grantID: String
    public var updatedAt: EpochMillis

    public init(userID: UserID, appID: AppID, grantID: String, updatedAt: EpochMillis) {
        self.userID = userID
        self.appID = appID
        self.grantID = grantID
        self.updatedAt = updatedAt
    }

    public func validate() throws {
        let check = FieldCheck("UnlockGrantCurrent")
        try check.identifier("grant_id", grantID)
        try check.timestamp("updated_ts_utc_ms", updatedAt)
    }
}

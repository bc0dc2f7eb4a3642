/// An entry of Earned's global "Distracting Apps" list (`distracting_app`, A3).
public struct DistractingApp: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var appID: AppID
    public var createdAt: EpochMillis

    public init(userID: UserID, appID: AppID, createdAt: EpochMillis) {
        self.userID = userID
        self.appID = appID
        self.createdAt = createdAt
    }

    public func validate() throws {
        try FieldCheck("DistractingApp").timestamp("created_ts_utc_ms", createdAt)
    }
}

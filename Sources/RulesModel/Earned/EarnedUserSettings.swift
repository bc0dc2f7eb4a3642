/// Earned's `user_settings` singleton row (A3): the settings of A4.1 plus bookkeeping.
public struct EarnedUserSettings: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var settings: EarnedSettings
    public var updatedAt: EpochMillis
    public var syncStatus: SyncStatus

    public init(userID: UserID, settings: EarnedSettings, updatedAt: EpochMillis, syncStatus: SyncStatus = .localOnly) {
        self.userID = userID
        self.settings = settings
        self.updatedAt = updatedAt
        self.syncStatus = syncStatus
    }

    public func validate() throws {
        try settings.validate()
        try FieldCheck("EarnedUserSettings").timestamp("updated_ts_utc_ms", updatedAt)
    }
}

/// An Earned blocking mode (`mode`, A3), soft-deleted by a tombstone.
///
/// Decisions: `name` is 1–100 characters; an AUTO mode has no manual expiry; a manual expiry is
/// after the manual effective time; a tombstone is not before creation.
public struct Mode: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var modeID: String
    public var name: String
    public var priority: Int
    public var strictness: Strictness
    public var manualState: ManualOverrideState
    public var manualEffectiveAt: EpochMillis?
    public var manualExpiresAt: EpochMillis?
    public var createdAt: EpochMillis
    public var updatedAt: EpochMillis
    public var deletedAt: EpochMillis?
    public var syncStatus: SyncStatus

    public init(
        userID: UserID, modeID: String, name: String, priority: Int = 0, strictness: Strictness,
        manualState: ManualOverrideState = .auto, manualEffectiveAt: EpochMillis? = nil, manualExpiresAt: EpochMillis? = nil,
        createdAt: EpochMillis, updatedAt: EpochMillis, deletedAt: EpochMillis? = nil, syncStatus: SyncStatus = .localOnly
    ) {
        self.userID = userID
        self.modeID = modeID
        self.name = name
        self.priority = priority
        self.strictness = strictness
        self.manualState = manualState
        self.manualEffectiveAt = manualEffectiveAt
        self.manualExpiresAt = manualExpiresAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
        self.syncStatus = syncStatus
    }

    public func validate() throws {
        let check = FieldCheck("Mode")
        try check.identifier("mode_id", modeID)
        try check.text("name", name, max: 100)
        try check.timestamp("manual_effective_at_ts_utc_ms", manualEffectiveAt)
        try check.require(
            manualState != .auto || manualExpiresAt == nil, "manual_expires_at_ts_utc_ms", "null when manual_state is AUTO",
            "\(manualExpiresAt ?? 0)")
        if let expires = manualExpiresAt, let effective = manualEffectiveAt {
            try check.require(
                expires > effective, "manual_expires_at_ts_utc_ms", "after manual_effective_at_ts_utc_ms (\(effective))", "\(expires)")
        }
        try check.timestamp("created_ts_utc_ms", createdAt)
        try check.notBefore("updated_ts_utc_ms", updatedAt, "created_ts_utc_ms", createdAt)
        try check.notBefore("deleted_ts_utc_ms", deletedAt, "created_ts_utc_ms", createdAt)
    }
}

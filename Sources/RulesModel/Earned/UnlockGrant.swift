/// A time-boxed unlock of one app (`unlock_grant`, A3).
///
/// Decisions: `ends > starts`; `metadata_json` is a JSON object; a revocation is not before creation.
public struct UnlockGrant: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var grantID: String
    public var appID: AppID
    public var createdAt: EpochMillis
    public var createdDayID: DayID
    public var startsAt: EpochMillis
    public var endsAt: EpochMillis
    public var method: UnlockGrantMethod
    public var sourceModeID: String?
    public var sourceAttemptID: String
    public var metadata: JSONValue
    public var revokedAt: EpochMillis?

    public init(
        userID: UserID, grantID: String, appID: AppID, createdAt: EpochMillis, createdDayID: DayID, startsAt: EpochMillis,
        endsAt: EpochMillis, method: UnlockGrantMethod, sourceModeID: String?, sourceAttemptID: String,
        metadata: JSONValue = .emptyObject, revokedAt: EpochMillis? = nil
    ) {
        self.userID = userID
        self.grantID = grantID
        self.appID = appID
        self.createdAt = createdAt
        self.createdDayID = createdDayID
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.method = method
        self.sourceModeID = sourceModeID
        self.sourceAttemptID = sourceAttemptID
        self.metadata = metadata
        self.revokedAt = revokedAt
    }

    public func validate() throws {
        let check = FieldCheck("UnlockGrant")
        try check.identifier("grant_id", grantID)
        try check.timestamp("created_ts_utc_ms", createdAt)
        try check.timestamp("starts_ts_utc_ms", startsAt)
        try check.timestamp("ends_ts_utc_ms", endsAt)
        try check.require(endsAt > startsAt, "ends_ts_utc_ms", "after starts_ts_utc_ms (\(startsAt))", "\(endsAt)")
        try check.optionalIdentifier("source_mode_id", sourceModeID)
        try check.identifier("source_attempt_id", sourceAttemptID)
        try check.require(metadata.isObject, "metadata_json", "a JSON object", "\(metadata)")
        try check.notBefore("revoked_ts_utc_ms", revokedAt, "created_ts_utc_ms", createdAt)
    }
}

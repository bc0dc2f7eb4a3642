/// A quest played to earn an unlock (`quest_session`, A3).
public struct QuestSession: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var questSessionID: String
    public var attemptID: String
    public var questType: QuestType
    public var createdAt: EpochMillis
    public var expiresAt: EpochMillis
    public var state: QuestSessionState
    public var metadata: JSONValue
    public var updatedAt: EpochMillis

    public init(
        userID: UserID, questSessionID: String, attemptID: String, questType: QuestType, createdAt: EpochMillis,
        expiresAt: EpochMillis, state: QuestSessionState = .active, metadata: JSONValue = .emptyObject, updatedAt: EpochMillis
    ) {
        self.userID = userID
        self.questSessionID = questSessionID
        self.attemptID = attemptID
        self.questType = questType
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.state = state
        self.metadata = metadata
        self.updatedAt = updatedAt
    }

    public func validate() throws {
        let check = FieldCheck("QuestSession")
        try check.identifier("quest_session_id", questSessionID)
        try check.identifier("attempt_id", attemptID)
        try check.timestamp("created_ts_utc_ms", createdAt)
        try check.require(expiresAt > createdAt, "expires_ts_utc_ms", "after created_ts_utc_ms (\(createdAt))", "\(expiresAt)")
        try check.require(metadata.isObject, "metadata_json", "a JSON object", "\(metadata)")
        try check.notBefore("updated_ts_utc_ms", updatedAt, "created_ts_utc_ms", createdAt)
    }
}

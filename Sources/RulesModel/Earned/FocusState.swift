/// Earned's `focus_state` singleton (A3): the pointer to the active focus session, if any.
public struct FocusState: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var activeSessionID: String?
    public var updatedAt: EpochMillis

    public init(userID: UserID, activeSessionID: String? = nil, updatedAt: EpochMillis) {
        self.userID = userID
        self.activeSessionID = activeSessionID
        self.updatedAt = updatedAt
    }

    public func validate() throws {
        let check = FieldCheck("FocusState")
        try check.optionalIdentifier("active_session_id", activeSessionID)
        try check.timestamp("updated_ts_utc_ms", updatedAt)
    }
}

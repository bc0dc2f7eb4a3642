/// An app blocked during an Earned focus session (`focus_session_blocked_app`, A3).
public struct FocusSessionBlockedApp: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var sessionID: String
    public var appID: AppID

    public init(userID: UserID, sessionID: String, appID: AppID) {
        self.userID = userID
        self.sessionID = sessionID
        self.appID = appID
    }

    public func validate() throws {
        try FieldCheck("FocusSessionBlockedApp").identifier("session_id", sessionID)
    }
}

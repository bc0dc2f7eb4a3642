import RulesModel

/// A6.5 Emergency unlock grant: a new grant that starts after the delay.
public struct EmergencyUnlock: Hashable, Sendable {
    public var userID: UserID
    public var attemptID: String
    public var delaySeconds: Int
    public var unlockMinutes: Int
    public var at: EpochMillis
    public var grantID: String?

    public init(userID: UserID, attemptID: String, delaySeconds: Int, unlockMinutes: Int, at: EpochMillis, grantID: String? = nil) {
        self.userID = userID
        self.attemptID = attemptID
        self.delaySeconds = delaySeconds
        self.unlockMinutes = unlockMinutes
        self.at = at
        self.grantID = grantID
    }
}

import RulesModel

/// A6.5 Emergency unlock grant: a new grant that starts after the delay.
package struct EmergencyUnlock: Hashable, Sendable {
    package var userID: UserID
    package var attemptID: String
    package var delaySeconds: Int
    package var unlockMinutes: Int
    package var at: EpochMillis
    package var grantID: String?

    package init(userID: UserID, attemptID: String, delaySeconds: Int, unlockMinutes: Int, at: EpochMillis, grantID: String? = nil) {
        self.userID = userID
        self.attemptID = attemptID
        self.delaySeconds = delaySeconds
        self.unlockMinutes = unlockMinutes
        self.at = at
        self.grantID = grantID
    }
}

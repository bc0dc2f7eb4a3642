import RulesModel

/// A6.4 Quest completion grant.
package struct QuestCompletion: Hashable, Sendable {
    package var userID: UserID
    package var questSessionID: String
    package var unlockMinutes: Int
    package var at: EpochMillis
    package var grantID: String?
    package var extensionID: String?

    package init(
        userID: UserID, questSessionID: String, unlockMinutes: Int, at: EpochMillis, grantID: String? = nil, extensionID: String? = nil
    ) {
        self.userID = userID
        self.questSessionID = questSessionID
        self.unlockMinutes = unlockMinutes
        self.at = at
        self.grantID = grantID
        self.extensionID = extensionID
    }
}

import RulesModel

/// A6.4 Quest completion grant.
public struct QuestCompletion: Hashable, Sendable {
    public var userID: UserID
    public var questSessionID: String
    public var unlockMinutes: Int
    public var at: EpochMillis
    public var grantID: String?
    public var extensionID: String?

    public init(
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

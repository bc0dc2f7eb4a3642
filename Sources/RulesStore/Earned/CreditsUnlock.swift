import RulesModel

/// A6.3 Credits unlock grant.
public struct CreditsUnlock: Hashable, Sendable {
    public var userID: UserID
    public var attemptID: String
    public var minutes: Int
    public var costCredits: Int
    public var at: EpochMillis
    /// The id of the grant if a new one is created (default: `<attempt_id>.grant`).
    public var grantID: String?
    /// The id of the extension if the current grant is extended (default: `<attempt_id>.ext`).
    public var extensionID: String?

    public init(
        userID: UserID, attemptID: String, minutes: Int, costCredits: Int, at: EpochMillis,
        grantID: String? = nil, extensionID: String? = nil
    ) {
        self.userID = userID
        self.attemptID = attemptID
        self.minutes = minutes
        self.costCredits = costCredits
        self.at = at
        self.grantID = grantID
        self.extensionID = extensionID
    }
}

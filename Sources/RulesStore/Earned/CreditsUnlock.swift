import RulesModel

/// A6.3 Credits unlock grant.
package struct CreditsUnlock: Hashable, Sendable {
    package var userID: UserID
    package var attemptID: String
    package var minutes: Int
    package var costCredits: Int
    package var at: EpochMillis
    /// The id of the grant if a new one is created (default: `<attempt_id>.grant`).
    package var grantID: String?
    /// The id of the extension if the current grant is extended (default: `<attempt_id>.ext`).
    package var extensionID: String?

    package init(
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

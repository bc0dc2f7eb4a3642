import RulesModel

/// A6.6 Focus session completion (completed or ended early).
public struct FocusCompletion: Hashable, Sendable {
    public var userID: UserID
    public var sessionID: String
    public var endedAt: EpochMillis
    public var actualMinutes: Int
    public var completed: Bool
    public var awardedCredits: Int
    public var qualifies: Bool
    /// Set when this session qualifies the day for the streak.
    public var streak: StreakUpdate?

    public init(
        userID: UserID, sessionID: String, endedAt: EpochMillis, actualMinutes: Int, completed: Bool, awardedCredits: Int,
        qualifies: Bool, streak: StreakUpdate? = nil
    ) {
        self.userID = userID
        self.sessionID = sessionID
        self.endedAt = endedAt
        self.actualMinutes = actualMinutes
        self.completed = completed
        self.awardedCredits = awardedCredits
        self.qualifies = qualifies
        self.streak = streak
    }
}

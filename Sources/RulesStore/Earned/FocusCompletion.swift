import RulesModel

/// A6.6 Focus session completion (completed or ended early).
package struct FocusCompletion: Hashable, Sendable {
    package var userID: UserID
    package var sessionID: String
    package var endedAt: EpochMillis
    package var actualMinutes: Int
    package var completed: Bool
    package var awardedCredits: Int
    package var qualifies: Bool
    /// Set when this session qualifies the day for the streak.
    package var streak: StreakUpdate?

    package init(
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

import RulesModel

/// A6.1 Daily rollover (`ensureDayState`).
package struct DayRollover: Hashable, Sendable {
    package var userID: UserID
    package var toDayID: DayID
    /// Credits carried into the new day (the rules apply the rollover cap); at most the balance.
    package var carriedCredits: Int
    /// The streak after the rollover (a missed day may reset it); nil leaves it unchanged.
    package var streakCount: Int?
    package var timezoneID: String
    package var at: EpochMillis

    package init(userID: UserID, toDayID: DayID, carriedCredits: Int, streakCount: Int? = nil, timezoneID: String, at: EpochMillis) {
        self.userID = userID
        self.toDayID = toDayID
        self.carriedCredits = carriedCredits
        self.streakCount = streakCount
        self.timezoneID = timezoneID
        self.at = at
    }
}

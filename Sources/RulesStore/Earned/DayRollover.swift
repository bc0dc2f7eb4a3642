import RulesModel

/// A6.1 Daily rollover (`ensureDayState`).
public struct DayRollover: Hashable, Sendable {
    public var userID: UserID
    public var toDayID: DayID
    /// Credits carried into the new day (the rules apply the rollover cap); at most the balance.
    public var carriedCredits: Int
    /// The streak after the rollover (a missed day may reset it); nil leaves it unchanged.
    public var streakCount: Int?
    public var timezoneID: String
    public var at: EpochMillis

    public init(userID: UserID, toDayID: DayID, carriedCredits: Int, streakCount: Int? = nil, timezoneID: String, at: EpochMillis) {
        self.userID = userID
        self.toDayID = toDayID
        self.carriedCredits = carriedCredits
        self.streakCount = streakCount
        self.timezoneID = timezoneID
        self.at = at
    }
}

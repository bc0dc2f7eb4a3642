/// Earned's `economy_state` singleton (A3): credits and streak of one user.
///
/// Decisions: beyond the DDL's CHECKs, `today_focus_qualified ⇒ today_qualified` (a focus
/// qualification qualifies the day); the balance and the cap are at most ``maxCredits`` and the
/// streak at most 1,000,000 days, so that no sum of valid values can overflow.
public struct EconomyState: Hashable, Sendable, Codable, Validatable {
    /// The largest balance, cap, award or count of credits the model accepts.
    public static let maxCredits = 1_000_000_000

    public var userID: UserID
    public var currentDayID: DayID
    public var creditBalance: Int
    public var rolloverCap: Int
    public var dailyResetHourLocal: Int
    public var streakCount: Int
    public var streakBonusAwardedDayID: DayID?
    public var todayFocusQualified: Bool
    public var todayHabitQualifiedCount: Int
    public var todayQualified: Bool
    public var habitAwardsSuspendedUntilDayID: DayID?
    public var updatedAt: EpochMillis

    public init(
        userID: UserID, currentDayID: DayID, creditBalance: Int = 0, rolloverCap: Int = 10,
        dailyResetHourLocal: Int = 4, streakCount: Int = 0, streakBonusAwardedDayID: DayID? = nil,
        todayFocusQualified: Bool = false, todayHabitQualifiedCount: Int = 0, todayQualified: Bool = false,
        habitAwardsSuspendedUntilDayID: DayID? = nil, updatedAt: EpochMillis
    ) {
        self.userID = userID
        self.currentDayID = currentDayID
        self.creditBalance = creditBalance
        self.rolloverCap = rolloverCap
        self.dailyResetHourLocal = dailyResetHourLocal
        self.streakCount = streakCount
        self.streakBonusAwardedDayID = streakBonusAwardedDayID
        self.todayFocusQualified = todayFocusQualified
        self.todayHabitQualifiedCount = todayHabitQualifiedCount
        self.todayQualified = todayQualified
        self.habitAwardsSuspendedUntilDayID = habitAwardsSuspendedUntilDayID
        self.updatedAt = updatedAt
    }

    public func validate() throws {
        let check = FieldCheck("EconomyState")
        try check.range("credit_balance", creditBalance, 0...EconomyState.maxCredits)
        try check.range("rollover_cap", rolloverCap, 0...EconomyState.maxCredits)
        try check.range("daily_reset_hour_local", dailyResetHourLocal, 0...23)
        try check.range("streak_count", streakCount, 0...1_000_000)
        try check.range("today_habit_qualified_count", todayHabitQualifiedCount, 0...1_000_000)
        try check.require(!todayFocusQualified || todayQualified, "today_qualified", "1 when today_focus_qualified is 1", "0")
        try check.timestamp("updated_ts_utc_ms", updatedAt)
    }
}

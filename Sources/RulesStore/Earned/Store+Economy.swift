import GRDB
import RulesModel

extension Store {
    /// Starts Earned's day cycle for a user at its first Earned event: the economy's current day,
    /// its rollover cap and reset hour (from the rules), and the day's summary, in one transaction.
    /// A7 defines no event for it. The day may be earlier than the one the user was created on (a
    /// user created after midnight UTC but before 04:00 local).
    package func startEconomy(_ userID: UserID, day: DayID, timezoneID: String, rolloverCap: Int, resetHour: Int, at: EpochMillis) throws {
        try earned(userID) { try $0.startEconomy(day: day, timezoneID: timezoneID, rolloverCap: rolloverCap, resetHour: resetHour, at: at) }
    }

    /// A6.1 Daily rollover (`ensureDayState`): moves the economy to the new day (carried credits,
    /// today's flags reset), starts the new day's summary and logs `DAY_ROLLOVER`, in one transaction.
    package func rollOverDay(_ request: DayRollover) throws {
        try earned(request.userID) { try $0.rollOverDay(request) }
    }

    /// Starts a focus session (open), points `focus_state` at it and logs `FOCUS_STARTED`, in one
    /// transaction. Refused while another session is active.
    package func startFocusSession(_ session: FocusSession, blockedApps: [AppID] = []) throws {
        try earned(session.userID) { try $0.startFocusSession(session, blockedApps: blockedApps) }
    }

    /// A6.6 Focus session completion: ends the session, clears `focus_state`, adds the awarded
    /// credits (and any streak qualification and bonus) to the economy and the day summary, and
    /// logs `FOCUS_ENDED`, `CREDITS_EARNED` (if any), `STREAK_QUALIFIED` / `STREAK_BONUS_AWARDED`
    /// (if applicable), in one transaction.
    ///
    /// Decision: `day_summary.focus_minutes_completed` adds the actual minutes of every ended
    /// session, completed or ended early (the minutes were focused either way).
    package func completeFocusSession(_ request: FocusCompletion) throws {
        try earned(request.userID) { try $0.completeFocusSession(request) }
    }

    /// A6.7 Habit completion: inserts the completion (at most one per habit and day: a second one
    /// fails on the unique index and changes nothing); unless suspended, adds its credits to the
    /// economy, `today_habit_qualified_count` and the day summary and logs `CREDITS_EARNED`, plus
    /// the streak events when it qualifies the day; when it triggers a suspension, sets
    /// `habit_awards_suspended_until_day_id` and logs `HABIT_AWARD_SUSPENDED`. One transaction.
    ///
    /// A completion during a suspension must be `award_suspended` with no credits.
    package func recordHabitCompletion(_ record: HabitCompletionRecord) throws {
        try earned(record.completion.userID) { try $0.recordHabitCompletion(record) }
    }
}

extension Store {
    /// Runs one of Earned's operations on the user's rows in the database, in one transaction.
    func earned<T>(
        _ userID: UserID, operation: String = #function, _ body: (EarnedOperations<DatabaseEarnedTables>) throws -> T
    ) throws -> T {
        try write(operation: operation) { db in try body(EarnedOperations(DatabaseEarnedTables(db: db, userID: userID))) }
    }
}

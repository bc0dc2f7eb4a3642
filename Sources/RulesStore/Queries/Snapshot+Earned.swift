import GRDB
import RulesModel

extension Snapshot {
    /// Earned's economy (credits, streak, today's flags) of a user.
    public func economyState(_ userID: UserID) throws -> EconomyState {
        try one(
            "SELECT * FROM economy_state WHERE user_id = ?", [userID.rawValue], "economy_state of user", "\(userID)", EarnedRows.economy)
    }

    /// Earned's emergency-unlock state of a user.
    public func emergencyState(_ userID: UserID) throws -> EmergencyState {
        try one(
            "SELECT * FROM emergency_state WHERE user_id = ?", [userID.rawValue], "emergency_state of user", "\(userID)",
            EarnedRows.emergency)
    }

    /// Earned's entitlement (tier, subscription) of a user.
    public func entitlement(_ userID: UserID) throws -> EntitlementState {
        try one(
            "SELECT * FROM entitlement_state WHERE user_id = ?", [userID.rawValue], "entitlement_state of user", "\(userID)",
            EarnedRows.entitlement)
    }

    /// Earned's settings (A4.1) of a user.
    public func earnedSettings(_ userID: UserID) throws -> EarnedSettings {
        try one(
            "SELECT * FROM user_settings WHERE user_id = ?", [userID.rawValue], "user_settings of user", "\(userID)",
            EarnedRows.userSettings
        ).settings
    }

    /// The pointer to the user's active focus session.
    public func focusState(_ userID: UserID) throws -> FocusState {
        try one("SELECT * FROM focus_state WHERE user_id = ?", [userID.rawValue], "focus_state of user", "\(userID)", EarnedRows.focusState)
    }

    /// Day summaries of the last `days` days ending on `endingOn` (inclusive), oldest first.
    public func daySummaries(_ userID: UserID, lastDays days: Int, endingOn end: DayID) throws -> [DaySummary] {
        let (from, to) = try Snapshot.lastDays(days, endingOn: end)
        return try all(
            "SELECT * FROM day_summary WHERE user_id = ? AND day_id BETWEEN ? AND ? ORDER BY day_id",
            [userID.rawValue, from.rawValue, to.rawValue], EarnedRows.daySummary)
    }

    /// The user's modes that are not deleted, by priority (highest first).
    public func modes(_ userID: UserID) throws -> [Mode] {
        try all(
            "SELECT * FROM mode WHERE user_id = ? AND deleted_ts_utc_ms IS NULL ORDER BY priority DESC, mode_id", [userID.rawValue],
            EarnedRows.mode)
    }

    /// One of the user's modes, deleted or not.
    public func mode(_ userID: UserID, id: String) throws -> Mode? {
        try Row.fetchOne(cached: db, sql: "SELECT * FROM mode WHERE user_id = ? AND mode_id = ?", arguments: [userID.rawValue, id]).map(
            EarnedRows.mode)
    }

    /// One of the user's Earned habits, deleted or not.
    public func habit(_ userID: UserID, id: String) throws -> Habit? {
        try Row.fetchOne(cached: db, sql: "SELECT * FROM habit WHERE user_id = ? AND habit_id = ?", arguments: [userID.rawValue, id]).map(
            EarnedRows.habit)
    }

    /// The weekly windows of one of the user's modes.
    public func modeWindows(_ userID: UserID, modeID: String) throws -> [ModeWindow] {
        try all(
            "SELECT * FROM mode_window WHERE user_id = ? AND mode_id = ? ORDER BY start_local_hhmm, window_id", [userID.rawValue, modeID],
            EarnedRows.modeWindow)
    }

    /// The apps one of the user's modes blocks, sorted.
    public func blockedApps(_ userID: UserID, modeID: String) throws -> [AppID] {
        try Row.fetchAll(
            cached: db, sql: "SELECT app_id FROM mode_blocked_app WHERE user_id = ? AND mode_id = ? ORDER BY app_id",
            arguments: [userID.rawValue, modeID]
        ).map { try RowReader($0, "mode_blocked_app").appID("app_id") }
    }

    /// The user's global "Distracting Apps" list, sorted.
    public func distractingApps(_ userID: UserID) throws -> [AppID] {
        try Row.fetchAll(
            cached: db, sql: "SELECT app_id FROM distracting_app WHERE user_id = ? ORDER BY app_id", arguments: [userID.rawValue]
        )
        .map { try RowReader($0, "distracting_app").appID("app_id") }
    }

    /// The user's Earned habits that are not deleted, in `sort_order`.
    public func habits(_ userID: UserID) throws -> [Habit] {
        try all(
            "SELECT * FROM habit WHERE user_id = ? AND deleted_ts_utc_ms IS NULL ORDER BY sort_order, habit_id", [userID.rawValue],
            EarnedRows.habit)
    }

    /// Earned habit completions on the days `fromDay…toDay` (inclusive).
    public func habitCompletions(_ userID: UserID, fromDay: DayID, toDay: DayID) throws -> [HabitCompletion] {
        try all(
            "SELECT * FROM habit_completion WHERE user_id = ? AND day_id BETWEEN ? AND ? ORDER BY ts_utc_ms, completion_id",
            [userID.rawValue, fromDay.rawValue, toDay.rawValue], EarnedRows.habitCompletion)
    }

    /// Habit completions with `ts_utc_ms` in `[from, to)` (for "too many completions in a window").
    public func habitCompletions(_ userID: UserID, from: EpochMillis, to: EpochMillis) throws -> [HabitCompletion] {
        try Snapshot.requirePeriod(from, to)
        return try all(
            "SELECT * FROM habit_completion WHERE user_id = ? AND ts_utc_ms >= ? AND ts_utc_ms < ? ORDER BY ts_utc_ms, completion_id",
            [userID.rawValue, from, to], EarnedRows.habitCompletion)
    }

    /// Focus sessions on the days `fromDay…toDay` (inclusive).
    public func focusSessions(_ userID: UserID, fromDay: DayID, toDay: DayID) throws -> [FocusSession] {
        try all(
            "SELECT * FROM focus_session WHERE user_id = ? AND day_id BETWEEN ? AND ? ORDER BY started_ts_utc_ms, session_id",
            [userID.rawValue, fromDay.rawValue, toDay.rawValue], EarnedRows.focusSession)
    }

    /// One of the user's unlock attempts, if it exists (and was not removed by retention).
    public func unlockAttempt(_ userID: UserID, attemptID: String) throws -> UnlockAttempt? {
        try Row.fetchOne(
            cached: db, sql: "SELECT * FROM unlock_attempt WHERE user_id = ? AND attempt_id = ?", arguments: [userID.rawValue, attemptID]
        )
        .map(UnlockRows.attempt)
    }

    /// The number of unlock attempts per app on one day ("counts per app per day").
    public func unlockAttemptCounts(_ userID: UserID, on day: DayID) throws -> [AppID: Int] {
        var counts: [AppID: Int] = [:]
        for row in try Row.fetchAll(
            cached: db, sql: "SELECT app_id, COUNT(*) AS n FROM unlock_attempt WHERE user_id = ? AND day_id = ? GROUP BY app_id",
            arguments: [userID.rawValue, day.rawValue])
        {
            let r = RowReader(row, "unlock_attempt")
            counts[try r.appID("app_id")] = try r.int("n")
        }
        return counts
    }

    /// The current grant of an app (A5.2), whether or not it is still running.
    public func currentGrant(_ userID: UserID, appID: AppID) throws -> UnlockGrant? {
        try Row.fetchOne(
            cached: db,
            sql: """
                SELECT g.* FROM unlock_grant_current c JOIN unlock_grant g ON g.grant_id = c.grant_id WHERE c.user_id = ? AND c.app_id = ?
                """, arguments: [userID.rawValue, appID.rawValue]
        ).map(UnlockRows.grant)
    }

    /// Current grants that cover the instant `at` (started, not ended, not revoked).
    public func activeGrants(_ userID: UserID, at: EpochMillis) throws -> [UnlockGrant] {
        try all(
            """
            SELECT g.* FROM unlock_grant_current c JOIN unlock_grant g ON g.grant_id = c.grant_id
            WHERE c.user_id = ? AND g.starts_ts_utc_ms <= ? AND g.ends_ts_utc_ms > ? AND g.revoked_ts_utc_ms IS NULL ORDER BY g.app_id
            """, [userID.rawValue, at, at], UnlockRows.grant)
    }

    /// The quest counters of an app on a day (zero when none).
    public func dailyAppLimits(_ userID: UserID, day: DayID, appID: AppID) throws -> DailyAppLimits {
        try Row.fetchOne(
            cached: db, sql: "SELECT * FROM daily_app_limits WHERE user_id = ? AND day_id = ? AND app_id = ?",
            arguments: [userID.rawValue, day.rawValue, appID.rawValue]
        ).map(UnlockRows.dailyAppLimits)
            ?? DailyAppLimits(userID: userID, dayID: day, appID: appID)
    }

    /// One of the user's quest sessions, if it exists.
    public func questSession(_ userID: UserID, id: String) throws -> QuestSession? {
        try Row.fetchOne(
            cached: db, sql: "SELECT * FROM quest_session WHERE user_id = ? AND quest_session_id = ?", arguments: [userID.rawValue, id]
        )
        .map(UnlockRows.questSession)
    }

    /// Event log rows with `ts_utc_ms` in `[from, to)`, optionally of one type, in log order.
    public func events(_ userID: UserID, from: EpochMillis, to: EpochMillis, type: EventType? = nil) throws -> [EventLogEntry] {
        try Snapshot.requirePeriod(from, to)
        if let type {
            return try all(
                "SELECT * FROM event_log WHERE user_id = ? AND type = ? AND ts_utc_ms >= ? AND ts_utc_ms < ? ORDER BY ts_utc_ms, rowid",
                [userID.rawValue, type.rawValue, from, to], UnlockRows.event)
        }
        return try all(
            "SELECT * FROM event_log WHERE user_id = ? AND ts_utc_ms >= ? AND ts_utc_ms < ? ORDER BY ts_utc_ms, rowid",
            [userID.rawValue, from, to], UnlockRows.event)
    }
}

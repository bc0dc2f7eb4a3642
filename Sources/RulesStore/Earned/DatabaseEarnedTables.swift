import GRDB
import RulesModel

/// One user's Earned rows in the database, read and written inside the caller's transaction
/// through cached statements.
struct DatabaseEarnedTables: EarnedTables {
    let db: Database
    let userID: UserID

    private var u: Int64 { userID.rawValue }

    private func execute(_ sql: String, _ fill: (inout BoundValues) throws -> Void) throws {
        try db.run(cached: sql, fill)
    }

    func requireUser() throws { try Store.requireUser(db, userID) }

    func prune(now: EpochMillis, policy: RetentionPolicy) throws { try Store.deleteEarned(db, user: userID, now: now, policy: policy) }

    // MARK: Singletons

    func economy() throws -> EconomyState {
        guard let row = try Row.fetchOne(cached: db, sql: "SELECT * FROM economy_state WHERE user_id = ?", arguments: [u]) else {
            throw StoreError.notFound("economy_state of user", "\(userID)")
        }
        return try EarnedRows.economy(row)
    }

    func setEconomy(_ economy: EconomyState) throws {
        try execute(EarnedRows.updateEconomySQL) { EarnedRows.economy(economy, into: &$0) }
    }

    func emergency() throws -> EmergencyState {
        guard let row = try Row.fetchOne(cached: db, sql: "SELECT * FROM emergency_state WHERE user_id = ?", arguments: [u]) else {
            throw StoreError.notFound("emergency_state of user", "\(userID)")
        }
        return try EarnedRows.emergency(row)
    }

    func setEmergency(_ emergency: EmergencyState) throws {
        try execute(EarnedRows.updateEmergencySQL) { EarnedRows.emergency(emergency, into: &$0) }
    }

    func setEarnedSettings(_ settings: EarnedSettings, at: EpochMillis) throws {
        try db.execute(cached: EarnedRows.updateSettingsSQL, arguments: [try ModelJSON.encode(settings), at, u])
    }

    func setEntitlement(_ state: EntitlementState) throws {
        try execute(EarnedRows.updateEntitlementSQL) { EarnedRows.entitlement(state, into: &$0) }
    }

    func activeFocusSessionID() throws -> String? {
        try String.fetchOne(cached: db, sql: "SELECT active_session_id FROM focus_state WHERE user_id = ?", arguments: [u])
    }

    func setActiveFocusSession(_ id: String, at: EpochMillis) throws {
        try db.execute(cached: EarnedRows.updateFocusStateSQL, arguments: [id, at, u])
    }

    func clearActiveFocusSession(_ id: String, at: EpochMillis) throws {
        try db.execute(
            cached: "UPDATE focus_state SET active_session_id = NULL, updated_ts_utc_ms = ? WHERE user_id = ? AND active_session_id = ?",
            arguments: [at, u, id])
    }

    // MARK: Days

    func daySummary(_ day: DayID) throws -> DaySummary? {
        try Row.fetchOne(cached: db, sql: "SELECT * FROM day_summary WHERE user_id = ? AND day_id = ?", arguments: [u, day.rawValue])
            .map(EarnedRows.daySummary)
    }

    func saveDaySummary(_ summary: DaySummary) throws {
        try execute(EarnedRows.insertDaySummarySQL) { EarnedRows.daySummary(summary, into: &$0) }
    }

    // MARK: The unlock gate

    func attempt(_ id: String) throws -> UnlockAttempt? {
        try Row.fetchOne(cached: db, sql: "SELECT * FROM unlock_attempt WHERE attempt_id = ?", arguments: [id]).map(UnlockRows.attempt)
    }

    func insertAttempt(_ attempt: UnlockAttempt) throws {
        let options = try ModelJSON.encode(attempt.availableOptions)
        try execute(UnlockRows.insertAttemptSQL) { try UnlockRows.attempt(attempt, optionsJSON: options, into: &$0) }
    }

    func updateAttempt(_ attempt: UnlockAttempt) throws {
        try db.execute(
            cached: UnlockRows.updateAttemptSQL,
            arguments: [
                attempt.chosenOptionType?.rawValue, try attempt.chosenOptionPayload.map { try ModelJSON.encode($0) },
                attempt.outcome.rawValue,
                attempt.denialReason?.rawValue, attempt.grantID, attempt.updatedAt, attempt.attemptID,
            ])
    }

    func currentGrant(_ app: AppID) throws -> UnlockGrant? {
        try Row.fetchOne(
            cached: db,
            sql: """
                SELECT g.* FROM unlock_grant_current c JOIN unlock_grant g ON g.grant_id = c.grant_id
                WHERE c.user_id = ? AND c.app_id = ?
                """, arguments: [u, app.rawValue]
        ).map(UnlockRows.grant)
    }

    func insertCurrentGrant(_ grant: UnlockGrant, at: EpochMillis) throws {
        try execute(UnlockRows.insertGrantSQL) { try UnlockRows.grant(grant, into: &$0) }
        try db.execute(cached: UnlockRows.upsertCurrentGrantSQL, arguments: [u, grant.appID.rawValue, grant.grantID, at])
    }

    func extendGrant(_ grant: UnlockGrant, _ ext: UnlockGrantExtension, at: EpochMillis) throws {
        try db.execute(cached: "UPDATE unlock_grant SET ends_ts_utc_ms = ? WHERE grant_id = ?", arguments: [grant.endsAt, grant.grantID])
        try execute(UnlockRows.insertExtensionSQL) { try UnlockRows.grantExtension(ext, into: &$0) }
        try db.execute(
            cached: "UPDATE unlock_grant_current SET updated_ts_utc_ms = ? WHERE user_id = ? AND app_id = ?",
            arguments: [at, u, grant.appID.rawValue])
    }

    func dailyAppLimits(_ day: DayID, _ app: AppID) throws -> DailyAppLimits? {
        try Row.fetchOne(
            cached: db, sql: "SELECT * FROM daily_app_limits WHERE user_id = ? AND day_id = ? AND app_id = ?",
            arguments: [u, day.rawValue, app.rawValue]
        ).map(UnlockRows.dailyAppLimits)
    }

    func saveDailyAppLimits(_ limits: DailyAppLimits) throws {
        try execute(UnlockRows.upsertDailyAppLimitsSQL) { UnlockRows.dailyAppLimits(limits, into: &$0) }
    }

    func quest(_ id: String) throws -> QuestSession? {
        try Row.fetchOne(cached: db, sql: "SELECT * FROM quest_session WHERE quest_session_id = ?", arguments: [id]).map(
            UnlockRows.questSession)
    }

    func insertQuest(_ session: QuestSession) throws {
        try execute(UnlockRows.insertQuestSQL) { try UnlockRows.quest(session, into: &$0) }
    }

    func updateQuestState(_ session: QuestSession) throws {
        try db.execute(
            cached: "UPDATE quest_session SET state = ?, updated_ts_utc_ms = ? WHERE quest_session_id = ?",
            arguments: [session.state.rawValue, session.updatedAt, session.questSessionID])
    }

    // MARK: Habits, focus, modes

    func owner(ofHabit id: String) throws -> UserID? {
        try Int64.fetchOne(cached: db, sql: "SELECT user_id FROM habit WHERE habit_id = ?", arguments: [id]).flatMap(UserID.init(rawValue:))
    }

    func habit(_ id: String) throws -> Habit? {
        try Row.fetchOne(cached: db, sql: "SELECT * FROM habit WHERE habit_id = ? AND user_id = ?", arguments: [id, u]).map(
            EarnedRows.habit)
    }

    func saveHabit(_ habit: Habit) throws {
        try execute(EarnedRows.upsertHabitSQL) { EarnedRows.habit(habit, into: &$0) }
    }

    func habitCompleted(_ habitID: String, on day: DayID) throws -> Bool {
        try Bool.fetchOne(
            cached: db, sql: "SELECT 1 FROM habit_completion WHERE habit_id = ? AND day_id = ?", arguments: [habitID, day.rawValue]) == true
    }

    func insertHabitCompletion(_ completion: HabitCompletion) throws {
        try execute(EarnedRows.insertHabitCompletionSQL) { EarnedRows.habitCompletion(completion, into: &$0) }
    }

    func focusSession(_ id: String) throws -> FocusSession? {
        try Row.fetchOne(cached: db, sql: "SELECT * FROM focus_session WHERE session_id = ? AND user_id = ?", arguments: [id, u])
            .map(EarnedRows.focusSession)
    }

    func insertFocusSession(_ session: FocusSession, blockedApps: [AppID]) throws {
        try execute(EarnedRows.insertFocusSessionSQL) { EarnedRows.focusSession(session, into: &$0) }
        for app in blockedApps {
            try db.execute(cached: EarnedRows.insertFocusBlockedAppSQL, arguments: [session.sessionID, app.rawValue, u])
        }
    }

    func updateFocusSession(_ s: FocusSession) throws {
        try db.execute(
            cached: EarnedRows.updateFocusSessionSQL,
            arguments: [
                s.endedAt, s.actualDurationMinutes, s.completed, s.endedEarly,
                s.awardedCredits, s.qualifies, s.updatedAt, s.sessionID,
            ])
    }

    func owner(ofMode id: String) throws -> UserID? {
        try Int64.fetchOne(cached: db, sql: "SELECT user_id FROM mode WHERE mode_id = ?", arguments: [id]).flatMap(UserID.init(rawValue:))
    }

    func saveMode(_ mode: Mode, windows: [ModeWindow], blockedApps: [AppID]) throws {
        try execute(EarnedRows.upsertModeSQL) { EarnedRows.mode(mode, into: &$0) }
        try db.execute(cached: "DELETE FROM mode_window WHERE mode_id = ?", arguments: [mode.modeID])
        for window in windows {
            try execute(EarnedRows.insertModeWindowSQL) { EarnedRows.modeWindow(window, into: &$0) }
        }
        try db.execute(cached: "DELETE FROM mode_blocked_app WHERE mode_id = ?", arguments: [mode.modeID])
        for app in blockedApps {
            try db.execute(cached: EarnedRows.insertModeBlockedAppSQL, arguments: [mode.modeID, app.rawValue, u, mode.updatedAt])
        }
    }

    func setDistractingApps(_ apps: [AppID], at: EpochMillis) throws {
        try db.execute(cached: "DELETE FROM distracting_app WHERE user_id = ?", arguments: [u])
        for app in apps {
            try db.execute(cached: EarnedRows.insertDistractingAppSQL, arguments: [u, app.rawValue, at])
        }
    }

    // MARK: The event log

    func appendEvent(_ entry: EventLogEntry) throws { try appendEvent(entry, payloadJSON: try entry.payload.json()) }

    /// ``appendEvent(_:)`` with the payload's JSON already encoded.
    func appendEvent(_ entry: EventLogEntry, payloadJSON json: String) throws {
        do {
            try db.run(cached: UnlockRows.insertEventSQL) { UnlockRows.event(entry, payloadJSON: json, into: &$0) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            guard try Bool.fetchOne(cached: db, sql: "SELECT 1 FROM event_log WHERE event_id = ?", arguments: [entry.eventID]) == true
            else { throw error }
            throw StoreError.alreadyLogged(entry.eventID)
        }
    }
}

import GRDB
import RulesModel

/// One user's Earned rows as ``StoredUsers`` reads them: what `DatabaseLog` (RulesSim) turns back
/// into Earned's events. Each list is in the order of its times (ties by id); every query goes
/// through an index on the user (a mode's windows and apps through its mode, a quest through its
/// attempt), so a user is read in the time of its own rows whatever the size of the file.
package struct StoredEarned: Sendable {
    /// The "Distracting Apps" list (each app with the instant the list was set).
    package var distractingApps: [(app: AppID, at: EpochMillis)]
    /// Earned's settings (nil: no `user_settings` row).
    package var settings: EarnedSettings?
    package var modes: [Mode]
    /// The modes' windows and blocked apps, by mode id.
    package var windows: [String: [ModeWindow]]
    package var blockedApps: [String: [AppID]]
    package var habits: [Habit]
    package var completions: [HabitCompletion]
    package var focusSessions: [FocusSession]
    /// The apps each focus session blocks, by session id.
    package var focusBlockedApps: [String: [AppID]]
    package var attempts: [UnlockAttempt]
    /// The quests by the attempt that started them.
    package var quests: [String: QuestSession]
    /// Why each failed quest failed (the event log's `QUEST_FAILED`), by quest session id.
    package var questFailures: [String: QuestFailureReason]

    /// Whether the rows hold nothing an event made (every user has an economy of its own).
    package var isEmpty: Bool {
        distractingApps.isEmpty && settings?.quest.qrKeySetAt == nil && modes.isEmpty && habits.isEmpty && completions.isEmpty
            && focusSessions.isEmpty && attempts.isEmpty
    }

    /// Reads user `id`'s Earned rows.
    static func read(_ id: UserID, _ db: Database) throws -> StoredEarned {
        let u = id.rawValue
        let snapshot = Snapshot(db)
        let apps = try Row.fetchAll(
            db, sql: "SELECT app_id, created_ts_utc_ms FROM distracting_app WHERE user_id = ? ORDER BY app_id", arguments: [u]
        ).map { row in
            let r = RowReader(row, "distracting_app")
            return (app: try r.appID("app_id"), at: try r.int64("created_ts_utc_ms"))
        }
        let settings = try Row.fetchOne(db, sql: "SELECT * FROM user_settings WHERE user_id = ?", arguments: [u])
            .map { try EarnedRows.userSettings($0).settings }
        let modes = try snapshot.all(
            "SELECT * FROM mode WHERE user_id = ? ORDER BY created_ts_utc_ms, mode_id", [u], EarnedRows.mode)
        let windows = try snapshot.all(
            "SELECT w.* FROM mode m JOIN mode_window w ON w.mode_id = m.mode_id WHERE m.user_id = ? ORDER BY w.window_id", [u],
            EarnedRows.modeWindow)
        /// The apps of each of the user's `owners` (modes, focus sessions), by the owner's id.
        func blocked(by owners: String, key: String, in table: String) throws -> [String: [AppID]] {
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT b.\(key), b.app_id FROM \(owners) o JOIN \(table) b ON b.\(key) = o.\(key)
                    WHERE o.user_id = ? ORDER BY b.\(key), b.app_id
                    """, arguments: [u]
            ).map { row in
                let r = RowReader(row, table)
                return (try r.string(key), try r.appID("app_id"))
            }
            return Dictionary(grouping: rows, by: \.0).mapValues { $0.map(\.1) }
        }
        let quests = try snapshot.all(
            """
            SELECT q.* FROM unlock_attempt a JOIN quest_session q ON q.attempt_id = a.attempt_id
            WHERE a.user_id = ? ORDER BY q.created_ts_utc_ms, q.quest_session_id
            """, [u], UnlockRows.questSession)
        var failures: [String: QuestFailureReason] = [:]
        for entry in try snapshot.all(
            "SELECT * FROM event_log WHERE user_id = ? AND type = 'QUEST_FAILED' ORDER BY ts_utc_ms, rowid", [u],
            UnlockRows.event)
        {
            if case .questFailed(let failed) = entry.payload { failures[failed.questSessionID] = failed.reason }
        }
        return StoredEarned(
            distractingApps: apps, settings: settings, modes: modes,
            windows: Dictionary(grouping: windows, by: \.modeID),
            blockedApps: try blocked(by: "mode", key: "mode_id", in: "mode_blocked_app"),
            habits: try snapshot.all(
                "SELECT * FROM habit WHERE user_id = ? ORDER BY created_ts_utc_ms, sort_order, habit_id", [u], EarnedRows.habit),
            completions: try snapshot.all(
                "SELECT * FROM habit_completion WHERE user_id = ? ORDER BY ts_utc_ms, completion_id", [u],
                EarnedRows.habitCompletion),
            focusSessions: try snapshot.all(
                "SELECT * FROM focus_session WHERE user_id = ? ORDER BY started_ts_utc_ms, session_id", [u],
                EarnedRows.focusSession),
            focusBlockedApps: try blocked(by: "focus_session", key: "session_id", in: "focus_session_blocked_app"),
            attempts: try snapshot.all(
                "SELECT * FROM unlock_attempt WHERE user_id = ? ORDER BY ts_utc_ms, attempt_id", [u], UnlockRows.attempt),
            quests: Dictionary(quests.map { ($0.attemptID, $0) }, uniquingKeysWith: { first, _ in first }),
            questFailures: failures)
    }
}

import Foundation
import GRDB
import RulesModel

/// Verifies every invariant of the seeds on a database and reports each violation, without
/// stopping at the first. SQL constraints already refuse most bad rows; this also covers what
/// SQL cannot (A5.3's grant existence, A5.5's AppId prefixes, same-user references, model rules
/// such as the 280-character commitment) and rows written by other programs.
package enum InvariantChecker {
    /// All violations found, in a stable order (empty for a sound database).
    package static func checkInvariants(_ db: Database) throws -> [InvariantViolation] {
        var found: [InvariantViolation] = []
        try checkMeta(db, &found)
        try checkForeignKeys(db, &found)
        try checkSingletons(db, &found)
        try checkEarnedRelations(db, &found)
        try checkEarnedLedger(db, &found)
        try checkAppIDs(db, &found)
        try checkSameUser(db, &found)
        try checkRows(db, &found)
        return found
    }

    static func add(
        _ found: inout [InvariantViolation], _ db: Database, _ invariant: String, _ table: String, _ sql: String,
        _ message: (Row) -> String
    ) throws {
        for row in try Row.fetchAll(cached: db, sql: sql) {
            let key = row.columnNames.filter { $0 != "detail" }.map { name -> String in "\(name)=\(text(row[name]))" }.joined(
                separator: ",")
            found.append(InvariantViolation(invariant: invariant, table: table, key: key, message: message(row)))
        }
    }

    /// A key value as written in a violation: text unquoted, 16-byte blobs as UUIDs.
    static func text(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .string(let string): return string
        case .blob(let data) where data.count == 16:
            return data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }.uuidString
        default: return value.description
        }
    }

    static func checkMeta(_ db: Database, _ found: inout [InvariantViolation]) throws {
        for key in ["schema_version", "rulesrun_migration", "device_id", "db_location"]
        where try String.fetchOne(cached: db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]) == nil {
            found.append(InvariantViolation(invariant: "meta", table: "meta", key: "key=\(key)", message: "required meta key is missing"))
        }
        if let version = try String.fetchOne(cached: db, sql: "SELECT value FROM meta WHERE key = 'schema_version'"),
            version != String(Migrations.earnedSchemaVersion)
        {
            found.append(
                InvariantViolation(
                    invariant: "meta", table: "meta", key: "key=schema_version",
                    message:
                        "schema_version is the Earned schema version (A3): must be \"\(Migrations.earnedSchemaVersion)\", found \"\(version)\""
                ))
        }
        if let location = try String.fetchOne(cached: db, sql: "SELECT value FROM meta WHERE key = 'db_location'"),
            !["app_sandbox", "app_group"].contains(location)
        {
            found.append(
                InvariantViolation(
                    invariant: "meta", table: "meta", key: "key=db_location",
                    message: "db_location must be app_sandbox or app_group, found \"\(location)\""))
        }
    }

    static func checkForeignKeys(_ db: Database, _ found: inout [InvariantViolation]) throws {
        for row in try Row.fetchAll(cached: db, sql: "PRAGMA foreign_key_check") {
            let table: String = row[0]
            let rowid = row[1] as DatabaseValue
            let parent: String = row[2]
            found.append(
                InvariantViolation(
                    invariant: "foreign_key", table: table, key: "rowid=\(text(rowid))",
                    message: "references a missing row of \(parent)"))
        }
    }

    static let singletonTables = [
        "economy_state", "user_settings", "entitlement_state", "emergency_state", "focus_state",
        "pressure_settings", "pressure_escalation_state", "tracker_settings", "miga_settings",
    ]

    static func checkSingletons(_ db: Database, _ found: inout [InvariantViolation]) throws {
        for table in singletonTables {
            try add(
                &found, db, "A5.1", table,
                "SELECT user_id FROM app_user WHERE user_id NOT IN (SELECT user_id FROM \(table)) ORDER BY user_id"
            ) { _ in
                "the user's singleton row is missing"
            }
        }
        try add(
            &found, db, "habit_tracker", "tracker_category",
            """
            SELECT user_id FROM app_user u WHERE (SELECT COUNT(*) FROM tracker_category c WHERE c.user_id = u.user_id AND c.is_preset = 1) <> 4
            ORDER BY user_id
            """
        ) { _ in "a user must keep the four preset categories" }
    }

    static func checkEarnedRelations(_ db: Database, _ found: inout [InvariantViolation]) throws {
        try add(
            &found, db, "A5.2", "unlock_grant_current",
            """
            SELECT c.user_id, c.app_id, c.grant_id FROM unlock_grant_current c JOIN unlock_grant g ON g.grant_id = c.grant_id
            WHERE g.app_id <> c.app_id OR g.user_id <> c.user_id ORDER BY c.user_id, c.app_id
            """
        ) { _ in "the current grant is for another app or user" }
        try add(
            &found, db, "A5.3", "unlock_attempt",
            """
            SELECT attempt_id FROM unlock_attempt a WHERE outcome = 'GRANTED'
              AND (grant_id IS NULL OR NOT EXISTS (SELECT 1 FROM unlock_grant g WHERE g.grant_id = a.grant_id)) ORDER BY attempt_id
            """
        ) { _ in "a GRANTED attempt must reference an existing unlock_grant" }
        try add(
            &found, db, "A5.3", "unlock_attempt",
            """
            SELECT a.attempt_id FROM unlock_attempt a JOIN unlock_grant g ON g.grant_id = a.grant_id
            WHERE g.app_id <> a.app_id OR g.user_id <> a.user_id ORDER BY a.attempt_id
            """
        ) { _ in "the attempt's grant is for another app or user" }
        try add(
            &found, db, "A5.4", "habit_completion",
            """
            SELECT habit_id, day_id, COUNT(*) AS detail FROM habit_completion GROUP BY habit_id, day_id HAVING COUNT(*) > 1 ORDER BY habit_id, day_id
            """
        ) { row in "\(row["detail"] as Int64? ?? 0) completions of one habit on one day" }
        try add(
            &found, db, "focus_state", "focus_state",
            """
            SELECT f.user_id, f.active_session_id FROM focus_state f JOIN focus_session s ON s.session_id = f.active_session_id
            WHERE s.ended_ts_utc_ms IS NOT NULL OR s.user_id <> f.user_id ORDER BY f.user_id
            """
        ) { _ in "the active session must be an open session of the same user" }
        try add(
            &found, db, "focus_state", "focus_session",
            """
            SELECT s.session_id FROM focus_session s LEFT JOIN focus_state f ON f.user_id = s.user_id
            WHERE s.ended_ts_utc_ms IS NULL AND f.active_session_id IS NOT s.session_id ORDER BY s.session_id
            """
        ) { _ in "an open focus session must be the user's active session" }
        try add(
            &found, db, "economy_today", "economy_state",
            """
            SELECT e.user_id FROM economy_state e LEFT JOIN day_summary d ON d.user_id = e.user_id AND d.day_id = e.current_day_id
            WHERE e.today_qualified <> COALESCE(d.qualified, 0) ORDER BY e.user_id
            """
        ) { _ in "today_qualified disagrees with the current day's day_summary.qualified" }
        try add(
            &found, db, "habit_tracker", "tracker_completion",
            """
            SELECT c.completion_id FROM tracker_completion c JOIN tracker_task t ON t.task_key = c.task_key
            WHERE t.goal_type = 'none' AND c.value IS NOT NULL ORDER BY c.completion_id
            """
        ) { _ in "a completion of a task whose goalType is none has no value" }
    }

    /// Earned's counters agree with what happened: each `day_summary` with its day's `event_log`
    /// (A6: both are written in the same transaction), and each `daily_app_limits` count with the
    /// quests COMPLETED that day for the app (failed, cancelled and expired quests never count).
    ///
    /// Only days whose rows are still whole are checked, since A8's cleanup prunes `event_log` and
    /// the quests while `day_summary` and `daily_app_limits` stay. A day is whole when it comes
    /// after the day following both (a) the last store-wide cleanup
    /// (`meta.last_retention_cleanup_ts_utc_ms`, ``Store/applyRetention(now:policy:)``) and (b)
    /// for a user the engine cleaned up, the instant from which its pruned tables are whole (the
    /// latest cutoff of its cleanups, `engine_state.state_json` `$.earned.cleanup.wholeFrom`). The
    /// day after is skipped too, since a local day may start before its UTC date. So, with the
    /// default 30 days, the last 28 or 29 days of a user cleaned up by the engine are checked.
    static func checkEarnedLedger(_ db: Database, _ found: inout [InvariantViolation]) throws {
        func kept(_ user: String) -> String {
            """
            max((SELECT COALESCE(date(CAST(value AS INTEGER) / 1000, 'unixepoch', '+1 day'), '0000-00-00')
                  FROM meta WHERE key = 'last_retention_cleanup_ts_utc_ms' UNION ALL SELECT '0000-00-00' LIMIT 1),
                COALESCE((SELECT date(CAST(json_extract(e.state_json, '$.earned.cleanup.wholeFrom') AS INTEGER) / 1000, 'unixepoch', '+1 day')
                  FROM engine_state e WHERE e.user_id = \(user)), '0000-00-00'))
            """
        }
        try add(
            &found, db, "day_summary_log", "day_summary",
            """
            WITH logged AS (
              SELECT user_id, day_id,
                SUM(type = 'UNLOCK_ATTEMPT_CREATED') AS attempts, SUM(type = 'CREDITS_SPENT') AS credit_unlocks,
                SUM(type = 'QUEST_COMPLETED') AS quest_unlocks, SUM(type = 'EMERGENCY_USED') AS emergencies,
                SUM(CASE WHEN type = 'CREDITS_SPENT' THEN json_extract(payload_json, '$.amount') ELSE 0 END) AS spent,
                SUM(CASE WHEN type = 'CREDITS_EARNED' THEN json_extract(payload_json, '$.amount') ELSE 0 END) AS earned
              FROM event_log GROUP BY user_id, day_id)
            SELECT d.user_id, d.day_id,
              printf('summary attempts %d, credit unlocks %d, quest unlocks %d, emergencies %d, spent %d, earned %d; log %d, %d, %d, %d, %d, %d',
                d.unlock_attempts_count, d.credits_unlocks_count, d.quest_unlocks_count, d.emergency_unlocks_count, d.credits_spent,
                d.credits_earned, COALESCE(l.attempts, 0), COALESCE(l.credit_unlocks, 0), COALESCE(l.quest_unlocks, 0),
                COALESCE(l.emergencies, 0), COALESCE(l.spent, 0), COALESCE(l.earned, 0)) AS detail
            FROM day_summary d LEFT JOIN logged l ON l.user_id = d.user_id AND l.day_id = d.day_id
            WHERE d.day_id > \(kept("d.user_id")) AND (d.unlock_attempts_count <> COALESCE(l.attempts, 0) OR d.credits_unlocks_count <> COALESCE(l.credit_unlocks, 0)
              OR d.quest_unlocks_count <> COALESCE(l.quest_unlocks, 0) OR d.emergency_unlocks_count <> COALESCE(l.emergencies, 0)
              OR d.credits_spent <> COALESCE(l.spent, 0) OR d.credits_earned <> COALESCE(l.earned, 0))
            ORDER BY d.user_id, d.day_id
            """
        ) { row in "day_summary disagrees with event_log: \(row["detail"] as String? ?? "")" }
        try add(
            &found, db, "quest_limits", "daily_app_limits",
            """
            SELECT l.user_id, l.day_id, l.app_id, l.quest_grants_count AS detail FROM daily_app_limits l
            WHERE l.day_id > \(kept("l.user_id")) AND l.quest_grants_count <> (SELECT COUNT(*) FROM quest_session q JOIN unlock_attempt a ON a.attempt_id = q.attempt_id
              WHERE a.user_id = l.user_id AND a.day_id = l.day_id AND a.app_id = l.app_id AND q.state = 'COMPLETED')
            ORDER BY l.user_id, l.day_id, l.app_id
            """
        ) { row in "quest_grants_count \(row["detail"] as Int64? ?? 0) differs from the quests COMPLETED for the app that day" }
    }

    /// A5.5: every AppId column holds `android:…` or `iosToken:…` (GLOB is case-sensitive).
    static func checkAppIDs(_ db: Database, _ found: inout [InvariantViolation]) throws {
        let columns: [(String, String, String)] = [
            ("app_info", "app_id", "user_id, app_id"), ("distracting_app", "app_id", "user_id, app_id"),
            ("mode_blocked_app", "app_id", "mode_id, app_id"), ("focus_session_blocked_app", "app_id", "session_id, app_id"),
            ("unlock_attempt", "app_id", "attempt_id"), ("unlock_grant", "app_id", "grant_id"),
            ("unlock_grant_current", "app_id", "user_id, app_id"), ("daily_app_limits", "app_id", "user_id, day_id, app_id"),
            ("emergency_state", "last_app_id_used", "user_id"),
        ]
        for (table, column, key) in columns {
            try add(
                &found, db, "A5.5", table,
                """
                SELECT \(key) FROM \(table) WHERE \(column) IS NOT NULL
                  AND NOT (\(column) GLOB 'android:?*' OR \(column) GLOB 'iosToken:?*') ORDER BY \(key)
                """
            ) { _ in "\(column) must start with android: or iosToken:" }
        }
        try add(
            &found, db, "A5.5", "app_info",
            """
            SELECT user_id, app_id FROM app_info WHERE platform <> CASE WHEN app_id GLOB 'android:*' THEN 'android' ELSE 'ios' END
            ORDER BY user_id, app_id
            """
        ) { _ in "platform does not match the AppId prefix" }
    }

    /// A child row belongs to the same user as the row it references.
    static func checkSameUser(_ db: Database, _ found: inout [InvariantViolation]) throws {
        let pairs: [(String, String, String, String, String)] = [
            ("mode_window", "window_id", "mode", "mode_id", "mode_id"),
            ("mode_blocked_app", "mode_id, c.app_id", "mode", "mode_id", "mode_id"),
            ("habit_completion", "completion_id", "habit", "habit_id", "habit_id"),
            ("focus_session_blocked_app", "session_id, c.app_id", "focus_session", "session_id", "session_id"),
            ("unlock_attempt", "attempt_id", "mode", "effective_mode_id", "mode_id"),
            ("unlock_grant", "grant_id", "unlock_attempt", "source_attempt_id", "attempt_id"),
            ("unlock_grant", "grant_id", "mode", "source_mode_id", "mode_id"),
            ("unlock_grant_extension", "extension_id", "unlock_grant", "grant_id", "grant_id"),
            ("quest_session", "quest_session_id", "unlock_attempt", "attempt_id", "attempt_id"),
            ("tracker_task", "task_key", "tracker_category", "category_id", "category_id"),
            ("tracker_completion", "completion_id", "tracker_task", "task_key", "task_key"),
            ("tracker_day_mark", "mark_id", "tracker_task", "task_key", "task_key"),
        ]
        for (child, key, parent, column, parentColumn) in pairs {
            try add(
                &found, db, "same_user", child,
                """
                SELECT c.\(key) FROM \(child) c JOIN \(parent) p ON p.\(parentColumn) = c.\(column) WHERE p.user_id <> c.user_id ORDER BY c.\(key)
                """
            ) { _ in "references a \(parent) row of another user" }
        }
    }

    /// Every row reads back as a valid model value.
    static func checkRows(_ db: Database, _ found: inout [InvariantViolation]) throws {
        func each(_ table: String, _ key: String, _ decode: (Row) throws -> any Validatable) throws {
            for row in try Row.fetchAll(cached: db, sql: "SELECT * FROM \(table) ORDER BY \(key)") {
                do { try decode(row).validate() } catch {
                    let keyText = key.split(separator: ",").map { k -> String in
                        let name = k.trimmingCharacters(in: .whitespaces)
                        return "\(name)=\(text(row[name]))"
                    }.joined(separator: ",")
                    found.append(InvariantViolation(invariant: "valid_row", table: table, key: keyText, message: String(describing: error)))
                }
            }
        }
        try each("economy_state", "user_id", EarnedRows.economy)
        try each("emergency_state", "user_id", EarnedRows.emergency)
        try each("entitlement_state", "user_id", EarnedRows.entitlement)
        try each("user_settings", "user_id", EarnedRows.userSettings)
        try each("focus_state", "user_id", EarnedRows.focusState)
        try each("day_summary", "user_id, day_id", EarnedRows.daySummary)
        try each("mode", "mode_id", EarnedRows.mode)
        try each("mode_window", "window_id", EarnedRows.modeWindow)
        try each("habit", "habit_id", EarnedRows.habit)
        try each("habit_completion", "completion_id", EarnedRows.habitCompletion)
        try each("focus_session", "session_id", EarnedRows.focusSession)
        try each("unlock_attempt", "attempt_id", UnlockRows.attempt)
        try each("unlock_grant", "grant_id", UnlockRows.grant)
        try each("unlock_grant_extension", "extension_id", UnlockRows.grantExtension)
        try each("quest_session", "quest_session_id", UnlockRows.questSession)
        try each("daily_app_limits", "user_id, day_id, app_id", UnlockRows.dailyAppLimits)
        try each("event_log", "event_id", UnlockRows.event)
        try each("pressure_settings", "user_id", PressureRows.settings)
        try each("pressure_escalation_state", "user_id", PressureRows.escalation)
        try each("pressure_commitment", "user_id, day_id", PressureRows.commitment)
        try each("pressure_notification", "notification_id", PressureRows.notification)
        try each("tracker_settings", "user_id", TrackerRows.settings)
        try each("tracker_category", "category_id", TrackerRows.category)
        try each("tracker_task", "task_key", TrackerRows.task)
        try each("miga_settings", "user_id", MigaRows.settings)
        try each("miga_selected_app", "app_uuid", MigaRows.selectedApp)
        try each("miga_usage_event", "event_uuid", MigaRows.usageEvent)
        for row in try Row.fetchAll(cached: db, sql: "SELECT \(TrackerRows.completionColumns) ORDER BY c.completion_id") {
            do { try TrackerRows.completion(row).validate() } catch {
                found.append(
                    InvariantViolation(
                        invariant: "valid_row", table: "tracker_completion",
                        key: "completion_id=\(text(row["completion_id"]))", message: String(describing: error)))
            }
        }
        for row in try Row.fetchAll(cached: db, sql: "SELECT m.mark_id, \(TrackerRows.dayMarkColumns) ORDER BY m.mark_id") {
            do { try TrackerRows.dayMark(row).validate() } catch {
                found.append(
                    InvariantViolation(
                        invariant: "valid_row", table: "tracker_day_mark",
                        key: "mark_id=\(text(row["mark_id"]))", message: String(describing: error)))
            }
        }
    }
}

import GRDB
import RulesModel

/// One user's Earned rows, taken out of a store as they are (table by table, in insertion order)
/// to be written into another: how a simulation's recording batch keeps Earned's rows. Earned's
/// operations (the A6 transactions: grants, attempts, quests, the economy, day summaries, the
/// event log) run on the worker's in-memory store, the one implementation there is; when the user's
/// batch ends, its rows move into its ``UserRecords`` and the writer inserts them.
public struct EarnedTableRows: Sendable {
    /// Earned's tables in an order their foreign keys allow. The first five are the singletons
    /// ``NewUser`` writes: these rows replace them.
    static let tables = ["entitlement_state", "user_settings", "economy_state", "emergency_state", "app_info", "distracting_app",
                         "day_summary", "mode", "mode_window", "mode_blocked_app", "habit", "habit_completion", "focus_session",
                         "focus_session_blocked_app", "focus_state", "unlock_attempt", "unlock_grant", "unlock_grant_current",
                         "unlock_grant_extension", "quest_session", "daily_app_limits", "event_log"]
    static let singletons: Set<String> = ["entitlement_state", "user_settings", "economy_state", "emergency_state", "focus_state"]

    /// Rows by table, each row its column values in the table's column order.
    var rows: [(table: String, rows: [[DatabaseValue]])]

    /// Inserts the rows (the singletons replace what the user's ``NewUser`` rows wrote).
    func insert(_ db: Database) throws {
        for (table, rows) in self.rows where !rows.isEmpty {
            let marks = Array(repeating: "?", count: rows[0].count).joined(separator: ", ")
            let verb = Self.singletons.contains(table) ? "INSERT OR REPLACE" : "INSERT"
            let statement = try db.cachedStatement(sql: "\(verb) INTO \(table.quotedDatabaseIdentifier) VALUES (\(marks))")
            for row in rows { try statement.execute(arguments: StatementArguments(row)) }
        }
    }
}

extension Store {
    /// Whether the store holds the user.
    public func hasUser(_ userID: UserID) throws -> Bool {
        try read { try Self.userExists($0.db, userID) }
    }

    /// Adds a user for Earned's operations only: its row and the singletons, without the habit
    /// tracker's preset categories (which cannot be deleted), so that ``takeEarnedRows(of:)`` can
    /// remove it again.
    public func addEarnedUser(_ userID: UserID, day: DayID, timezoneID: String, now: EpochMillis) throws {
        let earned = EarnedSettings.defaults(timezoneID: timezoneID)
        try earned.validate()
        let json = try ModelJSON.encode(earned)
        try write { db in
            let u = userID.rawValue
            try db.execute(cached: "INSERT INTO app_user(user_id, created_ts_utc_ms) VALUES (?, ?)", arguments: [u, now])
            try db.execute(cached: "INSERT INTO entitlement_state(user_id, updated_ts_utc_ms) VALUES (?, ?)", arguments: [u, now])
            try db.execute(cached: "INSERT INTO user_settings(user_id, settings_json, updated_ts_utc_ms) VALUES (?, ?, ?)", arguments: [u, json, now])
            try db.execute(cached: "INSERT INTO economy_state(user_id, current_day_id, updated_ts_utc_ms) VALUES (?, ?, ?)", arguments: [u, day.rawValue, now])
            try db.execute(cached: "INSERT INTO emergency_state(user_id, updated_ts_utc_ms) VALUES (?, ?)", arguments: [u, now])
            try db.execute(cached: "INSERT INTO focus_state(user_id, updated_ts_utc_ms) VALUES (?, ?)", arguments: [u, now])
        }
    }

    /// Takes the user's Earned rows out of the store and deletes the user and all its rows, in one
    /// transaction.
    public func takeEarnedRows(of userID: UserID) throws -> EarnedTableRows {
        try write { db in
            let u = userID.rawValue
            var taken: [(String, [[DatabaseValue]])] = []
            for table in EarnedTableRows.tables {
                let rows = try Row.fetchAll(cached: db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) WHERE user_id = ? ORDER BY rowid", arguments: [u])
                taken.append((table, rows.map { Array($0.databaseValues) }))
            }
            try db.execute(cached: "PRAGMA defer_foreign_keys = ON")
            let tables = try String.fetchAll(cached: db, sql: """
                SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
                  AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'user_id') ORDER BY m.name
                """)
            for table in tables where table != "app_user" {
                try db.execute(cached: "DELETE FROM \(table.quotedDatabaseIdentifier) WHERE user_id = ?", arguments: [u])
            }
            try db.execute(cached: "DELETE FROM app_user WHERE user_id = ?", arguments: [u])
            return EarnedTableRows(rows: taken)
        }
    }
}

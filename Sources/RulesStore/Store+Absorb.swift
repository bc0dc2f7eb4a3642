import GRDB

extension Store {
    /// Copies every row of the database file at `path` (written by this program, same schema
    /// version, none of its users in this one) into this database, in one transaction; `meta` is
    /// not copied (nor GRDB's migration log). The integer keys SQLite assigns (`tracker_task.task_key`,
    /// `tracker_completion.completion_id`) are renumbered in (user, original key) order, so the
    /// result depends only on the rows, not on which part held them. Used by simulations: each
    /// worker runs in its own database and a single writer absorbs the parts in user order.
    public func absorb(databaseAt path: String) throws {
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS part", arguments: [path])
            defer { try? db.execute(sql: "DETACH DATABASE part") }
            let partVersion = try String.fetchOne(db, sql: "SELECT value FROM part.meta WHERE key = 'schema_version'")
            let ownVersion = try String.fetchOne(db, sql: "SELECT value FROM main.meta WHERE key = 'schema_version'")
            guard partVersion == ownVersion else {
                throw StoreError(.constraint, "\(path) has schema version \(partVersion ?? "none"), this database \(ownVersion ?? "none")")
            }
            try db.inTransaction {
                try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                let tables = try String.fetchAll(db, sql: """
                    SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('meta', 'grdb_migrations') ORDER BY name
                    """)
                // Completions refer to tasks by their new keys: tasks first.
                for table in tables.filter({ $0 != "tracker_completion" }) + ["tracker_completion"] {
                    let quoted = table.quotedDatabaseIdentifier
                    switch table {
                    case "tracker_task":
                        let columns = try db.columns(in: table).map(\.name).filter { $0 != "task_key" }
                            .map(\.quotedDatabaseIdentifier).joined(separator: ", ")
                        try db.execute(sql: "INSERT INTO main.tracker_task(\(columns)) SELECT \(columns) FROM part.tracker_task ORDER BY user_id, task_key")
                    case "tracker_completion":
                        try db.execute(sql: """
                            INSERT INTO main.tracker_completion(user_id, task_key, completed_at_ts_utc_ms, value)
                            SELECT c.user_id, m.task_key, c.completed_at_ts_utc_ms, c.value
                            FROM part.tracker_completion c
                            JOIN part.tracker_task t ON t.task_key = c.task_key
                            JOIN main.tracker_task m ON m.task_id = t.task_id
                            ORDER BY c.user_id, c.completion_id
                            """)
                    default:
                        try db.execute(sql: "INSERT INTO main.\(quoted) SELECT * FROM part.\(quoted)")
                    }
                }
                return .commit
            }
        }
    }
}

import GRDB

/// Schema version 2: the rules engine's own bookkeeping per user.
///
/// `engine_state` holds, per user, the name events use for it (`u1`), the instant up to which
/// time has been applied (deadlines, window closes, reminders, month starts), and the engine's
/// state for the current day as JSON (today's schedule, a pending restart shield). The engine
/// writes it in the same transaction as the effects it records.
enum SchemaV2 {
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE engine_state (
                  user_id INTEGER PRIMARY KEY REFERENCES app_user(user_id) ON DELETE CASCADE,
                  name TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 200),
                  processed_until_ts_utc_ms INTEGER NOT NULL CHECK (processed_until_ts_utc_ms >= 0),
                  state_json TEXT NOT NULL CHECK (json_valid(state_json))
                ) STRICT;
                """)
    }
}

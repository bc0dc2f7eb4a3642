import GRDB

/// Version 1 of the schema: Earned's DDL (earned-data-model-v1.1.md A3) with a user key, and
/// tables for Pressure, the habit tracker and MIGA in the same spirit.
///
/// Decisions (also in docs/seeds.md):
/// - One file holds a cohort: `app_user` lists the users; every per-user table has `user_id`
///   referencing it. Earned's singletons (`CHECK (id = 1)`) become one row per user, keyed by
///   `user_id`. Earned's text ids (`mode_id`, `attempt_id`, …) stay primary keys unique in the
///   file; natural keys (`day_id`, `app_id`) are scoped by `user_id`. That a child row belongs to
///   the same user as its parent is verified by ``InvariantChecker``.
/// - Tables are `STRICT` (SQLite ≥ 3.37): a value of the wrong type is refused.
/// - Enum columns and ranges carry CHECK constraints with the seeds' exact strings (a list of
///   three or more written as comparisons joined by OR, ``oneOf(_:_:)``); `day_id` columns a
///   `YYYY-MM-DD` GLOB; JSON columns `json_valid`. A5.5's AppId prefixes stay a domain
///   rule, as the seed says, checked by the model and by ``InvariantChecker``.
/// - The other apps' UUIDs are 16-byte BLOBs and the habit tracker's completions are keyed by
///   integers, to stay within the seeds' size estimates (200 KB per Pressure user-year, 1 MB per
///   habit-tracker user-year).
enum SchemaV1 {
    static func create(_ db: Database) throws {
        try db.execute(sql: core)
        try db.execute(sql: earnedState)
        try db.execute(sql: earnedModesAndHabits)
        try db.execute(sql: earnedUnlocks)
        try db.execute(sql: pressure)
        try db.execute(sql: habitTracker)
        try db.execute(sql: miga)
    }

    /// A CHECK that a column holds `YYYY-MM-DD`.
    static func day(_ column: String) -> String {
        "\(column) GLOB '[12][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]'"
    }

    /// A CHECK that a column holds one of `values` (or is NULL), written `c = 'A' OR c = 'B' …`
    /// rather than the seeds' `c IN ('A','B',…)`: the same constraint, but SQLite (3.40) builds
    /// a temporary table for an IN list of three or more constants each time a statement runs,
    /// which cost 4 µs per inserted row and list — a third of a simulation's database time.
    static func oneOf(_ column: String, _ values: String...) -> String {
        values.map { "\(column) = '\($0)'" }.joined(separator: " OR ")
    }

    static let core = """
        CREATE TABLE meta (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL
        ) STRICT;

        CREATE TABLE app_user (
          user_id INTEGER PRIMARY KEY CHECK (user_id >= 1),
          created_ts_utc_ms INTEGER NOT NULL CHECK (created_ts_utc_ms >= 0)
        ) STRICT;
        """
}

import GRDB
import RulesModel

/// The rules engine's bookkeeping per user (see `SchemaV2`).
package struct EngineStateRow: Hashable, Sendable {
    package var userID: UserID
    package var name: String
    package var processedUntil: EpochMillis
    package var stateJSON: String

    package init(userID: UserID, name: String, processedUntil: EpochMillis, stateJSON: String) {
        self.userID = userID
        self.name = name
        self.processedUntil = processedUntil
        self.stateJSON = stateJSON
    }
}

extension Store {
    /// Inserts or replaces a user's engine state (the user must exist).
    package func saveEngineState(_ row: EngineStateRow) throws {
        try EngineStateRow.check(row)
        try write { db in
            try Self.requireUser(db, row.userID)
            try Self.upsert(row, db)
        }
    }

    /// The row ``saveEngineState(_:)`` writes.
    static func upsert(_ row: EngineStateRow, _ db: Database) throws {
        try db.execute(cached: EngineStateRow.upsertSQL, arguments: row.arguments)
    }
}

extension EngineStateRow {
    static func check(_ row: EngineStateRow) throws {
        try Millis.check(row.processedUntil, entity: "EngineState", field: "processed_until_ts_utc_ms")
    }

    static let insertSQL = "INSERT INTO engine_state(user_id, name, processed_until_ts_utc_ms, state_json) VALUES (?, ?, ?, ?)"

    static let upsertSQL =
        insertSQL + """
             ON CONFLICT(user_id) DO UPDATE SET name = excluded.name,
              processed_until_ts_utc_ms = excluded.processed_until_ts_utc_ms, state_json = excluded.state_json
            """

    var arguments: StatementArguments { ArgumentValues.of { values(into: &$0) } }

    func values<V: RowValues>(into v: inout V) {
        v.add(userID.rawValue); v.add(name); v.add(processedUntil); v.add(stateJSON)
    }
}

extension Snapshot {
    /// The engine state of the user named `name`, if there is one.
    package func engineState(named name: String) throws -> EngineStateRow? {
        try Row.fetchOne(cached: db, sql: "SELECT * FROM engine_state WHERE name = ?", arguments: [name]).map(Self.engineRow)
    }

    /// The engine state of a user, if there is one.
    package func engineState(_ userID: UserID) throws -> EngineStateRow? {
        try Row.fetchOne(cached: db, sql: "SELECT * FROM engine_state WHERE user_id = ?", arguments: [userID.rawValue]).map(Self.engineRow)
    }

    /// The next free user id (1 for an empty database).
    package func nextUserID() throws -> UserID {
        let max = try Int64.fetchOne(cached: db, sql: "SELECT MAX(user_id) FROM app_user") ?? 0
        return UserID(max + 1)
    }

    private static func engineRow(_ row: Row) -> EngineStateRow {
        EngineStateRow(
            userID: UserID(row["user_id"] as Int64), name: row["name"], processedUntil: row["processed_until_ts_utc_ms"],
            stateJSON: row["state_json"])
    }
}

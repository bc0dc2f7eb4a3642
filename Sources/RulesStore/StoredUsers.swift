import Foundation
import GRDB
import RulesModel

/// The users of a database of rulesrun (what `simulate --db`, `replay --db` and an app's
/// `Engine(store:)` write), read one at a time with the rows their events left: what
/// `DatabaseLog` (RulesSim) turns back into events. The file is read and never changed
/// (``InputDatabase``: read-only, nothing made beside it), checked before any row is read (a
/// database of this program at this program's migration level, with its schema:
/// ``Store/checkSchema(_:path:schema:expected:)``), and walked in the order of the users' ids, a page of
/// ids at a time: one user's rows are in memory at once, whatever the number of users.
package final class StoredUsers {
    /// The path as given, for messages.
    package let path: String
    private let input: InputDatabase
    private let queue: DatabaseQueue
    /// The last user id read (0 before the first).
    private var after: Int64 = 0
    private var page: [Int64] = []
    /// What the file must be, said when it is not.
    static let expected = "expected a database of rulesrun (simulate --db, replay --db, or an app's Engine(store:))"
    /// User ids read per query.
    static let pageSize = 512

    /// One user and its rows, each table's in the order of its times.
    package struct User: Sendable {
        package var id: UserID
        /// The name events use for it (`engine_state.name`); nil: the user has no `engine_state` row.
        package var name: String?
        package var createdAt: EpochMillis
        /// The instant up to which the engine had applied time (the user's last event), and its
        /// bookkeeping as JSON (nil without an `engine_state` row).
        package var processedUntil: EpochMillis?
        package var stateJSON: String?
        package var settings: UserSettings
        /// When `pressure_settings` last changed.
        package var settingsUpdatedAt: EpochMillis
        package var commitments: [Commitment]
        package var tasks: [HabitTask]
        package var completions: [TaskCompletion]
        package var marks: [DayMark]
        package var usage: [UsageEvent]
        package var exposures: [ExperimentExposure]
        /// Its Earned rows (every user has Earned's singleton rows: ``StoredEarned/isEmpty`` says
        /// whether an event made any other).
        package var earned: StoredEarned
    }

    /// Opens the database at `path` (`file`: the path to open, when it is relative to another folder
    /// than the process's) and checks it; `scratch`: where a copy goes when one must be read
    /// (``InputDatabase``). Throws ``StoreError`` naming the file and what was expected.
    package init(path: String, file: String? = nil, scratch: String) throws {
        self.path = path
        input = try InputDatabase(path: path, file: file, scratch: scratch, expected: Self.expected)
        let expected = Self.expected
        do {
            var configuration = Configuration()
            configuration.readonly = !input.isCopy
            queue = try DatabaseQueue(path: input.source, configuration: configuration)
            try queue.read { db in
                guard try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0 > 0 else {
                    throw StoreError(.notARulesDatabase, "\(path): an SQLite database without tables; \(expected)")
                }
                try Store.checkSchema(db, path: path, schema: try SchemaShape.current(), expected: expected)
            }
        } catch let error as StoreError {
            input.release()
            throw error
        } catch let error as DatabaseError {
            input.release()
            throw StoreError(
                .notARulesDatabase,
                "\(path): cannot be read as an SQLite database (\(error.message ?? "\(error.resultCode)")); \(expected)")
        }
    }

    deinit { close() }

    /// Closes the database (once).
    package func close() {
        try? queue.close()
        input.release()
    }

    /// The number of users, and the latest instant the engine had reached for any of them (the
    /// end of the log the database implies; nil when no user has an `engine_state` row).
    package func extent() throws -> (users: Int, end: EpochMillis?) {
        try reading {
            try queue.read { db in
                let users = try Int.fetchOne(db, sql: "SELECT count(*) FROM app_user") ?? 0
                let end = try Int64.fetchOne(db, sql: "SELECT max(processed_until_ts_utc_ms) FROM engine_state")
                return (users, end)
            }
        }
    }

    /// The next user, nil past the last. `wanted`: whether to read a user's rows, by its name (nil:
    /// it has no `engine_state` row); a user not wanted is skipped without reading them.
    package func next(wanted: (String?) -> Bool = { _ in true }) throws -> User? {
        try reading {
            while true {
                if page.isEmpty {
                    page = try queue.read { db in
                        try Int64.fetchAll(
                            db, sql: "SELECT user_id FROM app_user WHERE user_id > ? ORDER BY user_id LIMIT ?",
                            arguments: [after, Self.pageSize])
                    }
                    guard !page.isEmpty else { return nil }
                }
                let id = page.removeFirst()
                after = id
                if let user = try queue.read({ db in try Self.user(UserID(id), db, wanted: wanted) }) { return user }
            }
        }
    }

    /// Runs `body`, naming the file in what SQLite says of what it read.
    private func reading<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as DatabaseError {
            throw StoreError(
                .notARulesDatabase,
                "\(path): cannot be read (\(error.message ?? "\(error.resultCode)")); \(Self.expected)")
        } catch let error as StoreError {
            throw StoreError(error.code, "\(path): \(error.message)")
        }
    }

    private static func user(_ id: UserID, _ db: Database, wanted: (String?) -> Bool) throws -> User? {
        let u = id.rawValue
        let state = try Snapshot(db).engineState(id)
        guard wanted(state?.name) else { return nil }
        let created = try Int64.fetchOne(db, sql: "SELECT created_ts_utc_ms FROM app_user WHERE user_id = ?", arguments: [u]) ?? 0
        let snapshot = Snapshot(db)
        let updated = try Int64.fetchOne(
            db, sql: "SELECT updated_ts_utc_ms FROM pressure_settings WHERE user_id = ?", arguments: [u])
        return User(
            id: id, name: state?.name, createdAt: created, processedUntil: state?.processedUntil, stateJSON: state?.stateJSON,
            settings: try snapshot.pressureSettings(id), settingsUpdatedAt: updated ?? created,
            commitments: try snapshot.all(
                "SELECT * FROM pressure_commitment WHERE user_id = ? ORDER BY day_id", [u], PressureRows.commitment),
            tasks: try snapshot.all(
                "SELECT * FROM tracker_task WHERE user_id = ? ORDER BY created_ts_utc_ms, task_key", [u], TrackerRows.task),
            completions: try snapshot.all(
                "SELECT \(TrackerRows.completionColumns) WHERE t.user_id = ? ORDER BY c.completed_at_ts_utc_ms, c.completion_id",
                [u],
                TrackerRows.completion),
            marks: try snapshot.all(
                "SELECT \(TrackerRows.dayMarkColumns) WHERE t.user_id = ? ORDER BY m.created_ts_utc_ms, m.mark_id", [u],
                TrackerRows.dayMark),
            usage: try snapshot.all(
                "SELECT * FROM miga_usage_event WHERE user_id = ? ORDER BY ts_utc_ms, event_uuid", [u], MigaRows.usageEvent),
            exposures: try snapshot.exposures(id),
            earned: try StoredEarned.read(id, db))
    }
}

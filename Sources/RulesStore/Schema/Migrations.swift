import Foundation
import GRDB

/// The numbered migrations of the schema, and the guard against databases newer than the code.
///
/// Each migration is registered with `DatabaseMigrator` under a numbered identifier
/// (`0001_initial`, …) and records its number as `meta.rulesrun_migration` in the same
/// transaction. `meta.schema_version` keeps the meaning A3 gives it, the version of the Earned
/// schema ("1"). A database written before `rulesrun_migration` existed recorded its migration
/// level as `schema_version` ("2" or "3"): it is read as such, and rewritten on opening.
/// Opening a database whose migration level is higher than ``currentVersion``, whose Earned schema
/// version is higher than ``earnedSchemaVersion``, or whose `grdb_migrations` lists a migration
/// this code does not know, throws ``StoreError/Code-swift.struct/databaseTooNew`` before anything
/// is written to the file.
package enum Migrations {
    /// The migration level this code writes and understands (`meta.rulesrun_migration`).
    package static let currentVersion = 4
    /// The Earned schema version (`meta.schema_version`, earned-data-model-v1.1.md A3: "1").
    package static let earnedSchemaVersion = 1

    static let identifiers = ["0001_initial", "0002_engine_state", "0003_habit_marks", "0004_experiment_exposure"]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(identifiers[0]) { db in
            try SchemaV1.create(db)
            try setVersion(db, 1)
        }
        migrator.registerMigration(identifiers[1]) { db in
            try SchemaV2.create(db)
            try setVersion(db, 2)
        }
        migrator.registerMigration(identifiers[2]) { db in
            try SchemaV3.create(db)
            try setVersion(db, 3)
        }
        migrator.registerMigration(identifiers[3]) { db in
            try SchemaV4.create(db)
            try setVersion(db, 4)
        }
        return migrator
    }

    static func setVersion(_ db: Database, _ version: Int) throws {
        try setMeta(db, "rulesrun_migration", String(version))
    }

    static func setMeta(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(
            sql: "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            arguments: [key, value])
    }

    /// Migrates `writer` to ``currentVersion`` and fills the required `meta` keys (`device_id` and
    /// `db_location` are written when the database is created and kept afterwards).
    static func migrate(_ writer: any DatabaseWriter, options: StoreOptions) throws {
        try writer.read { db in try refuseIfTooNew(db, path: writer.path) }
        try migrator.migrate(writer)
        try writer.write { db in
            // A database of an earlier rulesrun held its migration level in schema_version.
            try setVersion(db, currentVersion)
            try setMeta(db, "schema_version", String(earnedSchemaVersion))
            let deviceID = options.deviceID ?? UUID().uuidString.lowercased()
            try db.execute(sql: "INSERT INTO meta(key, value) VALUES ('device_id', ?) ON CONFLICT(key) DO NOTHING", arguments: [deviceID])
            try db.execute(
                sql: "INSERT INTO meta(key, value) VALUES ('db_location', ?) ON CONFLICT(key) DO NOTHING",
                arguments: [options.location.rawValue])
        }
    }

    /// Opens the file with a plain connection that only reads, and throws if it is too new or
    /// not a database of this program. Nothing is written. (The connection may write when the
    /// file can be written, with `query_only` on, so that closing it removes the log and
    /// shared-memory files that reading a WAL database makes: a read-only one leaves them.)
    static func refuseIfTooNew(path: String) throws {
        var config = Configuration()
        config.readonly = access(path, W_OK) != 0
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = ON") }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: DatabaseFile.name(path), configuration: config)
        } catch let error as DatabaseError {
            throw StoreError(.notARulesDatabase, "cannot open \(path) as a SQLite database: \(error.message ?? "\(error)")")
        }
        defer { try? queue.close() }
        do {
            try queue.read { db in try refuseIfTooNew(db, path: path) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError(.notARulesDatabase, "\(path) is not a SQLite database (\(error.message ?? "file is not a database"))")
        }
    }

    static func refuseIfTooNew(_ db: Database, path: String) throws {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        if tables.isEmpty { return }  // a new, empty file
        guard tables.contains("meta") else {
            throw StoreError(
                .notARulesDatabase,
                "\(path) is a SQLite database but not one of rulesrun (no meta table; tables: \(tables.sorted().prefix(5).joined(separator: ", ")))"
            )
        }
        let version = try recordedVersion(db)
        if let version, version > currentVersion {
            throw StoreError(
                .databaseTooNew,
                "\(path) has rulesrun migration level \(version) (meta.rulesrun_migration), newer than the \(currentVersion) this program understands; it was left untouched — use a newer rulesrun"
            )
        }
        if try metaInt(db, "rulesrun_migration") != nil, let earned = try metaInt(db, "schema_version"), earned > earnedSchemaVersion {
            throw StoreError(
                .databaseTooNew,
                "\(path) has Earned schema version \(earned) (meta.schema_version), newer than the \(earnedSchemaVersion) this program understands; it was left untouched — use a newer rulesrun"
            )
        }
        if tables.contains("grdb_migrations") {
            let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            let unknown = applied.filter { !identifiers.contains($0) }
            if !unknown.isEmpty {
                throw StoreError(
                    .databaseTooNew,
                    "\(path) has migrations this program does not know (\(unknown.sorted().joined(separator: ", "))); it was left untouched — use a newer rulesrun"
                )
            }
        }
    }

    /// The migration level: `meta.rulesrun_migration`, or, in a database written before that key
    /// existed, `meta.schema_version`; nil when neither is there.
    static func recordedVersion(_ db: Database) throws -> Int? {
        try metaInt(db, "rulesrun_migration") ?? metaInt(db, "schema_version")
    }

    /// A `meta` value that must be a non-negative integer, nil when absent.
    static func metaInt(_ db: Database, _ key: String) throws -> Int? {
        guard try db.tableExists("meta") else { return nil }
        guard let text = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]) else { return nil }
        guard let version = Int(text), version >= 0 else {
            throw StoreError(.notARulesDatabase, "meta.\(key) must be a non-negative integer, found \"\(text)\"")
        }
        return version
    }
}

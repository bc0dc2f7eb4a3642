import Foundation
import GRDB
import RulesModel

/// The SQLite storage of the four apps' data.
///
/// A file database is a `DatabasePool` in WAL mode; ``inMemory(options:)`` is a `DatabaseQueue`
/// for tests (SQLite keeps an in-memory journal there: WAL needs a file). Every connection gets the
/// PRAGMAs of A1 (`foreign_keys = ON`, `synchronous = NORMAL` or `FULL`). Opening migrates the
/// schema to ``Migrations/currentVersion``; a database written by newer code is refused before
/// anything is written to it.
///
/// Every mutating method runs in one transaction: it either applies completely (with its
/// `event_log` rows) or leaves the database as it was.
public final class Store: Sendable {
    package let writer: any DatabaseWriter
    let faultHooks = FaultHooks()
    /// The path of the database file, nil in memory.
    public let path: String?

    /// Opened with ``StoreOptions/bulkLoad``: the file is turned to WAL when closed.
    let bulkLoad: Bool

    private init(writer: any DatabaseWriter, path: String?, bulkLoad: Bool = false) {
        self.writer = writer
        self.path = path
        self.bulkLoad = bulkLoad
    }

    /// Opens (creating if needed) the database file at `path` (a path, never a URI: ``DatabaseFile``).
    public static func open(path: String, options: StoreOptions = StoreOptions()) throws -> Store {
        if FileManager.default.fileExists(atPath: path) {
            try Migrations.refuseIfTooNew(path: path)
        }
        if options.bulkLoad {
            let queue = try DatabaseQueue(path: DatabaseFile.name(path), configuration: configuration(options))
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            try Migrations.migrate(queue, options: options)
            return Store(writer: queue, path: path, bulkLoad: true)
        }
        let pool = try DatabasePool(path: DatabaseFile.name(path), configuration: configuration(options))
        let store = Store(writer: pool, path: path)
        try Migrations.migrate(pool, options: options)
        return store
    }

    /// Reads the file at `path` (nothing is written) and throws ``StoreError`` when it is not a
    /// database of this program (an empty file is one) or, unless `allowingNewer`, was written by
    /// a newer version: what ``open(path:options:)`` refuses, checked without opening it to write.
    public static func check(path: String, allowingNewer: Bool = false) throws {
        do {
            try Migrations.refuseIfTooNew(path: path)
        } catch let error as StoreError where allowingNewer && error.code == .databaseTooNew {
            return
        }
    }

    /// A fresh database in memory, for tests.
    public static func inMemory(options: StoreOptions = StoreOptions()) throws -> Store {
        let queue = try DatabaseQueue(configuration: configuration(options))
        try Migrations.migrate(queue, options: options)
        return Store(writer: queue, path: nil)
    }

    static func configuration(_ options: StoreOptions) -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(options.busyTimeoutSeconds)
        let synchronous = options.synchronous.rawValue
        let cacheMiB = options.cacheMiB
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
            if let cacheMiB { try db.execute(sql: "PRAGMA cache_size = \(-cacheMiB * 1024)") }
        }
        return config
    }

    /// Runs `body` on a read-only snapshot: every query inside sees the same committed state.
    /// Inside ``transaction(_:)``, it reads the transaction's own, uncommitted state.
    public func read<T>(_ body: (Snapshot) throws -> T) throws -> T {
        if let enclosing = enclosingTransaction { return try body(Snapshot(enclosing.db)) }
        return try writer.read { db in try body(Snapshot(db)) }
    }

    /// Runs `body` in one write transaction: every operation of this store that `body` calls joins
    /// it, and reads see its writes. Either all of it is committed, or, when anything throws,
    /// nothing is. A nested call is a savepoint of the outer transaction: when it throws, only
    /// what it wrote is rolled back (and the error goes on to the caller, which may carry on);
    /// what it wrote is committed with the outer transaction.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        if let enclosing = enclosingTransaction {
            var result: T?
            try enclosing.db.inSavepoint {
                result = try body()
                return .commit
            }
            return result!
        }
        return try writer.write { db in
            let result = try Store.$enclosing.withValue(EnclosingTransaction(store: ObjectIdentifier(self), db: db)) {
                try body()
            }
            try faultHooks.check("transaction")
            return result
        }
    }

    /// Runs `body` in one write transaction (internal: the package mutations are named operations),
    /// or in the enclosing ``transaction(_:)``. Any error thrown inside rolls the whole transaction back.
    package func write<T>(operation: String = #function, _ body: (Database) throws -> T) throws -> T {
        if let enclosing = enclosingTransaction { return try body(enclosing.db) }
        return try writer.write { db in
            let result = try body(db)
            try faultHooks.check(operation)
            return result
        }
    }

    /// What has been written to the database, as seen from inside a ``transaction(_:)`` of this
    /// store: the rows this store's connection has changed (even in transactions rolled back) and
    /// SQLite's `data_version`, which moves when another connection commits. Two equal stamps mean
    /// nothing was written in between, through this store or any other connection.
    package struct ChangeStamp: Equatable, Sendable {
        let changes: Int
        let version: Int
    }

    /// The ``ChangeStamp`` now; inside a ``transaction(_:)`` (a precondition: a read would see
    /// another connection's count).
    package func changeStamp() throws -> ChangeStamp {
        guard let db = enclosingTransaction?.db else {
            preconditionFailure("Store.changeStamp() is read inside a transaction of the store")
        }
        return ChangeStamp(changes: db.totalChangesCount, version: try Int.fetchOne(cached: db, sql: "PRAGMA data_version") ?? 0)
    }

    /// Whether the current thread is inside a ``transaction(_:)`` of this store (what it writes may
    /// still be rolled back).
    package var isInTransaction: Bool { enclosingTransaction != nil }

    /// The transaction of this store that the current thread is running, if any.
    private var enclosingTransaction: EnclosingTransaction? {
        guard let enclosing = Store.enclosing, enclosing.store == ObjectIdentifier(self) else { return nil }
        return enclosing
    }

    @TaskLocal static var enclosing: EnclosingTransaction?

    /// The values of the A1 PRAGMAs on a connection, e.g. `["foreign_keys": "1", "journal_mode": "wal", "synchronous": "1"]`.
    package func pragmas() throws -> [String: String] {
        try writer.read { db in
            var values: [String: String] = [:]
            for name in ["foreign_keys", "journal_mode", "synchronous"] {
                values[name] = try String.fetchOne(cached: db, sql: "PRAGMA \(name)") ?? ""
            }
            return values
        }
    }

    /// The project's migration level recorded in `meta` (`rulesrun_migration`; see ``Migrations``).
    package func migrationLevel() throws -> Int {
        try writer.read { db in try Migrations.recordedVersion(db) ?? 0 }
    }

    /// `PRAGMA integrity_check`: `["ok"]` for a sound file.
    package func integrityCheck() throws -> [String] {
        try writer.read { db in try String.fetchAll(cached: db, sql: "PRAGMA integrity_check") }
    }

    /// Every violation of the seeds' invariants found in the database (empty when sound).
    package func checkInvariants() throws -> [InvariantViolation] {
        try writer.read { db in try InvariantChecker.checkInvariants(db) }
    }

    /// A text dump of every table and every row, in a stable order, for comparisons.
    package func dump() throws -> String {
        try writer.read { db in try StoreDump.dump(db) }
    }

    /// Copies the database into a compact file at `path` (`VACUUM INTO`).
    package func vacuum(into path: String) throws {
        try writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [DatabaseFile.name(path)]) }
    }

    /// Gives the connection that writes a page cache of up to `mib` MiB from now on (SQLite's
    /// default is 2 MiB: a long run of transactions over a file larger than that reads back from
    /// the log the pages the cache let go). Only where and how fast the pages are kept changes.
    package func cacheWrites(mib: Int) throws {
        try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA cache_size = \(-mib * 1024)") }
    }

    /// Checkpoints the WAL into the main file (a no-op in memory).
    package func checkpoint() throws {
        guard path != nil else { return }
        try writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    }

    /// The database file at `path`, then its journal, log and shared-memory files.
    package static func files(of path: String) -> [String] { ["", "-journal", "-wal", "-shm"].map { path + $0 } }

    /// Removes the database file at `path` (unless `keepingMain`) and its journal, log and
    /// shared-memory files.
    package static func removeFiles(of path: String, keepingMain: Bool = false) {
        for file in files(of: path).dropFirst(keepingMain ? 1 : 0) { try? FileManager.default.removeItem(atPath: file) }
    }

    /// Closes the connections (turning a bulk-loaded file to WAL); the store must not be used
    /// afterwards.
    public func close() throws {
        if bulkLoad { try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") } }
        try writer.close()
        // A pool closes its writer before its readers, which cannot remove the log and the shared
        // memory: the last connection to close does, so one more is opened, reads and is closed.
        // (SQLite keeps them while another connection, of any process, has the file open.)
        if !bulkLoad, let path {
            let last = try DatabaseQueue(path: DatabaseFile.name(path))
            _ = try last.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            try last.close()
        }
    }
}

import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import GRDB
import Testing

/// What `merge --db` does with the databases it is given: it reads them and changes nothing (not
/// a byte of a file or of its log, no log or shared-memory file made or removed); a file that is
/// not a shard of rulesrun, whatever its schema holds, is refused before a row of it is read; and
/// every refusal names the file at fault and what was expected, never the file written or SQL.
@Suite(.timeLimit(.minutes(5))) struct MergeInputTests {
    /// Two shards of a run, `s-1-of-2.sqlite` and `s-2-of-2.sqlite`, in a new folder.
    static func shards() throws -> URL {
        let dir = try CLI.folder([:])
        let rules = CLI.packageRoot.appendingPathComponent("rules").path
        let run = try CLI.run(["simulate", "3d", "--users", "8", "--rules", rules, "--db", "s.sqlite", "--db-shards", "2"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        return dir
    }

    /// A copy of the database `source` at `path` whose write-ahead log (`path-wal`) holds one more
    /// transaction (every user's creation time one more), with its shared memory (`path-shm`) when
    /// `shared`: what a program that has the database open leaves beside it, or one stopped.
    static func copyWithLog(_ source: String, to path: String, shared: Bool) throws {
        let scratch = path + ".open"
        try FileManager.default.copyItem(atPath: source, toPath: scratch)
        let queue = try DatabaseQueue(path: scratch)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "UPDATE app_user SET created_ts_utc_ms = created_ts_utc_ms + 1")
        }
        for suffix in ["", "-wal"] + (shared ? ["-shm"] : []) {
            try FileManager.default.copyItem(atPath: scratch + suffix, toPath: path + suffix)
        }
        try queue.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: scratch + suffix) }
    }

    /// A copy of the database `source` at `path` as a writer stopped in the middle of a transaction
    /// (every user's creation time one more) leaves it in rollback-journal mode: the pages it changed
    /// written into the file (its cache spilled), the original ones in a hot journal (`path-journal`).
    static func copyStoppedMidTransaction(_ source: String, to path: String) throws {
        let scratch = path + ".open"
        try FileManager.default.copyItem(atPath: source, toPath: scratch)
        let queue = try DatabaseQueue(path: scratch)
        try queue.inDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            try db.execute(sql: "PRAGMA cache_size = 2")
            try db.execute(sql: "BEGIN")
            try db.execute(sql: "UPDATE app_user SET created_ts_utc_ms = created_ts_utc_ms + 1")
            try db.execute(sql: "UPDATE day_summary SET day_id = day_id")
            for suffix in ["", "-journal"] { try FileManager.default.copyItem(atPath: scratch + suffix, toPath: path + suffix) }
            try db.execute(sql: "ROLLBACK")
        }
        try queue.close()
        for suffix in ["", "-journal"] { try? FileManager.default.removeItem(atPath: scratch + suffix) }
    }

    /// A file's bytes, its log's and its journal's (sizes and hashes), and whether it has a
    /// shared-memory file (whose bytes are SQLite's to change: any reader of a log writes there).
    static func state(_ path: String) -> [String] {
        [path, path + "-wal", path + "-journal"].map { file in
            (try? Data(contentsOf: URL(fileURLWithPath: file))).map { "\(file): \($0.count) bytes, hash \($0.hashValue)" } ?? "no \(file)"
        } + [FileManager.default.fileExists(atPath: path + "-shm") ? "\(path)-shm" : "no \(path)-shm"]
    }

    /// The smallest creation time of the users of `path` from `user` on.
    static func created(_ path: String, from user: Int) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT min(created_ts_utc_ms) FROM app_user WHERE user_id >= ?", arguments: [user]) ?? -1
        }
    }

    @Test func theInputsAreReadAndNeverChanged() throws {
        let dir = try Self.shards()
        defer { try? FileManager.default.removeItem(at: dir) }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let first = path("s-1-of-2.sqlite"), second = path("s-2-of-2.sqlite")
        try Self.copyWithLog(second, to: path("log.sqlite"), shared: false)
        try Self.copyWithLog(second, to: path("log-shm.sqlite"), shared: true)
        try Self.copyStoppedMidTransaction(second, to: path("journal.sqlite"))
        #expect(FileManager.default.fileExists(atPath: path("journal.sqlite-journal")))
        try FileManager.default.createSymbolicLink(atPath: path("link.sqlite"), withDestinationPath: "s-2-of-2.sqlite")
        let original = try Self.created(second, from: 5)
        let inputs = [("s-2-of-2.sqlite", 0), ("log.sqlite", 1), ("log-shm.sqlite", 1), ("journal.sqlite", 0), ("link.sqlite", 0)]
        for (input, change) in inputs {
            let before = [first, path(input), second].map(Self.state)
            let merge = try CLI.run(["merge", "--db", "out.sqlite", "--replace", "s-1-of-2.sqlite", input], in: dir)
            #expect(merge.status == 0, "\(input): \(merge.stderr)")
            #expect([first, path(input), second].map(Self.state) == before, "\(input)")
            // What the log holds is in the merged database.
            #expect(try Self.created(path("out.sqlite"), from: 5) == original + change, "\(input)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("rulesrun-merge-") }
        #expect(left.isEmpty, "\(left)")
    }

    /// A shard whose schema is not rulesrun's is refused before any row is read: a view over an
    /// endless recursive query where a table is would be read for ever.
    @Test func aShardOfAnotherSchemaIsRefusedUnread() throws {
        let dir = try Self.shards()
        defer { try? FileManager.default.removeItem(at: dir) }
        let endless = "WITH RECURSIVE r(n) AS (SELECT 5 UNION ALL SELECT n + 1 FROM r)"
        let cases: [(sql: String, expected: String)] = [
            (
                "DROP TABLE app_user; CREATE VIEW app_user AS \(endless) SELECT n AS user_id, 0 AS created_ts_utc_ms FROM r",
                "app_user is a view, expected a table"
            ),
            ("DROP TABLE meta; CREATE VIEW meta AS \(endless) SELECT 'k' || n AS key, 'v' AS value FROM r", "meta is a view, expected a table"),
            ("CREATE VIEW everyone AS \(endless) SELECT n FROM r", "a view everyone that rulesrun's schema has not"),
            (
                "CREATE TRIGGER grow AFTER INSERT ON app_user BEGIN INSERT INTO app_user VALUES (NEW.user_id + 1, 0); END",
                "a trigger grow that rulesrun's schema has not"
            ),
            ("ALTER TABLE app_user ADD COLUMN extra TEXT", "app_user.extra is not a column of rulesrun's app_user"),
            ("ALTER TABLE event_log DROP COLUMN sync_status", "event_log.sync_status is missing"),
            ("DROP TABLE tracker_completion", "no table tracker_completion"),
        ]
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        for (i, (sql, expected)) in cases.enumerated() {
            let name = "other\(i).sqlite", path = dir.appendingPathComponent(name).path
            try FileManager.default.copyItem(atPath: dir.appendingPathComponent("s-2-of-2.sqlite").path, toPath: path)
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
            try queue.close()
            let merge = try CLI.run(["merge", "--db", "out.sqlite", "s-1-of-2.sqlite", name], in: dir)
            #expect(merge.status == 2, "\(sql): \(merge.stderr)")
            #expect(
                merge.stderr.contains(
                    "Error: \(name): its schema is not rulesrun's (\(expected)"),
                "\(sql): \(merge.stderr)")
            #expect(merge.stderr.contains("expected a database written by rulesrun simulate --db"), "\(merge.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.sqlite").path))
        }
    }

    /// Every file that cannot be merged is named, with what was expected: not the file written,
    /// not SQL.
    @Test func aShardThatCannotBeMergedIsNamed() throws {
        let dir = try Self.shards()
        defer { try? FileManager.default.removeItem(at: dir) }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let shard = try Data(contentsOf: URL(fileURLWithPath: path("s-2-of-2.sqlite")))
        // A shard whose event_log's first page is damaged (found only once that table is read).
        let root = try DatabaseQueue(path: path("s-2-of-2.sqlite")).read { db in
            try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'event_log'") ?? 0
        }
        var damaged = shard
        damaged.replaceSubrange((root - 1) * 4096..<root * 4096, with: Data(repeating: 0x05, count: 4096))
        try damaged.write(to: URL(fileURLWithPath: path("damaged.sqlite")))
        try shard.prefix(shard.count / 2).write(to: URL(fileURLWithPath: path("truncated.sqlite")))
        try Data().write(to: URL(fileURLWithPath: path("empty.sqlite")))
        try FileManager.default.createDirectory(atPath: path("folder.sqlite"), withIntermediateDirectories: false)
        let foreign = try DatabaseQueue(path: path("foreign.sqlite"))
        try foreign.write { db in try db.execute(sql: "CREATE TABLE notes(text); INSERT INTO notes VALUES ('kept')") }
        try foreign.close()
        let claims = try DatabaseQueue(path: path("claims.sqlite"))
        try claims.write { db in
            try db.execute(sql: "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('rulesrun_migration', '4')")
        }
        try claims.close()
        try FileManager.default.copyItem(atPath: path("s-1-of-2.sqlite"), toPath: path("out.sqlite"))
        let expected = "expected a database written by rulesrun simulate --db"
        let cases: [(name: String, message: String)] = [
            ("damaged.sqlite", "damaged.sqlite: its table event_log cannot be read (database disk image is malformed); \(expected)"),
            ("truncated.sqlite", "truncated.sqlite: truncated: its header gives"),
            ("empty.sqlite", "empty.sqlite: not a report of rulesrun simulate --format json: the file is empty (or, with --db, an SQLite database"),
            ("folder.sqlite", "folder.sqlite: is a folder; expected a JSON report of rulesrun simulate --format json (or, with --db, an SQLite database"),
            ("foreign.sqlite", "foreign.sqlite is a SQLite database but not one of rulesrun (no meta table; tables: notes); \(expected)"),
            ("claims.sqlite", "claims.sqlite: its schema is not rulesrun's (no table app_info); \(expected)"),
            ("out.sqlite", "--db out.sqlite: is the database out.sqlite, an input; refusing to write over it"),
        ]
        for (name, message) in cases {
            let merge = try CLI.run(["merge", "--db", "out.sqlite", "--replace", "s-1-of-2.sqlite", name], in: dir)
            #expect(merge.status == 2, "\(name): \(merge.stderr)")
            #expect(merge.stderr.contains("Error: " + message), "\(name): \(merge.stderr)")
            #expect(!merge.stderr.contains("SQLite error") && !merge.stderr.contains("while executing"), "\(merge.stderr)")
        }
        // A shard another rulesrun is writing (it holds the file's lock).
        let lock = open(path("s-2-of-2.sqlite"), O_RDONLY | O_CLOEXEC)
        defer { close(lock) }
        #expect(lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0)
        let held = try CLI.run(["merge", "--db", "new.sqlite", "s-1-of-2.sqlite", "s-2-of-2.sqlite"], in: dir)
        #expect(held.status == 2)
        #expect(held.stderr.contains("Error: s-2-of-2.sqlite: another rulesrun is writing it"), "\(held.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("new.sqlite")))
    }
}

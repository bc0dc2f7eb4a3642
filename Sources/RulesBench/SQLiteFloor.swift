import Foundation
import GRDB
import RulesStore

/// The floor under a simulation's wall time with the database: SQLite alone, copying the rows of a
/// database a simulation wrote into a new file of the same schema, opened as the simulation opens
/// its own (no syncing, 1 GiB of cache, a rollback journal), in one transaction with the indexes
/// that only serve reads dropped and built again at the end, as the bulk writer does. No Swift
/// runs per row: every row goes through `INSERT INTO … SELECT` (with `WHERE 1`, which keeps
/// SQLite from copying the records as they are), so each is checked and indexed as the bulk
/// writer's rows are. SQLite writes one file on one thread, so no simulation with the database can
/// take less wall time than this.
package enum SQLiteFloor {
    package struct Measurement: Sendable {
        package var rows: Int
        package var seconds: Double
        /// CPU time of the thread that ran SQLite.
        package var cpuSeconds: Double
    }

    /// Copies every row of `source` into a new database at `path` (replaced; the caller removes
    /// it). With `checked` false, foreign keys and CHECK constraints are off: what the rows cost
    /// without them.
    package static func measure(copying source: String, into path: String, checked: Bool = true) throws -> Measurement {
        Store.removeFiles(of: path)
        let store = try Store.open(
            path: path, options: StoreOptions(synchronous: .off, deviceID: "rulesrun-floor", cacheMiB: 1024, bulkLoad: true))
        let measurement = try store.writer.writeWithoutTransaction { db -> Measurement in
            let started = DispatchTime.now().uptimeNanoseconds
            let cpuStarted = threadCPUSeconds()
            try db.execute(sql: "ATTACH DATABASE ? AS source", arguments: [DatabaseFile.name(source)])
            defer { try? db.execute(sql: "DETACH DATABASE source") }
            if !checked {
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            }
            var rows = 0
            try db.inTransaction {
                let deferred = try BulkWriter.dropReadIndexes(db)
                // Parents before their children, each row's foreign keys checked as it is inserted,
                // as the bulk writer's are. (Deferring the checks to the commit while children came
                // first made SQLite look up each parent's children again at the parent's insertion:
                // 100 of 128 s at 10,000 users, a floor slower than the run it bounds.) The tables the
                // new file already has rows in (meta, the migrations) are left as they are.
                let (tables, cyclic) = try parentsFirst(db)
                if cyclic { try db.execute(sql: "PRAGMA defer_foreign_keys = ON") }
                for table in tables where try Int.fetchOne(db, sql: "SELECT count(*) FROM main.\"\(table)\"") == 0 {
                    try db.execute(sql: "INSERT INTO main.\"\(table)\" SELECT * FROM source.\"\(table)\" WHERE 1")
                    rows += db.changesCount
                }
                for sql in deferred { try db.execute(sql: sql) }
                return .commit
            }
            return Measurement(
                rows: rows, seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9,
                cpuSeconds: threadCPUSeconds() - cpuStarted)
        }
        try store.close()
        return measurement
    }

    /// The schema's tables, every table after the tables its foreign keys refer to (a table
    /// rebuilt by a migration, schema v3's `tracker_task`, comes after its children in the order
    /// the tables were created), otherwise in that order; `cyclic` when foreign keys make a cycle
    /// (then the checks must wait for the commit).
    static func parentsFirst(_ db: Database) throws -> (tables: [String], cyclic: Bool) {
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
        var parents: [String: Set<String>] = [:]
        for table in tables {
            let referenced = try String.fetchAll(db, sql: "SELECT \"table\" FROM pragma_foreign_key_list(?)", arguments: [table])
            parents[table] = Set(referenced).subtracting([table])
        }
        var ordered: [String] = []
        var placed: Set<String> = []
        while ordered.count < tables.count {
            guard let next = tables.first(where: { !placed.contains($0) && parents[$0, default: []].isSubset(of: placed) }) else {
                return (ordered + tables.filter { !placed.contains($0) }, true)
            }
            ordered.append(next)
            placed.insert(next)
        }
        return (ordered, false)
    }

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

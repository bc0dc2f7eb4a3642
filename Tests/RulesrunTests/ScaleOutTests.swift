import Foundation
import GRDB
import Testing

/// A cohort cut into shards that run on a batch system (GNU parallel here, `--shard auto`), or
/// into database files written at once (`--db-shards`), and merged: the report is the whole run's,
/// byte for byte, and the database holds the whole run's rows, keys included.
@Suite struct ScaleOutTests {
    static let rules = CLI.packageRoot.appendingPathComponent("rules").path
    static let run = ["simulate", "5d", "--users", "40", "--rules", rules]

    /// Every table's rows in key order, and the schema in the file's order (the text `sqlite3
    /// .dump` compares, without its insertion order).
    static func content(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            var lines = try String.fetchAll(db, sql: "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master")
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            for table in tables {
                let count = try db.columns(in: table).count
                let order = (1...count).map(String.init).joined(separator: ", ")
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) ORDER BY \(order)") {
                    lines.append(table + ": " + row.databaseValues.map(\.description).joined(separator: " | "))
                }
            }
            return lines
        }
    }

    static func rows(_ lines: [String], of table: String) -> Int { lines.filter { $0.hasPrefix(table + ": ") }.count }

    @Test func fourShardsThroughGNUParallelMergeIntoTheWholeRun() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try CLI.run(Self.run + ["--format", "json", "--out", "whole.json", "--db", "whole.sqlite"], in: dir)
        #expect(whole.status == 0, "\(whole.stderr)")
        // parallel numbers its jobs 1…4 ({#}, PARALLEL_SEQ); --shard auto reads the number.
        let parallel = try CLI.run(
            ["parallel", "--jobs", "4", CLI.executable.path] + Self.run
                + [
                    "--jobs", "1", "--shard", "auto", "--shard-count", "4", "--format", "json", "--out", "part{#}.json", "--db",
                    "part{#}.sqlite",
                ]
                + [":::", "a", "b", "c", "d"],
            in: dir, executableURL: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(parallel.status == 0, "GNU parallel (scripts/install-deps.sh --luacheck installs it): \(parallel.stderr)")
        let parts = (1...4).map { "part\($0)" }
        // Each job ran its own quarter of the users.
        for (i, part) in parts.enumerated() {
            let report =
                try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent(part + ".json"))) as? [String: Any]
            let run = report?["run"] as? [String: Any]
            #expect(run?["users_from"] as? Int == 10 * i && run?["users_to"] as? Int == 10 * (i + 1), "\(part): \(run ?? [:])")
        }
        // Out of order on the command line: merge orders the parts by their users.
        let merged = try CLI.run(
            ["merge"] + parts.reversed().map { $0 + ".json" } + ["--format", "json", "--out", "merged.json", "--db", "merged.sqlite"]
                + parts.reversed().map { $0 + ".sqlite" }, in: dir)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stderr.contains("merge: wrote merged.sqlite (4 databases, users 1–40)"), "\(merged.stderr)")
        #expect(
            try Data(contentsOf: dir.appendingPathComponent("merged.json")) == Data(contentsOf: dir.appendingPathComponent("whole.json")))
        let expected = try Self.content(dir.appendingPathComponent("whole.sqlite").path)
        // Keys SQLite numbers (tracker_task.task_key, and the completions referring to them) are there.
        #expect(Self.rows(expected, of: "tracker_task") > 0 && Self.rows(expected, of: "tracker_completion") > 0)
        #expect(try Self.content(dir.appendingPathComponent("merged.sqlite").path) == expected)

        // --db-shards: one process, four writers, four files, merged the same.
        let sharded = try CLI.run(Self.run + ["--format", "json", "--db", "run.sqlite", "--db-shards", "4"], in: dir)
        #expect(sharded.status == 0, "\(sharded.stderr)")
        #expect(sharded.stdout == String(decoding: try Data(contentsOf: dir.appendingPathComponent("whole.json")), as: UTF8.self))
        let files = (1...4).map { "run-\($0)-of-4.sqlite" }
        let again = try CLI.run(["merge", "--db", "run.sqlite"] + files, in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Self.content(dir.appendingPathComponent("run.sqlite").path) == expected)

        // An existing file is replaced only when asked; a missing shard is named.
        let before = try Data(contentsOf: dir.appendingPathComponent("run.sqlite"))
        let refused = try CLI.run(["merge", "--db", "run.sqlite"] + files, in: dir)
        #expect(refused.status == 2)
        #expect(
            refused.stderr.contains("--db run.sqlite: the file exists; give --replace to replace it, or another --db"), "\(refused.stderr)")
        let gap = try CLI.run(["merge", "--db", "run.sqlite", "--replace", files[0], files[2], files[3]], in: dir)
        #expect(gap.status == 2)
        #expect(
            gap.stderr.contains(
                "users 11–20 are in none of the databases (run-1-of-4.sqlite ends at 10, run-3-of-4.sqlite starts at 21): a shard is missing"
            ),
            "\(gap.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("run.sqlite")) == before)
        #expect(try CLI.run(["merge", "--db", "run.sqlite", "--replace"] + files, in: dir).status == 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("rulesrun-") }
        #expect(left.isEmpty, "\(left)")
    }
}

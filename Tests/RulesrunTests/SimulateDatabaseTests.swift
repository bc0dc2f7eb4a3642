import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import GRDB
import Testing

/// What `simulate` does with the files of `--db` (and `--bench`): nothing a user has is replaced
/// unless it is a database rulesrun wrote, two runs never write one file at once, and nothing is
/// left behind.
@Suite struct SimulateDatabaseTests {
    static let run = ["simulate", "3d", "--users", "4"]

    func users(in path: String) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM app_user") ?? -1 }
    }

    func names(_ dir: URL) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() }

    @Test func anotherProgramsDatabaseIsNeitherReplacedNorAddedTo() throws {
        let dir = try CLI.folder(["empty.sqlite": ""])
        defer { try? FileManager.default.removeItem(at: dir) }
        let other = dir.appendingPathComponent("other.sqlite").path
        let queue = try DatabaseQueue(path: other)
        try queue.write { db in try db.execute(sql: "CREATE TABLE important(x); INSERT INTO important VALUES ('kept')") }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        for extra in [[], ["--append"]] {
            let result = try CLI.run(Self.run + ["--db", other] + extra)
            #expect(result.status == 2, "\(extra): \(result.stderr)")
            #expect(
                result.stderr.contains(
                    "--db \(other): \(other) is a SQLite database but not one of rulesrun (no meta table; tables: important); refusing to \(extra.isEmpty ? "replace" : "add to") it"
                ),
                "\(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
        // An empty file, or a database rulesrun wrote, is replaced.
        let empty = dir.appendingPathComponent("empty.sqlite").path
        #expect(try CLI.run(Self.run + ["--db", empty]).status == 0)
        #expect(try users(in: empty) == 4)
        #expect(try CLI.run(["simulate", "3d", "--users", "6", "--db", empty]).status == 0)
        #expect(try users(in: empty) == 6)
        #expect(try names(dir) == ["empty.sqlite", "other.sqlite"])
    }

    /// The meta row of a database `simulate` writes: A3's required keys, `schema_version` the
    /// Earned schema's "1", and the project's migration level under a key of its own.
    @Test func theMetaRowSaysWhatA3Says() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("meta.sqlite").path
        let result = try CLI.run(Self.run + ["--db", path])
        #expect(result.status == 0, "\(result.stderr)")
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let meta = try queue.read { db in try String.fetchAll(db, sql: "SELECT key || '=' || value FROM meta ORDER BY key") }
        #expect(meta == ["db_location=app_sandbox", "device_id=rulesrun-simulate", "rulesrun_migration=4", "schema_version=1"])
    }

    /// --bench writes its runs with the database to a temporary file, removed afterwards: the
    /// default database (the user's last run) is left as it was.
    @Test func theBenchLeavesTheDefaultDatabaseAlone() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = CLI.packageRoot.appendingPathComponent("rules").path
        let last = try CLI.run(["simulate", "1d", "--users", "2", "--rules", rules], in: dir)
        #expect(last.status == 0, "\(last.stderr)")
        let database = dir.appendingPathComponent(".rulesrun/simulation.sqlite")
        let before = try Data(contentsOf: database)
        let bench = try CLI.run(["simulate", "1d", "--users", "3", "--rules", rules, "--bench"], in: dir)
        #expect(bench.status == 0, "\(bench.stderr)")
        #expect(bench.stdout.contains("Lua rules, with database"))
        // The sharded run (its files removed too, below), and each target with its verdict.
        #expect(bench.stdout.contains("Lua rules, --db-shards 2"))
        #expect(bench.stdout.contains("x SQLite alone"))
        #expect(bench.stdout.contains("target <= 1.25 x: met") || bench.stdout.contains("target <= 1.25 x: not met"))
        #expect(bench.stdout.contains("us of CPU per event (") && bench.stdout.contains("target <= 4.00 us: "), "\(bench.stdout)")
        #expect(try Data(contentsOf: database) == before)
        #expect(try names(dir.appendingPathComponent(".rulesrun")) == ["simulation.sqlite"])
        // Where there was no database, none is left (nor its folder).
        let fresh = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: fresh) }
        #expect(try CLI.run(["simulate", "1d", "--users", "3", "--rules", rules, "--bench"], in: fresh).status == 0)
        #expect(try names(fresh) == [])
        let noDb = try CLI.run(["simulate", "1d", "--users", "3", "--rules", rules, "--bench", "--no-db"], in: fresh)
        #expect(noDb.status == 2)
        #expect(noDb.stderr.contains("--bench measures runs with and without the database; leave out --no-db"), "\(noDb.stderr)")
    }

    /// A second run on a database another run holds (simulate, with or without --append, or
    /// replay) is refused, and leaves the first's files alone.
    @Test func aDatabaseAnotherRunHoldsIsRefused() throws {
        let dir = try CLI.folder(["db.sqlite.rulesrun-new": "the first run's new database"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let database = dir.appendingPathComponent("db.sqlite").path
        // The lock another rulesrun takes.
        let lock = open(database + ".rulesrun-lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)  // not inherited by other tests' children
        #expect(lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0)
        for extra in [[], ["--append"]] {
            let result = try CLI.run(Self.run + ["--db", database] + extra)
            #expect(result.status == 2, "\(extra): \(result.stderr)")
            #expect(result.stderr.contains("--db \(database): another rulesrun is writing \(database)"), "\(result.stderr)")
        }
        let replay = try CLI.run(["replay", "examples/replay/escalation-week.jsonl", "--db", database])
        #expect(replay.status == 2)
        #expect(replay.stderr.contains("--db \(database): another rulesrun is writing \(database)"), "\(replay.stderr)")
        #expect(try String(contentsOfFile: database + ".rulesrun-new", encoding: .utf8) == "the first run's new database")
        #expect(try names(dir) == ["db.sqlite.rulesrun-lock", "db.sqlite.rulesrun-new"])
        close(lock)
        // Once it is released, the next run goes (and removes what a killed run left).
        let next = try CLI.run(Self.run + ["--db", database])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try names(dir) == ["db.sqlite"])
    }

    @Test func jobsAreCappedAndNeverOverflow() throws {
        let one = try CLI.run(["simulate", "3d", "--users", "30", "--no-db", "--jobs", "1"])
        let most = try CLI.run(["simulate", "3d", "--users", "30", "--no-db", "--jobs", "256"])
        #expect(most.status == 0, "\(most.stderr)")
        #expect(most.stdout == one.stdout)
        let huge = try CLI.run(["simulate", "3d", "--users", "30", "--no-db", "--jobs", "4611686018427387903"])
        #expect(huge.status == 2 && huge.stderr.contains("--jobs") && huge.stderr.contains("1 to 256"), "\(huge.stderr)")
        // Not a thread and a Lua state per job asked for: at most four per core.
        let rules = CLI.packageRoot.appendingPathComponent("rules").path
        let few = try CLI.peakMemory(["simulate", "2d", "--users", "200", "--no-db", "--rules", rules, "--jobs", "2"])
        let many = try CLI.peakMemory(["simulate", "2d", "--users", "200", "--no-db", "--rules", rules, "--jobs", "256"])
        #expect(few.status == 0 && many.status == 0)
        #expect(
            many.maxRSSKilobytes < few.maxRSSKilobytes + 40_000,
            "\(few.maxRSSKilobytes) kB with 2 jobs, \(many.maxRSSKilobytes) kB with 256")
    }

    /// `--out -` is standard output, as `-` is elsewhere; `--db :memory:` is not a file name.
    @Test func dashIsStandardOutputAndMemoryIsNotADatabaseFile() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = CLI.packageRoot.appendingPathComponent("rules").path
        let dash = try CLI.run(["simulate", "2d", "--users", "3", "--no-db", "--rules", rules, "--out", "-"], in: dir)
        #expect(dash.status == 0)
        #expect(dash.stdout.contains("summary"))
        let memory = try CLI.run(["simulate", "2d", "--users", "3", "--rules", rules, "--db", ":memory:"], in: dir)
        #expect(memory.status == 2)
        #expect(memory.stderr.contains("--db :memory:: the database would be a file named ':memory:'; use --no-db"), "\(memory.stderr)")
        #expect(try names(dir) == [])
    }

    /// A path the system cannot create is refused before the run, naming it and saying why.
    @Test func aDatabaseNameTooLongIsNamed() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let database = dir.appendingPathComponent(String(repeating: "a", count: 300) + ".sqlite").path
        let result = try CLI.run(Self.run + ["--db", database])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--db \(database): the file name is 307 bytes long; at most"), "\(result.stderr)")
        #expect(try names(dir) == [])
    }

    /// A symbolic link is followed (the file it points to is replaced, the link kept); a link to
    /// nothing and a read-only file are refused; the file replaced keeps its permissions.
    @Test func linksAndPermissions() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let real = dir.appendingPathComponent("real.sqlite").path, link = dir.appendingPathComponent("link.sqlite").path
        #expect(try CLI.run(["simulate", "2d", "--users", "2", "--db", real]).status == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.sqlite")
        let linked = try CLI.run(Self.run + ["--db", link])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.sqlite")
        #expect(try users(in: real) == 4)

        let dangling = dir.appendingPathComponent("dangling.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "nowhere.sqlite")
        let refused = try CLI.run(Self.run + ["--db", dangling])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--db \(dangling): a symbolic link to nowhere.sqlite, which does not exist"), "\(refused.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling) == "nowhere.sqlite")

        chmod(real, 0o444)
        let before = try Data(contentsOf: URL(fileURLWithPath: real))
        for extra in [[], ["--append"]] {
            let readOnly = try CLI.run(Self.run + ["--db", real] + extra)
            #expect(readOnly.status == 2)
            #expect(readOnly.stderr.contains("--db \(real): the file is read-only (mode 0444); refusing to"), "\(readOnly.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: real)) == before)
        chmod(real, 0o600)
        #expect(try CLI.run(Self.run + ["--db", real]).status == 0)
        #expect((try FileManager.default.attributesOfItem(atPath: real)[.posixPermissions] as? Int) == 0o600)
        #expect(try names(dir) == ["dangling.sqlite", "link.sqlite", "real.sqlite"])
    }

    /// `--append` closes its database: no log or shared-memory file is left beside it.
    @Test func appendLeavesNothingBeside() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let database = dir.appendingPathComponent("db.sqlite").path
        #expect(try CLI.run(Self.run + ["--db", database]).status == 0)
        let appended = try CLI.run(Self.run + ["--db", database, "--append"])
        #expect(appended.status == 0, "\(appended.stderr)")
        #expect(try names(dir) == ["db.sqlite"])
        #expect(try users(in: database) == 8)
    }

    /// SIGTERM in the middle of a run removes the new file and its journal, keeps the previous
    /// database, and exits 143; SIGINT during --append exits 130 with the database as it was.
    @Test func anInterruptedRunLeavesThePreviousDatabase() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let database = dir.appendingPathComponent("db.sqlite").path
        #expect(try CLI.run(Self.run + ["--db", database]).status == 0)
        for (signal, extra, file) in [(SIGTERM, [String](), ".rulesrun-new"), (SIGINT, ["--append"], ".rulesrun-lock")] {
            let process = Process()
            process.executableURL = CLI.executable
            process.environment = CLI.environment
            process.arguments = ["simulate", "30d", "--users", "200", "--db", database] + extra
            process.currentDirectoryURL = CLI.packageRoot
            process.standardOutput = FileHandle.nullDevice
            let err = Pipe()
            process.standardError = err
            try process.run()
            // Once the run writes (its file is there), it is interrupted: at once, no pause. The run
            // registers each file it makes for removal before (or as) it makes it, so a signal
            // right after the file appears finds it registered.
            while !FileManager.default.fileExists(atPath: database + file) && process.isRunning { usleep(1_000) }
            kill(process.processIdentifier, signal)
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 128 + signal, "\(stderr)")
            #expect(stderr.contains("simulate: interrupted"), "\(stderr)")
            #expect(try users(in: database) == 4)
            #expect(try names(dir).filter { $0.contains("rulesrun") } == [])
        }
    }
}

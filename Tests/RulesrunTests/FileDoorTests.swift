import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import GRDB
import Testing

/// The doors of the files rulesrun writes and reads: a database is locked by the file, whatever
/// its name; every path written is a regular file or a new one in an existing folder; every input
/// has a size limit and is never held beyond it.
@Suite struct FileDoorTests {
    static let events = CLI.packageRoot.appendingPathComponent("examples/replay/escalation-week.jsonl").path

    func names(_ dir: URL) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() }

    /// A sparse file of `bytes` zero bytes (one line without an end), made at once.
    func zeros(_ bytes: Int, at url: URL) throws -> String {
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        #expect(truncate(url.path, off_t(bytes)) == 0)
        return url.path
    }

    /// While a real replay writes a database (it waits for more events on its standard input),
    /// simulate --append, simulate and replay of the same file are refused and leave no journal
    /// beside it; the lock is on the file itself (a lock on the file taken by another process,
    /// with no lock file beside it, refuses them too). A file of two names (a hard link) is refused
    /// by either name, locked or not: a journal left beside one name is not seen through the
    /// other. With one name left, it is written and whole.
    @Test func aDatabaseIsLockedByTheFileAndHasOneName() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("first.sqlite").path, second = dir.appendingPathComponent("second.sqlite").path
        #expect(try CLI.run(["simulate", "2d", "--users", "3", "--db", first]).status == 0)
        let writers = [["simulate", "2d", "--users", "3", "--append"], ["simulate", "2d", "--users", "3"], ["replay", Self.events]]

        let replay = Process()
        replay.executableURL = CLI.executable
        replay.environment = CLI.environment
        replay.arguments = ["replay", "-", "--db", first]
        replay.currentDirectoryURL = CLI.packageRoot
        let input = Pipe(), output = Pipe()
        replay.standardInput = input
        replay.standardOutput = output
        replay.standardError = FileHandle.nullDevice
        try replay.run()
        let settings = try #require(
            try String(contentsOfFile: Self.events, encoding: .utf8).split(separator: "\n").first { $0.hasPrefix("{") })
        input.fileHandleForWriting.write(Data((settings + "\n").utf8))
        // Its line is out once the event is applied: the replay holds the database by then.
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += chunk
        }
        #expect(String(decoding: printed, as: UTF8.self).contains("\"ok\":true"), "\(String(decoding: printed, as: UTF8.self))")
        for arguments in writers {
            let result = try CLI.run(arguments + ["--db", first])
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("--db \(first): another rulesrun is writing \(first)"), "\(arguments): \(result.stderr)")
        }
        try input.fileHandleForWriting.close()
        replay.waitUntilExit()
        #expect(replay.terminationStatus == 0)
        #expect(try names(dir) == ["first.sqlite"])

        // The file itself locked, no lock file beside it.
        let held = open(first, O_RDONLY | O_CLOEXEC)
        try #require(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        let locked = try CLI.run(writers[0] + ["--db", first])
        close(held)
        #expect(locked.status == 2)
        #expect(locked.stderr.contains("--db \(first): another rulesrun is writing \(first)"), "\(locked.stderr)")

        try #require(link(first, second) == 0)
        for name in [first, second] {
            for arguments in writers {
                let result = try CLI.run(arguments + ["--db", name])
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("--db \(name): the file has 2 names (hard links)"), "\(arguments): \(result.stderr)")
            }
        }
        #expect(try names(dir) == ["first.sqlite", "second.sqlite"])
        try #require(unlink(first) == 0)
        #expect(try CLI.run(writers[0] + ["--db", second]).status == 0)
        let queue = try DatabaseQueue(path: second)
        defer { try? queue.close() }
        #expect(try queue.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
        let users = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM app_user") }
        #expect(users == 6, "\(String(describing: users))")  // 3 (the replay's u1 is the first), 3 appended
    }

    /// compare and merge lock what they write by the file too: while another holds compare's
    /// `--out` folder (reached here by a symbolic link) or merge's `--out` file (by a hard link),
    /// the second is refused and writes nothing there.
    @Test func compareAndMergeLockWhatTheyWrite() throws {
        let dir = try CLI.folder(["out/notes.txt": "mine"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out").path, alias = dir.appendingPathComponent("alias").path
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: "out")
        let folder = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(folder >= 0 && flock(folder, LOCK_EX | LOCK_NB) == 0)
        let compare = try CLI.run([
            "compare", "rules", "examples/graduated-recovery", "--runs", "20", "--population-users", "0", "--economy-runs", "0", "--out",
            alias,
        ])
        close(folder)
        #expect(compare.status == 2)
        #expect(
            compare.stderr.contains("--out \(alias): another rulesrun compare is writing its replay files in this folder"),
            "\(compare.stderr)")
        #expect(try names(URL(fileURLWithPath: out)) == ["notes.txt"])

        let report = dir.appendingPathComponent("report.json").path
        #expect(try CLI.run(["simulate", "2d", "--users", "2", "--no-db", "--format", "json", "--out", report]).status == 0)
        let merged = dir.appendingPathComponent("merged.txt").path, other = dir.appendingPathComponent("other.txt").path
        try "the other run's text".write(toFile: merged, atomically: true, encoding: .utf8)
        try #require(link(merged, other) == 0)
        let file = open(merged, O_RDONLY | O_CLOEXEC)
        try #require(file >= 0 && flock(file, LOCK_EX | LOCK_NB) == 0)
        let merge = try CLI.run(["merge", report, "--out", other])
        close(file)
        #expect(merge.status == 2)
        #expect(merge.stderr.contains("cannot write \(other): another rulesrun is writing it"), "\(merge.stderr)")
        #expect(try String(contentsOfFile: merged, encoding: .utf8) == "the other run's text")
    }

    /// The default `--out` (`.rulesrun/compare`) is shared by every compare started in a folder:
    /// a second compare there waits for the first, says so, and then runs — it is not refused.
    @Test func aSecondCompareInTheDefaultFolderWaitsForTheFirst() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent(".rulesrun/compare").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let folder = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(folder >= 0 && flock(folder, LOCK_EX | LOCK_NB) == 0)
        let rules = CLI.packageRoot.appendingPathComponent("rules").path
        let (process, stdout, stderr) = try CLI.launch(
            ["compare", rules, rules, "--runs", "2", "--days", "2", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0"],
            in: dir)
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("waiting for it to finish") {
            let chunk = stderr.availableData
            if chunk.isEmpty { break }
            said += chunk
        }
        #expect(process.isRunning, "compare did not wait: \(String(decoding: said, as: UTF8.self))")
        close(folder)
        let (printed, rest) = CLI.drain(stdout, stderr)
        said += rest
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(String(decoding: printed, as: UTF8.self))")
        #expect(
            String(decoding: said, as: UTF8.self)
                == "--out .rulesrun/compare: another rulesrun compare is writing its replay files in this folder; waiting for it to finish (give another --out not to wait)\n"
        )
    }

    /// Every path a command writes is a regular file or a new one in an existing folder: a device,
    /// a FIFO or a missing folder is refused (2) before anything is written, naming the option, the
    /// path and what is wrong; no folder is made. Only simulate's default database gets its folder.
    @Test func everyPathWrittenIsARegularFileInAnExistingFolder() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("fifo").path
        try #require(mkfifo(fifo, 0o644) == 0)
        let report = dir.appendingPathComponent("report.json").path
        #expect(try CLI.run(["simulate", "2d", "--users", "2", "--no-db", "--format", "json", "--out", report]).status == 0)
        let missing = dir.appendingPathComponent("no").path
        let simulate = ["simulate", "2d", "--users", "2", "--no-db"]
        let compare = ["compare", "rules", "rules", "--runs", "2", "--days", "2", "--population-users", "0", "--economy-runs", "0"]
        let cases: [([String], String)] = [
            (["replay", Self.events, "--db", "/dev/null"], "--db /dev/null: not a regular file (a character device)"),
            (["replay", Self.events, "--db", fifo], "--db \(fifo): not a regular file (a FIFO)"),
            (
                ["replay", Self.events, "--db", ":memory:"],
                "--db :memory:: the database would be a file named ':memory:'; use replay without --db"
            ),
            (["replay", Self.events, "--db", "-"], "--db -: a database is a file, not standard output"),
            (["replay", Self.events, "--db", "\(missing)/x.sqlite"], "--db \(missing)/x.sqlite: the folder \(missing) does not exist"),
            (
                ["simulate", "2d", "--users", "2", "--db", "\(missing)/x.sqlite"],
                "--db \(missing)/x.sqlite: the folder \(missing) does not exist"
            ),
            (simulate + ["--out", "/dev/null"], "--out /dev/null: not a regular file (a character device)"),
            (simulate + ["--chart", fifo], "--chart \(fifo): not a regular file (a FIFO)"),
            (simulate + ["--out", "\(missing)/r.txt"], "--out \(missing)/r.txt: the folder \(missing) does not exist"),
            (["merge", report, "--out", "/dev/full"], "--out /dev/full: not a regular file (a character device)"),
            (["merge", report, "--chart", "\(missing)/c.svg"], "--chart \(missing)/c.svg: the folder \(missing) does not exist"),
            (compare + ["--out", "/dev/null"], "--out /dev/null: not a folder (a character device)"),
            (compare + ["--out", "\(missing)/deeper"], "--out \(missing)/deeper: the folder \(missing) does not exist"),
        ]
        for (arguments, expected) in cases {
            let result = try CLI.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
        #expect(try names(dir) == ["fifo", "report.json"])
        // The folder of the default database is the tool's to make.
        let fresh = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: fresh) }
        #expect(
            try CLI.run(["simulate", "1d", "--users", "2", "--rules", CLI.packageRoot.appendingPathComponent("rules").path], in: fresh)
                .status == 0)
        #expect(FileManager.default.fileExists(atPath: fresh.appendingPathComponent(".rulesrun/simulation.sqlite").path))
    }

    /// replay never holds more than its longest line (1 MiB): a line of 200 MB, or endless zeros on
    /// its standard input, stop it (2) in little memory, naming the line; a line of exactly 1 MiB
    /// is read; a device is refused before it is read.
    @Test func replayStopsAtALineLongerThanTheLimit() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let huge = try zeros(200 << 20, at: dir.appendingPathComponent("huge.jsonl"))
        let file = try CLI.peakMemory(["replay", huge])
        #expect(file.status == 2)
        try #require(file.maxRSSKilobytes < 100_000, "\(file.maxRSSKilobytes) kB")
        let piped = try CLI.peakMemory(["replay", "-"], input: "/dev/zero")
        #expect(piped.status == 2)
        #expect(piped.maxRSSKilobytes < 100_000, "\(piped.maxRSSKilobytes) kB")

        let settings = try #require(
            try String(contentsOfFile: Self.events, encoding: .utf8).split(separator: "\n").first { $0.hasPrefix("{") })
        let long = dir.appendingPathComponent("long.jsonl")
        try ("# a comment\n\(settings)\n" + String(repeating: "x", count: (1 << 20) + 1) + "\n").write(
            to: long, atomically: true, encoding: .utf8)
        let stopped = try CLI.run(["replay", long.path])
        #expect(stopped.status == 2)
        #expect(
            stopped.stderr == "\(long.path): line 3: longer than 1048576 bytes (the longest line rulesrun reads); replay stopped\n",
            "\(stopped.stderr)")
        #expect(stopped.stdout.split(separator: "\n").count == 1)
        try (String(repeating: "x", count: 1 << 20) + "\r\n").write(to: long, atomically: true, encoding: .utf8)
        let read = try CLI.run(["replay", long.path])
        #expect(read.status == 2 && read.stdout.contains("INVALID_EVENT") && !read.stderr.contains("longer than"), "\(read.stderr)")

        let device = try CLI.run(["replay", "/dev/zero"])
        #expect(device.status == 2)
        #expect(
            device.stderr.contains(
                "cannot read /dev/zero: not a regular file (a character device); expected a file of events, a pipe, or - for standard input"
            ),
            "\(device.stderr)")
    }

    /// merge reads only regular files of at most 128 MiB: a larger one is refused before it is
    /// read, a device or a FIFO (which would wait for ever) is refused unread.
    @Test func mergeReadsRegularReportsWithinTheLimit() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report.json").path
        #expect(try CLI.run(["simulate", "2d", "--users", "2", "--no-db", "--format", "json", "--out", report]).status == 0)
        let huge = try zeros(200 << 20, at: dir.appendingPathComponent("huge.json"))
        let large = try CLI.peakMemory(["merge", report, huge])
        #expect(large.status == 2)
        try #require(large.maxRSSKilobytes < 100_000, "\(large.maxRSSKilobytes) kB")
        let fifo = dir.appendingPathComponent("fifo").path
        try #require(mkfifo(fifo, 0o644) == 0)
        for (path, expected) in [
            (huge, "\(huge): the file is 209715200 bytes, more than the 134217728 a report may have"),
            ("/dev/zero", "/dev/zero: not a regular file (a character device); expected a JSON report"),
            (fifo, "\(fifo): not a regular file (a FIFO); expected a JSON report"),
        ] {
            let result = try CLI.run(["merge", report, path])
            #expect(result.status == 2)
            #expect(result.stderr.contains(expected), "\(result.stderr)")
        }
    }
}

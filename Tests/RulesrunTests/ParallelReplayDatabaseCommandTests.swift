import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import RulesEngine
import RulesStore
import Testing

/// `replay FILE --db DB` runs in parallel by user: its output, standard error, exit status and
/// database are those of the same lines replayed line by line (standard input) into a new file;
/// a database that already holds users is replayed line by line; a replay killed midway leaves a
/// consistent database holding every event it printed, and at most the rest of their window.
@Suite struct ParallelReplayDatabaseCommandTests {
    /// The dump of the database at `path` (its `device_id`, random, left out), after checking its invariants.
    static func dump(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let store = try Store.open(path: path)
        defer { try? store.close() }
        #expect(try store.checkInvariants() == [], sourceLocation: sourceLocation)
        return try store.dump().split(separator: "\n").filter { !$0.contains("device_id") }.joined(separator: "\n")
    }

    static let newline = [UInt8(ascii: "\n")]

    /// The lines of `input` on standard input (written from a thread of their own, while the
    /// output is read): replayed line by line as they arrive, on one engine.
    static func lineByLine(_ arguments: [String], input: URL, in dir: URL) throws -> CLI.Result {
        let pipe = Pipe()
        let (process, out, err) = try CLI.launch(arguments, in: dir, input: pipe)
        let data = try Data(contentsOf: input)
        Thread.detachNewThread {
            pipe.fileHandleForWriting.write(data)
            try? pipe.fileHandleForWriting.close()
        }
        let (stdout, stderr) = CLI.drain(out, err)
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test func aSimulatedLogGivesTheOutputAndDatabaseOfALineByLineReplayWhateverTheJobs() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let simulated = try CLI.run(["simulate", "14d", "--users", "60", "--no-db", "--events", "events.jsonl"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let events = dir.appendingPathComponent("events.jsonl")
        let sequential = try Self.lineByLine(
            ["replay", "-", "--db", "sequential.sqlite", "--rules", CLI.packageRoot.appendingPathComponent("rules").path],
            input: events, in: dir)
        #expect(sequential.status == 0 && sequential.stdout.split(separator: "\n").count > 5_000, "\(sequential.stderr)")
        let expected = try Self.dump(dir.appendingPathComponent("sequential.sqlite").path)
        for jobs in ["1", "2", "3"] {
            let rules = CLI.packageRoot.appendingPathComponent("rules").path
            let parallel = try CLI.run(
                ["replay", "events.jsonl", "--db", "parallel-\(jobs).sqlite", "--jobs", jobs, "--rules", rules], in: dir)
            #expect(parallel.status == sequential.status, "--jobs \(jobs): \(parallel.stderr)")
            #expect(parallel.stdout == sequential.stdout, "--jobs \(jobs)")
            #expect(parallel.stderr == sequential.stderr, "--jobs \(jobs)")
            #expect(try Self.dump(dir.appendingPathComponent("parallel-\(jobs).sqlite").path) == expected, "--jobs \(jobs)")
        }
    }

    /// The mixed log (refused and malformed lines, a rule that fails) in two halves into one
    /// database: the first half in parallel into a new file, the second, whose users the file
    /// already holds, line by line; both as standard input gives them.
    @Test func aDatabaseThatHoldsUsersIsReplayedLineByLine() throws {
        let dir = try ParallelReplayCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = try Data(contentsOf: dir.appendingPathComponent("events.jsonl")).split(
            separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let half = lines.count / 2
        try Data(lines.prefix(half).joined(separator: Self.newline)).write(to: dir.appendingPathComponent("first.jsonl"))
        try Data(lines.dropFirst(half).joined(separator: Self.newline)).write(to: dir.appendingPathComponent("second.jsonl"))
        var expected: [CLI.Result] = []
        for part in ["first", "second"] {
            expected.append(
                try Self.lineByLine(
                    ["replay", "-", "--rules", "rules", "--db", "sequential.sqlite"],
                    input: dir.appendingPathComponent("\(part).jsonl"), in: dir))
        }
        #expect(expected[0].stdout.contains("\"code\":\"INVALID_EVENT\""))
        #expect(expected[1].stdout.contains("\"code\":\"RULE_ERROR\""))
        for (i, part) in ["first", "second"].enumerated() {
            let got = try CLI.run(
                ["replay", "\(part).jsonl", "--rules", "rules", "--db", "parallel.sqlite", "--jobs", "3"], in: dir)
            #expect(got.status == expected[i].status, "\(part)")
            #expect(got.stdout == expected[i].stdout && got.stderr == expected[i].stderr, "\(part)")
        }
        #expect(
            try Self.dump(dir.appendingPathComponent("parallel.sqlite").path)
                == Self.dump(dir.appendingPathComponent("sequential.sqlite").path))
    }

    /// A replay killed (SIGKILL; SIGINT and SIGTERM end it the same way, unless its parent ignores
    /// them) while it prints its first window, with the second being written or written: the
    /// database is consistent, holds every event printed, and is, row for row, the first window,
    /// or the first two, replayed line by line; never a part of a window. (Each event line is
    /// followed by a comment of 12 KiB: windows of 8 MiB then hold about 680 events, whose output
    /// is more than the pipe holds, so the replay waits in its first window's lines.)
    @Test func aKilledReplayLeavesTheWindowsItCommitted() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let simulated = try CLI.run(["simulate", "7d", "--users", "20", "--no-db", "--events", "simulated.jsonl"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let comment = Array("# ".utf8) + Array(repeating: UInt8(ascii: "."), count: 12 << 10)
        let events = try Data(contentsOf: dir.appendingPathComponent("simulated.jsonl"))
            .split(separator: UInt8(ascii: "\n")).prefix(1_500)
        var lines: [[UInt8]] = []
        for event in events { lines += [Array(event), comment] }
        try Data(lines.joined(separator: Self.newline) + Self.newline).write(to: dir.appendingPathComponent("events.jsonl"))
        // Where the first two windows end: as ParallelReplay reads them.
        let options = ParallelReplay.Options(jobs: 1)
        var ends: [Int] = []
        var end = 0
        for _ in 0..<2 {
            let first = end
            var bytes = 0
            while end - first < options.windowLines, end < lines.count, bytes < options.windowBytes {
                bytes += lines[end].count
                end += 1
            }
            ends.append(end)
        }
        #expect(lines.count > ends[1])
        let db = dir.appendingPathComponent("killed.sqlite").path
        let (process, out, err) = try CLI.launch(["replay", "events.jsonl", "--db", db, "--jobs", "2"], in: dir)
        // Not a timing: only a guard so that a replay that holds its lines back fails instead of hanging.
        let guardAgainstHanging = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: guardAgainstHanging)
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = out.availableData
            if chunk.isEmpty { break }
            printed += chunk
        }
        kill(process.processIdentifier, SIGKILL)
        printed += out.readDataToEndOfFile()
        _ = err.readDataToEndOfFile()
        process.waitUntilExit()
        guardAgainstHanging.cancel()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        let outputs = printed.split(separator: UInt8(ascii: "\n")).dropLast(printed.last == UInt8(ascii: "\n") ? 0 : 1)
        #expect(!outputs.isEmpty && outputs.count < events.count / 2, "\(outputs.count) lines printed")
        // The first window, and the first two, line by line, each into a database of its own.
        var windows: [String] = []
        for (w, end) in ends.enumerated() {
            try Data(lines.prefix(end).joined(separator: Self.newline) + Self.newline)
                .write(to: dir.appendingPathComponent("window-\(w).jsonl"))
            let sequential = try Self.lineByLine(
                ["replay", "-", "--db", "window-\(w).sqlite"], input: dir.appendingPathComponent("window-\(w).jsonl"), in: dir)
            #expect(sequential.stdout.utf8.starts(with: outputs.joined(separator: Self.newline)))
            windows.append(try Self.dump(dir.appendingPathComponent("window-\(w).sqlite").path))
        }
        #expect(windows.contains(try Self.dump(db)))
    }
}

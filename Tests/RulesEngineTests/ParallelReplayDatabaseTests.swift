import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// A replay into a database by user (``ParallelReplay/run(into:next:write:windowEnd:)``) prints
/// the outputs of a replay line by line on one engine committing each event on its own, and leaves
/// its database, row for row: the same user ids, the same integer keys, the same updates of rows a
/// window before wrote.
@Suite struct ParallelReplayDatabaseTests {
    /// The example files interleaved, with users created out of the order they first appear in:
    /// `late`'s first event is refused (its user is not created), then `early` is created, then `late`.
    static func lines() throws -> [[UInt8]] {
        var lines = try ParallelReplayTests.interleavedExamples()
        let refusedFirst = [
            #"{"at": "2026-03-02T06:00:00Z", "user": "late", "type": "habit_uncheck", "task": "none"}"#,
            #"{"at": "2026-03-02T06:00:00Z", "user": "early", "type": "habit_task", "task": "walk"}"#,
            #"{"at": "2026-03-02T06:01:00Z", "user": "late", "type": "habit_task", "task": "walk"}"#,
            #"{"at": "2026-03-02T06:02:00Z", "user": "early", "type": "habit_completion", "task": "walk"}"#,
            #"{"at": "2026-03-02T06:03:00Z", "user": "late", "type": "habit_completion", "task": "walk"}"#,
        ]
        lines.insert(contentsOf: refusedFirst.prefix(3).map { Array($0.utf8) }, at: 5)
        lines.insert(contentsOf: refusedFirst.suffix(2).map { Array($0.utf8) }, at: 40)
        return lines
    }

    static func path(_ name: String, in folder: URL) -> String { folder.appendingPathComponent(name).path }

    /// The dump of the file at `path`.
    static func dump(_ path: String) throws -> String {
        let store = try Store.open(path: path)
        defer { try? store.close() }
        #expect(try store.checkInvariants() == [])
        return try store.dump()
    }

    /// Windows of 7 lines, 1 to 3 workers, into real SQLite files: the outputs and the database of
    /// the replay line by line.
    @Test func smallWindowsAndAnyWorkersGiveTheDatabaseOfALineByLineReplay() throws {
        let expected = try Self.expectTheDatabaseOfALineByLineReplay(try Self.lines())
        let late = expected.outputs.filter { $0.contains("\"user\":\"late\"") }
        #expect(late.count == 3 && late[0].contains("\"ok\":false") && !late[1].contains("\"ok\":false"), "\(late)")
        // `early` was created before `late`, which appears first.
        #expect(expected.dump.contains("\"early\""))
    }

    /// An Earned event refused once its time passed (the days rolled over, the economy, summaries
    /// and event log written, then the event refused) leaves nothing: the rows its user's records
    /// wrote for it are dropped, as the line-by-line replay's transaction is rolled back.
    @Test func anEventRefusedAfterItsTimePassedWritesNothing() throws {
        let earned = [
            #"{"at": "2026-02-02T08:00:00Z", "user": "e", "type": "settings", "timezone": "UTC"}"#,
            #"{"at": "2026-02-02T08:00:40Z", "user": "e", "type": "earned_habit", "habit": "stretch", "reward_credits": 5}"#,
            #"{"at": "2026-02-02T08:05:00Z", "user": "e", "type": "earned_habit_completion", "habit": "stretch"}"#,
            #"{"at": "2026-02-04T09:35:00Z", "user": "e", "type": "quest_complete", "app": "android:com.instagram.android"}"#,
            #"{"at": "2026-02-04T09:40:00Z", "user": "e", "type": "earned_habit_completion", "habit": "stretch"}"#,
            #"{"at": "2026-02-06T09:35:00Z", "user": "e", "type": "quest_complete", "app": "android:com.instagram.android"}"#,
        ]
        var lines = try Self.lines()
        for (i, line) in earned.enumerated() { lines.insert(Array(line.utf8), at: 3 + 4 * i) }
        let expected = try Self.expectTheDatabaseOfALineByLineReplay(lines)
        let outputs = expected.outputs.filter { $0.contains("\"user\":\"e\"") }
        #expect(outputs.count == 6 && outputs[3].contains("\"ok\":false") && outputs[5].contains("\"ok\":false"), "\(outputs)")
        #expect(!outputs[4].contains("\"ok\":false"), "\(outputs[4])")
        // Line 5 rolled the days over to the 4th; nothing of the 6th, whose event was refused.
        let rollovers = expected.dump.split(separator: "\n").filter { $0.contains("DAY_ROLLOVER") && $0.contains("| \"UTC\" |") }
        #expect(rollovers.contains { $0.contains("/2026-02-04/") }, "\(rollovers)")
        #expect(!rollovers.contains { $0.contains("/2026-02-05/") || $0.contains("/2026-02-06/") }, "\(rollovers)")
    }

    /// Replays `lines` line by line, then in windows of 7 lines on 1 to 3 workers and in one
    /// window on 2 (where a user's rows set at several of its events are written once), each into
    /// a real SQLite file, and expects the same outputs, status and database; returns the outputs
    /// and the dump.
    static func expectTheDatabaseOfALineByLineReplay(_ lines: [[UInt8]]) throws -> (outputs: [String], dump: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallel-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = StoreOptions(deviceID: "x")
        let rules = try RuleSet.load(RuleFixture.rulesFolder.path)
        let sequentialPath = Self.path("sequential.sqlite", in: folder)
        var expected: [String] = []
        let expectedStatus: Replay.Status
        do {
            let store = try Store.open(path: sequentialPath, options: options)
            defer { try? store.close() }
            let sequential = Replay(engine: Engine(store: store, rules: rules))
            var rest = lines.makeIterator()
            expectedStatus = sequential.run(next: { rest.next() }, writeValue: { expected.append($0.description) })
        }
        let expectedDump = try Self.dump(sequentialPath)
        for (jobs, window) in [(1, 7), (2, 7), (3, 7), (2, 100_000)] {
            var parallelOptions = ParallelReplay.Options(jobs: jobs)
            parallelOptions.windowLines = window
            parallelOptions.journal = true
            let parallel = try ParallelReplay(rules: try rules.snapshot.load(), options: parallelOptions)
            let path = Self.path("parallel-\(jobs)-\(window).sqlite", in: folder)
            var got: [String] = []
            var windows = 0
            let status: Replay.Status
            do {
                let store = try Store.open(path: path, options: options)
                defer { try? store.close() }
                var rest = lines.makeIterator()
                status = try parallel.run(
                    into: store, next: { rest.next() }, write: { got.append($0.text) }, windowEnd: { windows += 1 })
            }
            #expect(got == expected, "\(jobs) jobs, windows of \(window)")
            #expect(status == expectedStatus)
            #expect(windows == (lines.count + window - 1) / window)
            #expect(try Self.dump(path) == expectedDump, "\(jobs) jobs, windows of \(window)")
        }
        return (expected, expectedDump)
    }

    /// The users of each window are written before its lines are handed over: at each window's
    /// end, the database holds every event of the lines handed over, and nothing of a line not
    /// read yet (the next window may be written already).
    @Test func eachWindowIsCommittedBeforeItsLinesAreHandedOver() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallel-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = try Self.lines()
        var options = ParallelReplay.Options(jobs: 2)
        options.windowLines = 11
        options.journal = true
        let parallel = try ParallelReplay(rules: try RuleSet.load(RuleFixture.rulesFolder.path), options: options)
        let store = try Store.open(path: Self.path("run.sqlite", in: folder))
        defer { try? store.close() }
        var handed: [JSONValue] = []
        var read = 0
        // The users the lines read so far name.
        var named: Set<String> = []
        var rest = lines.makeIterator()
        try parallel.run(
            into: store,
            next: { () -> [UInt8]? in
                let line = rest.next()
                if let line {
                    read += 1
                    if case .event(let event) = Replay.line(line, number: read) { named.insert(event.user) }
                }
                return line
            }, write: { handed.append($0.value) },
            windowEnd: {
                // Every user an applied line handed over names is in the database, with its time
                // passed up to that line's event at least; and no user the lines read do not name.
                var users: Set<String> = []
                for out in handed where out["ok"] == .bool(true) {
                    guard case .string(let user)? = out["user"], case .string(let at)? = out["at"] else { continue }
                    users.insert(user)
                    let row = try? store.read { try $0.engineState(named: user) }
                    #expect((row?.processedUntil ?? -1) >= Timestamp(at)!.millis, "\(user) at \(at)")
                }
                let stored = (try? store.users().count) ?? -1
                #expect(stored >= users.count && stored <= named.count)
                #expect((try? store.checkInvariants()) == [])
            })
        #expect(read == lines.count && !handed.isEmpty)
    }
}

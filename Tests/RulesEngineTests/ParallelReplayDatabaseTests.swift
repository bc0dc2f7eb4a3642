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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallel-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = try Self.lines()
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
        let late = expected.filter { $0.contains("\"user\":\"late\"") }
        #expect(late.count == 3 && late[0].contains("\"ok\":false") && !late[1].contains("\"ok\":false"), "\(late)")
        let expectedDump = try Self.dump(sequentialPath)
        // `early` was created before `late`, which appears first.
        #expect(expectedDump.contains("\"early\""))
        for jobs in 1...3 {
            var parallelOptions = ParallelReplay.Options(jobs: jobs)
            parallelOptions.windowLines = 7
            parallelOptions.journal = true
            let parallel = try ParallelReplay(rules: try rules.snapshot.load(), options: parallelOptions)
            let path = Self.path("parallel-\(jobs).sqlite", in: folder)
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
            #expect(got == expected, "\(jobs) jobs")
            #expect(status == expectedStatus)
            #expect(windows == (lines.count + 6) / 7)
            #expect(try Self.dump(path) == expectedDump, "\(jobs) jobs")
        }
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

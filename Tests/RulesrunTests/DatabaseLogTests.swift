import Foundation
import GRDB
import RulesStore
import Testing

/// A database of rulesrun read as the event log it implies (docs/analyze.md, "A database as the
/// log"): `analyze DB.sqlite` gives the figures `analyze` gives on the log that wrote it, `rulesrun
/// events` prints that log, and a replay of it writes the rows again. What the rows cannot give
/// back is counted, never guessed; a file that is not such a database is refused, naming it.
@Suite struct DatabaseLogTests {
    /// The steady persona (examples/personas) without Earned and without paid users: the events of
    /// its apps (settings, commitments, check-ins, habit tasks and completions, MIGA) all leave rows
    /// a database gives back.
    static func persona() throws -> String {
        let steady = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("examples/personas/steady.lua"), encoding: .utf8)
        let parts = steady.components(separatedBy: "\n  earned = {")
        #expect(parts.count == 2)
        return parts[0].replacingOccurrences(of: "paid_share = 0.3,", with: "paid_share = 0,") + "\n}\n"
    }

    /// The log `simulate --events` wrote, without the ticks a database cannot show: each user's
    /// ticks but its last (time passing leaves no row; the last is the time the engine reached).
    static func withoutHiddenTicks(_ log: String) -> (text: String, events: Int) {
        let lines = log.split(separator: "\n").map(String.init)
        func user(_ line: String) -> String { line.components(separatedBy: "\"user\":\"")[1].components(separatedBy: "\"")[0] }
        var last: [String: Int] = [:]
        for (i, line) in lines.enumerated() { last[user(line)] = i }
        let kept = lines.enumerated().filter { i, line in !line.contains("\"type\":\"tick\"") || last[user(line)] == i }.map(\.1)
        return (kept.joined(separator: "\n") + "\n", kept.count)
    }

    /// `report` as JSON without the keys that name the input (`events`) or count its lines (`events_read`).
    static func figures(_ report: String) throws -> NSDictionary {
        var object = try AnalyzeCommandTests.object(report)
        object["events"] = nil
        object["events_read"] = nil
        return object as NSDictionary
    }

    @Test func aRolloutsDatabaseAnalysedGivesTheFiguresOfItsLogAndItsShardsMergeToTheWhole() throws {
        let dir = try BundleExperimentCommandTests.folder()
        let built = try CLI.run(BundleExperimentCommandTests.build + ["--allocation", "control=50%,lenient=50%"], in: dir)
        #expect(built.status == 0, "\(built.stderr)")
        try Self.persona().write(to: dir.appendingPathComponent("p.lua"), atomically: true, encoding: .utf8)
        let simulated = try CLI.run(
            [
                "simulate", "14d", "--users", "50", "--rules", "x.bundle", "--persona", "p.lua", "--db", "x.sqlite", "--events",
                "e.jsonl",
            ],
            in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fromDatabase = try CLI.run(["analyze", "x.sqlite", "--rules", "x.bundle", "--format", "json"], in: dir)
        #expect(fromDatabase.status == 0, "\(fromDatabase.stderr)")
        let fromLog = try CLI.run(["analyze", "e.jsonl", "--rules", "x.bundle", "--format", "json"], in: dir)
        #expect(fromLog.status == 0, "\(fromLog.stderr)")
        // Every figure is the log's; the events read are the log's less the ticks no row shows.
        #expect(try Self.figures(fromDatabase.stdout) == Self.figures(fromLog.stdout))
        let log = try String(contentsOf: dir.appendingPathComponent("e.jsonl"), encoding: .utf8)
        let visible = Self.withoutHiddenTicks(log)
        let report = try AnalyzeCommandTests.object(fromDatabase.stdout)
        #expect(report["events_read"] as? Int == visible.events)
        #expect(report["events"] as? String == "x.sqlite")
        #expect((report["users"] as? [String: Int])?.values.reduce(0, +) == 50)
        #expect((report["problems"] as? [String: Any])?.isEmpty == true, "\(report["problems"] ?? "")")
        // The log `rulesrun events` prints is that log: the same report, its events read included.
        let printed = try CLI.run(["events", "x.sqlite", "--out", "db.jsonl"], in: dir)
        #expect(printed.status == 0 && printed.stdout.isEmpty && printed.stderr.isEmpty, "\(printed.stderr)")
        let fromPrinted = try CLI.run(["analyze", "db.jsonl", "--rules", "x.bundle", "--format", "json"], in: dir)
        var expected = try AnalyzeCommandTests.object(fromDatabase.stdout)
        expected["events"] = "db.jsonl"
        #expect(try AnalyzeCommandTests.object(fromPrinted.stdout) as NSDictionary == expected as NSDictionary)
        // Shards of the database merge to the whole, byte for byte; jobs change nothing.
        for i in 1...2 {
            let shard = try CLI.run(
                ["analyze", "x.sqlite", "--rules", "x.bundle", "--format", "json", "--shard", "\(i)/2", "--out", "s\(i).json"],
                in: dir)
            #expect(shard.status == 0, "\(shard.stderr)")
        }
        let merged = try CLI.run(["merge", "s1.json", "s2.json", "--format", "json"], in: dir)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == fromDatabase.stdout)
        let oneJob = try CLI.run(["analyze", "x.sqlite", "--rules", "x.bundle", "--format", "json", "--jobs", "1"], in: dir)
        #expect(oneJob.stdout == fromDatabase.stdout)
        let table = try CLI.run(["analyze", "x.sqlite", "--rules", "x.bundle", "--days", "7"], in: dir)
        #expect(table.status == 0 && table.stdout.hasPrefix("analyze x.sqlite: experiment escalation-2026"), "\(table.stdout)")
        // A corrupt database is refused, naming it; a user whose rows contradict the time its
        // engine reached is counted, named and left out of every arm.
        try Self.corrupt(dir.appendingPathComponent("x.sqlite"), into: dir.appendingPathComponent("corrupt.sqlite"))
        let corrupt = try CLI.run(["analyze", "corrupt.sqlite", "--rules", "x.bundle"], in: dir)
        #expect(corrupt.status == 2 && corrupt.stderr.contains("corrupt.sqlite: cannot be read"), "\(corrupt.stderr)")
        try FileManager.default.copyItem(at: dir.appendingPathComponent("x.sqlite"), to: dir.appendingPathComponent("moved.sqlite"))
        try Self.moveMIGA(ofUser: 3, in: dir.appendingPathComponent("moved.sqlite"))
        let moved = try CLI.run(["analyze", "moved.sqlite", "--rules", "x.bundle", "--format", "json"], in: dir)
        #expect(moved.status == 0, "\(moved.stderr)")
        let problems = try AnalyzeCommandTests.object(moved.stdout)["problems"] as? [String: [String: Any]]
        #expect(problems?["inconsistent_rows"]?["count"] as? Int == 1, "\(moved.stdout)")
        #expect(
            (problems?["inconsistent_rows"]?["examples"] as? [String])?.first?.hasPrefix("u3: a miga at ") == true, "\(moved.stdout)")
        #expect((try AnalyzeCommandTests.object(moved.stdout)["users"] as? [String: Int])?.values.reduce(0, +) == 49)
        // A database without users is an error.
        try "".write(to: dir.appendingPathComponent("none.jsonl"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["replay", "none.jsonl", "--db", "none.sqlite"], in: dir).status == 0)
        let noUsers = try CLI.run(["analyze", "none.sqlite", "--rules", "x.bundle"], in: dir)
        #expect(noUsers.status == 2 && noUsers.stderr.contains("none.sqlite: no users"), "\(noUsers.stderr)")
    }

    /// A database written by a replay, and the rows its printed log writes again.
    static func replayed(
        _ log: String, in dir: URL, rules: String = BundleCommandTests.rules
    ) throws -> (printed: String, dump: String) {
        try log.write(to: dir.appendingPathComponent("in.jsonl"), atomically: true, encoding: .utf8)
        let first = try CLI.run(["replay", "in.jsonl", "--rules", rules, "--db", "a.sqlite"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let printed = try CLI.run(["events", "a.sqlite", "--out", "out.jsonl"], in: dir)
        #expect(printed.status == 0, "\(printed.stderr)")
        let again = try CLI.run(["replay", "out.jsonl", "--rules", rules, "--db", "b.sqlite"], in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        func dump(_ name: String) throws -> String {
            let store = try Store.open(path: dir.appendingPathComponent(name).path)
            defer { try? store.close() }
            // A new database's device id is its own.
            return try store.dump().split(separator: "\n").filter { !$0.hasPrefix("\"device_id\" |") }.joined(separator: "\n")
        }
        #expect(try dump("a.sqlite") == dump("b.sqlite"))
        return (try String(contentsOf: dir.appendingPathComponent("out.jsonl"), encoding: .utf8), try dump("a.sqlite"))
    }

    @Test func aSimulatedDatabasesLogReplayedWritesItsRowsAgain() throws {
        let dir = try CLI.folder(["p.lua": try Self.persona()])
        let simulated = try CLI.run(
            [
                "simulate", "14d", "--users", "30", "--rules", BundleCommandTests.rules, "--persona", "p.lua", "--db", "x.sqlite",
                "--events",
                "e.jsonl",
            ], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let printed = try CLI.run(["events", "x.sqlite", "--out", "db.jsonl"], in: dir)
        #expect(printed.status == 0, "\(printed.stderr)")
        let replayed = try CLI.run(["replay", "db.jsonl", "--rules", BundleCommandTests.rules, "--db", "y.sqlite"], in: dir)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        func dump(_ name: String) throws -> String {
            let store = try Store.open(path: dir.appendingPathComponent(name).path)
            defer { try? store.close() }
            return try store.dump().split(separator: "\n").filter { !$0.hasPrefix("\"device_id\" |") }.joined(separator: "\n")
        }
        // Every table, every row (the simulation's device id aside).
        let original = try dump("x.sqlite")
        #expect(original.contains("## pressure_commitment") && original.contains("## miga_usage_event"))
        #expect(try dump("y.sqlite") == original)
    }

    @Test func eachKindOfHabitAndMIGAEventIsGivenBackAsItsRowsHoldIt() throws {
        let dir = try CLI.folder([:])
        let log = """
            {"at":"2026-03-02T07:00:00Z","user":"h1","type":"settings","timezone":"Europe/Berlin"}
            {"at":"2026-03-02T07:01:00Z","user":"h1","type":"habit_task","task":"water","title":"Drink water","frequency":"times_in_days","times":3,"days":7,"goal_type":"cups","goal_value":8,"goal_unit":"cups","times_per_day":2}
            {"at":"2026-03-02T07:02:00Z","user":"h1","type":"habit_task","task":"run","frequency":"specificDays","scheduled_days":[1,3,5],"start_date":"2026-03-02","goal_direction":"at_most","goal_type":"distance","goal_value":12,"goal_unit":"km"}
            {"at":"2026-03-02T08:00:00Z","user":"h1","type":"habit_completion","task":"water","value":3}
            {"at":"2026-03-02T09:00:00Z","user":"h1","type":"habit_skip","task":"run","day":"2026-03-04"}
            {"at":"2026-03-03T09:00:00Z","user":"h1","type":"habit_freeze","task":"run","action":"equip"}
            {"at":"2026-03-04T10:00:00Z","user":"h1","type":"habit_freeze","task":"water","action":"use"}
            {"at":"2026-03-04T11:00:00Z","user":"h1","type":"miga","event":"exit_to_focus","app":"Instagram","pause_seconds":12.5}
            {"at":"2026-03-04T11:30:00Z","user":"h1","type":"habit_completion","task":"water"}
            {"at":"2026-03-04T11:31:00Z","user":"h1","type":"habit_uncheck","task":"water"}
            {"at":"2026-03-04T11:40:00Z","user":"h1","type":"exposure","experiment":"onboarding","arm":"b","revision":2}
            {"at":"2026-03-04T11:41:00Z","user":"h1","type":"exposure","experiment":"onboarding","arm":"b","revision":2}
            {"at":"2026-03-05T11:00:00Z","user":"h1","type":"tick"}
            {"at":"2026-03-02T12:00:00Z","user":"t1","type":"tick"}
            {"at":"2026-03-03T12:00:00Z","user":"t1","type":"tick"}
            {"at":"2026-03-04T12:00:00Z","user":"t1","type":"tick"}

            """
        let (printed, _) = try Self.replayed(log, in: dir)
        // The completion unchecked and the uncheck left no row, nor did the repeated exposure and
        // t1's middle tick; t1's first and last ticks are the creation and the time reached.
        #expect(
            printed == """
                {"at":"2026-03-02T07:00:00Z","user":"h1","type":"settings","timezone":"Europe/Berlin","personality_mode":"PROFESSIONAL","notifications_enabled":false}
                {"at":"2026-03-02T07:01:00Z","user":"h1","type":"habit_task","task":"water","title":"Drink water","frequency":"timesInDays","times_per_day":2,"times":3,"days":7,"goal_type":"cups","goal_value":8.0,"goal_unit":"cups"}
                {"at":"2026-03-02T07:02:00Z","user":"h1","type":"habit_task","task":"run","frequency":"specificDays","scheduled_days":[1,3,5],"goal_type":"distance","goal_value":12.0,"goal_unit":"km","goal_direction":"at_most","start_date":"2026-03-02"}
                {"at":"2026-03-02T08:00:00Z","user":"h1","type":"habit_completion","task":"water","value":3.0}
                {"at":"2026-03-02T09:00:00Z","user":"h1","type":"habit_skip","task":"run","day":"2026-03-04"}
                {"at":"2026-03-03T09:00:00Z","user":"h1","type":"habit_freeze","task":"run","action":"equip","day":"2026-03-03"}
                {"at":"2026-03-04T10:00:00Z","user":"h1","type":"habit_freeze","task":"water","action":"use","day":"2026-03-04"}
                {"at":"2026-03-04T11:00:00Z","user":"h1","type":"miga","event":"exit_to_focus","app":"Instagram","pause_seconds":12.5}
                {"at":"2026-03-04T11:40:00Z","user":"h1","type":"exposure","experiment":"onboarding","arm":"b","revision":2}
                {"at":"2026-03-05T11:00:00Z","user":"h1","type":"tick"}
                {"at":"2026-03-02T12:00:00Z","user":"t1","type":"tick"}
                {"at":"2026-03-04T12:00:00Z","user":"t1","type":"tick"}

                """)
        let one = try CLI.run(["events", "a.sqlite", "--user", "t1"], in: dir)
        #expect(one.stdout == printed.split(separator: "\n").suffix(2).joined(separator: "\n") + "\n", "\(one.stdout)")
        let none = try CLI.run(["events", "a.sqlite", "--user", "nobody"], in: dir)
        #expect(none.status == 2 && none.stderr.contains("a.sqlite: no user named nobody"), "\(none.stderr)")
    }

    @Test func pressureDaysAreGivenBackWithTheirRows() throws {
        let dir = try CLI.folder([:])
        // late: created after its first deadline (that day does not count), an edited commitment,
        // a commitment never checked in, one still pending; m1: Pressure from its third day (the
        // engine counts its days from its first event all the same).
        let log = """
            {"at":"2026-03-02T10:00:00Z","user":"late","type":"settings","commitment_deadline":"09:00","checkin_window_close":"22:00","notifications_enabled":true}
            {"at":"2026-03-03T07:00:00Z","user":"late","type":"commitment","text":"Ship"}
            {"at":"2026-03-03T07:30:00Z","user":"late","type":"commitment","text":"Ship it"}
            {"at":"2026-03-03T12:00:00Z","user":"late","type":"check_in","result":"YES"}
            {"at":"2026-03-04T08:00:00Z","user":"late","type":"commitment","text":"Again"}
            {"at":"2026-03-05T07:00:00Z","user":"late","type":"commitment","text":"Today"}
            {"at":"2026-03-05T08:00:00Z","user":"late","type":"tick"}
            {"at":"2026-03-02T08:00:00Z","user":"m1","type":"miga","event":"exit_to_focus","app":"X"}
            {"at":"2026-03-04T07:00:00Z","user":"m1","type":"commitment","text":"Later"}
            {"at":"2026-03-04T12:00:00Z","user":"m1","type":"check_in","result":"NO"}

            """
        let (printed, dump) = try Self.replayed(log, in: dir)
        #expect(dump.contains("\"Ship it\"") && !dump.contains("\"Ship\" "), "\(dump)")
        let lines = printed.split(separator: "\n").map(String.init)
        #expect(lines.count == 9, "\(printed)")
        // A commitment at the last millisecond before its deadline, its last text; the pending one
        // at the time the engine reached.
        #expect(lines[1] == #"{"at":"2026-03-03T08:59:59.999Z","user":"late","type":"commitment","text":"Ship it"}"#)
        #expect(lines[4] == #"{"at":"2026-03-05T08:00:00Z","user":"late","type":"commitment","text":"Today"}"#)
        #expect(lines[5].hasPrefix(#"{"at":"2026-03-02T08:00:00Z","user":"m1","type":"settings","commitment_deadline":"09:00""#))
    }

    @Test func eventsTheRowsCannotGiveBackLeaveTheirUserOutNamed() throws {
        let dir = try CLI.folder([:])
        // p1: a subscription and a shield (their times are not kept); b1: a completion for a past
        // day (recorded at that day's end, its event later); the simulated default persona uses
        // Earned, whose tables keep state, not events.
        let log = """
            {"at":"2026-03-02T06:30:00Z","user":"p1","type":"commitment","text":"Write"}
            {"at":"2026-03-02T06:40:00Z","user":"p1","type":"subscription","tier":"PAID"}
            {"at":"2026-03-02T09:30:00Z","user":"p1","type":"check_in","result":"NO"}
            {"at":"2026-03-02T09:40:00Z","user":"p1","type":"shield"}
            {"at":"2026-03-02T12:00:00Z","user":"b1","type":"habit_task","task":"read"}
            {"at":"2026-03-03T12:00:00Z","user":"b1","type":"habit_completion","task":"read","for_day":"2026-03-02"}
            {"at":"2026-03-02T12:00:00Z","user":"k1","type":"settings","timezone":"Asia/Tokyo"}
            {"at":"2026-03-03T12:00:00Z","user":"k1","type":"settings","timezone":"Europe/Paris"}
            {"at":"2026-03-03T12:00:00Z","user":"ok","type":"miga","event":"proceed_to_app","app":"Reddit"}
            {"at":"2026-03-02T08:00:00Z","user":"d1","type":"settings","day_starts_at":"03:00"}

            """
        try log.write(to: dir.appendingPathComponent("in.jsonl"), atomically: true, encoding: .utf8)
        let rules = CLI.packageRoot.appendingPathComponent("examples/loop-habits").path  // completions for past days
        let replayed = try CLI.run(["replay", "in.jsonl", "--rules", rules, "--db", "a.sqlite"], in: dir)
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        let printed = try CLI.run(["events", "a.sqlite"], in: dir)
        #expect(printed.status == 0)
        #expect(
            printed.stdout == """
                # p1: left out: its rows hold events the database cannot give back: 1 shield, 1 subscription
                # b1: left out: its rows hold events the database cannot give back: 1 habit_completion for a past day (for_day)
                # k1: left out: its rows hold events the database cannot give back: 1 settings changed after the user's first event
                {"at":"2026-03-03T12:00:00Z","user":"ok","type":"miga","event":"proceed_to_app","app":"Reddit","pause_seconds":30.0}
                # d1: left out: its rows hold events the database cannot give back: 1 settings day_starts_at

                """, "\(printed.stdout)")
        #expect(printed.stderr.contains("a.sqlite: 4 of 5 users left out (marked by # lines)"), "\(printed.stderr)")
        let dir2 = try CLI.folder([:])
        let earned = try CLI.run(["simulate", "3d", "--users", "4", "--db", "e.sqlite"], in: dir2)
        #expect(earned.status == 0, "\(earned.stderr)")
        let leftOut = try CLI.run(["events", "e.sqlite"], in: dir2)
        #expect(
            leftOut.stdout.contains("# u1: left out: its rows hold events the database cannot give back: 1 Earned events"),
            "\(leftOut.stdout)")
    }

    /// What the reader of a database refuses (`events` here; `analyze` reads through the same
    /// ``DatabaseLog``, and the rollout test above checks that it passes the refusal on).
    @Test func aFileThatIsNotADatabaseOfRulesrunIsRefusedNamingItAndAnInconsistentUserIsCounted() throws {
        let dir = try CLI.folder(["notes.txt": "hello\n"])
        func refused(_ name: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let result = try CLI.run(["events", name], in: dir)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(name)", sourceLocation: sourceLocation)
            #expect(result.stderr.contains(message), "\(name): \(result.stderr)", sourceLocation: sourceLocation)
        }
        try refused("notes.txt", "notes.txt: not an SQLite database (it does not begin with SQLite's header")
        try refused("missing.sqlite", "missing.sqlite: no such file")
        // A database of rulesrun (two users of the default rules) made hostile in turn.
        let log = """
            {"at":"2026-03-02T12:00:00Z","user":"u1","type":"miga","event":"exit_to_focus","app":"Reddit"}
            {"at":"2026-03-02T12:00:00Z","user":"u2","type":"miga","event":"exit_to_focus","app":"Reddit"}

            """
        try log.write(to: dir.appendingPathComponent("in.jsonl"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["replay", "in.jsonl", "--db", "good.sqlite"], in: dir).status == 0)
        let good = try Data(contentsOf: dir.appendingPathComponent("good.sqlite"))
        try good.prefix(8192).write(to: dir.appendingPathComponent("truncated.sqlite"))
        try refused("truncated.sqlite", "truncated.sqlite: truncated: its header gives")
        try Self.corrupt(dir.appendingPathComponent("good.sqlite"), into: dir.appendingPathComponent("corrupt.sqlite"))
        try refused("corrupt.sqlite", "corrupt.sqlite: cannot be read")
        // Another program's database, an SQLite file without tables, a newer rulesrun's.
        try Self.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)", in: dir.appendingPathComponent("other.sqlite"))
        try Self.execute("PRAGMA user_version = 7", in: dir.appendingPathComponent("empty.sqlite"))
        try refused("other.sqlite", "other.sqlite is a SQLite database but not one of rulesrun (no meta table; tables: notes)")
        try refused("empty.sqlite", "empty.sqlite: an SQLite database without tables")
        try FileManager.default.copyItem(at: dir.appendingPathComponent("good.sqlite"), to: dir.appendingPathComponent("newer.sqlite"))
        try Self.execute("UPDATE meta SET value = '9' WHERE key = 'rulesrun_migration'", in: dir.appendingPathComponent("newer.sqlite"))
        try refused("newer.sqlite", "newer.sqlite has rulesrun migration level 9 (meta.rulesrun_migration), newer than the")
        // A database without users: no events.
        try "".write(to: dir.appendingPathComponent("none.jsonl"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["replay", "none.jsonl", "--db", "none.sqlite"], in: dir).status == 0)
        let noEvents = try CLI.run(["events", "none.sqlite"], in: dir)
        #expect(noEvents.status == 0 && noEvents.stdout.isEmpty, "\(noEvents.stderr)")
        // u2's row after the time the engine reached: named, u1 still given back.
        try FileManager.default.copyItem(at: dir.appendingPathComponent("good.sqlite"), to: dir.appendingPathComponent("moved.sqlite"))
        try Self.moveMIGA(ofUser: 2, in: dir.appendingPathComponent("moved.sqlite"))
        let moved = try CLI.run(["events", "moved.sqlite"], in: dir)
        #expect(moved.status == 0)
        #expect(
            moved.stdout.hasSuffix(
                "# u2: left out: a miga at 2026-03-03T12:00:00Z, after the time the engine had reached (2026-03-02T12:00:00Z)\n"),
            "\(moved.stdout)")
        #expect(moved.stdout.hasPrefix(#"{"at":"2026-03-02T12:00:00Z","user":"u1","type":"miga""#), "\(moved.stdout)")
        #expect(moved.stderr.contains("moved.sqlite: 1 of 2 users left out"), "\(moved.stderr)")
    }

    /// A copy of the database at `url` with pages 2–12 overwritten.
    static func corrupt(_ url: URL, into copy: URL) throws {
        var data = try Data(contentsOf: url)
        let end = min(data.count, 4096 * 12)
        data.replaceSubrange(4096..<end, with: Data(repeating: 0xFF, count: end - 4096))
        try data.write(to: copy)
    }

    /// Moves the MIGA rows of user `id` a day later: after the time its engine reached.
    static func moveMIGA(ofUser id: Int, in url: URL) throws {
        try execute("UPDATE miga_usage_event SET ts_utc_ms = ts_utc_ms + 86400000 WHERE user_id = \(id)", in: url)
    }

    /// Runs `sql` on the SQLite file at `url` (made when absent).
    static func execute(_ sql: String, in url: URL) throws {
        let queue = try DatabaseQueue(path: url.path)
        try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
        try queue.close()
    }
}

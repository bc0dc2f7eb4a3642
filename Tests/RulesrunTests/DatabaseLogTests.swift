import Foundation
import GRDB
import RulesStore
import Testing

/// A database of rulesrun read as the event log it implies (docs/analyze.md, "A database as the
/// log"): `analyze DB.sqlite` gives the figures `analyze` gives on the log that wrote it, `rulesrun
/// events` prints that log, and a replay of it writes the rows again. What the rows cannot give
/// back is counted, never guessed; a file that is not such a database is refused, naming it.
@Suite struct DatabaseLogTests {
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
        // The steady persona: every app, paid users with their subscriptions and shields.
        let steady = CLI.packageRoot.appendingPathComponent("examples/personas/steady.lua").path
        let simulated = try CLI.run(
            ["simulate", "14d", "--users", "50", "--rules", "x.bundle", "--persona", steady, "--db", "x.sqlite", "--events", "e.jsonl"],
            in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fromDatabase = try CLI.run(["analyze", "x.sqlite", "--rules", "x.bundle", "--format", "json"], in: dir)
        #expect(fromDatabase.status == 0, "\(fromDatabase.stderr)")
        let fromLog = try CLI.run(["analyze", "e.jsonl", "--rules", "x.bundle", "--format", "json"], in: dir)
        #expect(fromLog.status == 0, "\(fromLog.stderr)")
        // Every figure is the log's; the events read are fewer: those that left no row (ticks but
        // the last, the gate opened for an app nothing blocked, refused events) are not given back.
        #expect(try Self.figures(fromDatabase.stdout) == Self.figures(fromLog.stdout))
        let logged = try String(contentsOf: dir.appendingPathComponent("e.jsonl"), encoding: .utf8).split(separator: "\n").count
        let report = try AnalyzeCommandTests.object(fromDatabase.stdout)
        #expect((report["events_read"] as? Int).map { 0 < $0 && $0 < logged } == true, "\(report["events_read"] ?? "")")
        #expect(report["events"] as? String == "x.sqlite")
        #expect((report["users"] as? [String: Int])?.values.reduce(0, +) == 50)
        #expect((report["problems"] as? [String: Any])?.isEmpty == true, "\(report["problems"] ?? "")")
        // The log `rulesrun events` prints is that log: the same report, its events read included.
        let printed = try CLI.run(["events", "x.sqlite", "--out", "db.jsonl"], in: dir)
        #expect(printed.status == 0 && printed.stdout.isEmpty && printed.stderr.isEmpty, "\(printed.stderr)")
        let given = try String(contentsOf: dir.appendingPathComponent("db.jsonl"), encoding: .utf8).split(separator: "\n").count
        #expect(report["events_read"] as? Int == given)
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
        #expect(try dump("a.sqlite", in: dir) == dump("b.sqlite", in: dir))
        return (try String(contentsOf: dir.appendingPathComponent("out.jsonl"), encoding: .utf8), try dump("a.sqlite", in: dir))
    }

    /// Every table and row of the database `name` in `dir`, but its device id (a new database's is
    /// its own) and when A8's cleanup last ran (`engine_state`'s `cleanup`: it runs at the first
    /// event of a day, a tick included, and ticks leave no row).
    static func dump(_ name: String, in dir: URL) throws -> String {
        let store = try Store.open(path: dir.appendingPathComponent(name).path)
        defer { try? store.close() }
        return try store.dump().split(separator: "\n").filter { !$0.hasPrefix("\"device_id\" |") }
            .map { $0.replacingOccurrences(of: #"\\"cleanup\\":\{[^}]*\},"#, with: "", options: .regularExpression) }
            .joined(separator: "\n")
    }

    @Test func aSimulatedDatabasesLogReplayedWritesItsRowsAgain() throws {
        // The default cohort: every app, paid users with their subscriptions and shields, Earned's
        // modes, habits, focus sessions and unlock gate.
        let dir = try CLI.folder([:])
        let simulated = try CLI.run(["simulate", "14d", "--users", "40", "--db", "x.sqlite", "--events", "e.jsonl"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let printed = try CLI.run(["events", "x.sqlite", "--out", "db.jsonl"], in: dir)
        #expect(printed.status == 0 && printed.stderr.isEmpty, "\(printed.stderr)")
        let log = try String(contentsOf: dir.appendingPathComponent("db.jsonl"), encoding: .utf8)
        for type in [
            "subscription", "shield", "commitment", "check_in", "habit_task", "habit_completion", "miga", "distracting_apps", "mode",
            "earned_habit", "earned_habit_completion", "qr_key", "focus_start", "focus_end", "unlock_open", "unlock_choose",
            "unlock_cancel", "quest_complete",
        ] {
            #expect(log.contains("\"type\":\"\(type)\""), "no \(type) given back")
        }
        let replayed = try CLI.run(["replay", "db.jsonl", "--db", "y.sqlite"], in: dir)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        // Every table, every row (the simulation's device id and last cleanups aside).
        let original = try Self.dump("x.sqlite", in: dir)
        #expect(original.contains("## pressure_commitment") && original.contains("## unlock_attempt"))
        #expect(try Self.dump("y.sqlite", in: dir) == original)
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

    @Test func eachKindOfEarnedEventIsGivenBackAsItsRowsHoldIt() throws {
        let dir = try CLI.folder([:])
        // A mode with a display name, two windows and its own apps, one without; a habit renamed,
        // one inactive; focus sessions ended early and run out; at the gate a quest failed, one
        // cancelled, one cancelled by the gate opening again, an attempt cancelled, credits, an
        // emergency unlock granted then denied (one a day), a quest completed, and the gate opened
        // for an app nothing blocks (no row: not given back).
        let log = """
            {"at":"2026-03-02T07:00:00Z","user":"g1","type":"settings","timezone":"Europe/Berlin"}
            {"at":"2026-03-02T07:01:00Z","user":"g1","type":"distracting_apps","apps":["android:com.reddit.frontpage","android:com.instagram.android"]}
            {"at":"2026-03-02T07:02:00Z","user":"g1","type":"mode","mode":"work","name":"Deep work","priority":2,"strictness":"STRICT","windows":[{"days":[1,2,3,4,5],"start":"09:00","end":"12:00"},{"days":[1,2,3,4,5],"start":"08:00","end":"08:30"}],"blocked_apps":["android:com.reddit.frontpage"]}
            {"at":"2026-03-02T07:03:00Z","user":"g1","type":"mode","mode":"always","strictness":"GENTLE"}
            {"at":"2026-03-02T07:04:00Z","user":"g1","type":"earned_habit","habit":"walk","name":"Evening walk","reward_credits":20}
            {"at":"2026-03-02T07:05:00Z","user":"g1","type":"earned_habit","habit":"old","active":false}
            {"at":"2026-03-02T07:06:00Z","user":"g1","type":"qr_key","value":"desk-1"}
            {"at":"2026-03-02T07:10:00Z","user":"g1","type":"earned_habit_completion","habit":"walk"}
            {"at":"2026-03-02T07:20:00Z","user":"g1","type":"focus_start","minutes":30,"label":"Essay","strict":false,"blocked_apps":["android:com.instagram.android"]}
            {"at":"2026-03-02T07:35:00Z","user":"g1","type":"focus_end"}
            {"at":"2026-03-02T07:40:00Z","user":"g1","type":"focus_start","minutes":25}
            {"at":"2026-03-02T09:10:00Z","user":"g1","type":"unlock_open","app":"android:com.reddit.frontpage"}
            {"at":"2026-03-02T09:10:30Z","user":"g1","type":"unlock_choose","app":"android:com.reddit.frontpage","option":"QUEST_UNLOCK","quest_type":"BREATHING"}
            {"at":"2026-03-02T09:11:00Z","user":"g1","type":"quest_fail","app":"android:com.reddit.frontpage","reason":"TIMEOUT"}
            {"at":"2026-03-02T09:20:00Z","user":"g1","type":"unlock_open","app":"android:com.reddit.frontpage"}
            {"at":"2026-03-02T09:20:10Z","user":"g1","type":"unlock_choose","app":"android:com.reddit.frontpage","option":"QUEST_UNLOCK","quest_type":"BREATHING"}
            {"at":"2026-03-02T09:21:00Z","user":"g1","type":"quest_cancel","app":"android:com.reddit.frontpage"}
            {"at":"2026-03-02T09:30:00Z","user":"g1","type":"unlock_open","app":"android:com.reddit.frontpage"}
            {"at":"2026-03-02T09:30:10Z","user":"g1","type":"unlock_choose","app":"android:com.reddit.frontpage","option":"QUEST_UNLOCK","quest_type":"BREATHING"}
            {"at":"2026-03-02T09:31:00Z","user":"g1","type":"unlock_open","app":"android:com.reddit.frontpage"}
            {"at":"2026-03-02T09:31:20Z","user":"g1","type":"unlock_cancel","app":"android:com.reddit.frontpage"}
            {"at":"2026-03-02T09:40:00Z","user":"g1","type":"unlock_open","app":"android:com.reddit.frontpage"}
            {"at":"2026-03-02T09:40:10Z","user":"g1","type":"unlock_choose","app":"android:com.reddit.frontpage","option":"CREDITS_UNLOCK","minutes":5}
            {"at":"2026-03-02T10:00:00Z","user":"g1","type":"unlock_open","app":"android:com.reddit.frontpage"}
            {"at":"2026-03-02T10:00:10Z","user":"g1","type":"unlock_choose","app":"android:com.reddit.frontpage","option":"EMERGENCY_UNLOCK"}
            {"at":"2026-03-02T10:30:00Z","user":"g1","type":"unlock_open","app":"android:com.reddit.frontpage"}
            {"at":"2026-03-02T10:30:10Z","user":"g1","type":"unlock_choose","app":"android:com.reddit.frontpage","option":"EMERGENCY_UNLOCK"}
            {"at":"2026-03-02T10:40:00Z","user":"g1","type":"unlock_open","app":"android:com.reddit.frontpage"}
            {"at":"2026-03-02T10:40:10Z","user":"g1","type":"unlock_choose","app":"android:com.reddit.frontpage","option":"QUEST_UNLOCK","quest_type":"QR_SCAN"}
            {"at":"2026-03-02T10:42:00Z","user":"g1","type":"quest_complete","app":"android:com.reddit.frontpage"}
            {"at":"2026-03-02T13:00:00Z","user":"g1","type":"unlock_open","app":"android:com.reddit.frontpage"}
            {"at":"2026-03-02T15:00:00Z","user":"g1","type":"tick"}

            """
        let (printed, _) = try Self.replayed(log, in: dir)
        // The log itself, but the defaults written out, the list sorted, and the last opening
        // gone (nothing blocked the app: no row).
        var expected = log.split(separator: "\n").map(String.init)
        expected[0] = expected[0].replacingOccurrences(
            of: #""Europe/Berlin"}"#, with: #""Europe/Berlin","personality_mode":"PROFESSIONAL","notifications_enabled":false}"#)
        expected[1] = expected[1].replacingOccurrences(
            of: #"["android:com.reddit.frontpage","android:com.instagram.android"]"#,
            with: #"["android:com.instagram.android","android:com.reddit.frontpage"]"#)
        expected[3] = expected[3].replacingOccurrences(
            of: #""strictness":"GENTLE"}"#, with: #""priority":0,"strictness":"GENTLE","windows":[]}"#)
        expected[5] = expected[5].replacingOccurrences(of: #""active":false"#, with: #""reward_credits":5,"active":false"#)
        #expect(expected.remove(at: 30).contains("13:00:00Z"))
        #expect(printed == expected.joined(separator: "\n") + "\n", "\(printed)")
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
        // p1: a subscription and a shield (given back: the engine keeps their instants); b1: a
        // completion for a past day (recorded at that day's end, its event later); k1: settings
        // changed; d1: its own day start; e1, e2, e3: a mode and a habit changed after they were
        // defined, a mode's manual override, a list and a key set again (their rows keep the last
        // state only); r1: 34 days of Earned, rows older than 30 days possibly pruned by A8's cleanup.
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
            {"at":"2026-03-02T08:00:00Z","user":"e1","type":"mode","mode":"work","strictness":"STRICT","windows":[{"days":[1,2,3,4,5],"start":"09:00","end":"17:00"}]}
            {"at":"2026-03-02T09:00:00Z","user":"e1","type":"mode","mode":"work","priority":2}
            {"at":"2026-03-02T08:00:00Z","user":"e2","type":"mode","mode":"night","strictness":"GENTLE"}
            {"at":"2026-03-02T08:10:00Z","user":"e2","type":"mode_override","mode":"night","state":"FORCED_ON"}
            {"at":"2026-03-02T08:20:00Z","user":"e2","type":"earned_habit","habit":"walk"}
            {"at":"2026-03-02T08:30:00Z","user":"e2","type":"earned_habit","habit":"walk","reward_credits":7}
            {"at":"2026-03-02T08:00:00Z","user":"e3","type":"distracting_apps","apps":["android:a.b"]}
            {"at":"2026-03-02T08:10:00Z","user":"e3","type":"distracting_apps","apps":["android:c.d"]}
            {"at":"2026-03-02T08:20:00Z","user":"e3","type":"qr_key","value":"desk"}
            {"at":"2026-03-02T08:30:00Z","user":"e3","type":"qr_key","value":null}
            {"at":"2026-03-02T08:00:00Z","user":"r1","type":"earned_habit","habit":"walk"}
            {"at":"2026-04-05T08:00:00Z","user":"r1","type":"earned_habit_completion","habit":"walk"}

            """
        try log.write(to: dir.appendingPathComponent("in.jsonl"), atomically: true, encoding: .utf8)
        let rules = CLI.packageRoot.appendingPathComponent("examples/loop-habits").path  // completions for past days
        let replayed = try CLI.run(["replay", "in.jsonl", "--rules", rules, "--db", "a.sqlite"], in: dir)
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        let printed = try CLI.run(["events", "a.sqlite"], in: dir)
        #expect(printed.status == 0)
        let cannot = "left out: its rows hold events the database cannot give back:"
        #expect(
            printed.stdout == """
                {"at":"2026-03-02T06:30:00Z","user":"p1","type":"settings","commitment_deadline":"09:00","checkin_window_close":"22:00","timezone":"UTC","personality_mode":"PROFESSIONAL","notifications_enabled":false}
                {"at":"2026-03-02T06:40:00Z","user":"p1","type":"subscription","tier":"PAID"}
                {"at":"2026-03-02T08:59:59.999Z","user":"p1","type":"commitment","text":"Write"}
                {"at":"2026-03-02T09:30:00Z","user":"p1","type":"check_in","result":"NO"}
                {"at":"2026-03-02T09:40:00Z","user":"p1","type":"shield"}
                # b1: \(cannot) 1 habit_completion for a past day (for_day)
                # k1: \(cannot) 1 settings changed after the user's first event
                {"at":"2026-03-03T12:00:00Z","user":"ok","type":"miga","event":"proceed_to_app","app":"Reddit","pause_seconds":30.0}
                # d1: \(cannot) 1 settings day_starts_at
                # e1: \(cannot) 1 mode changed after it was defined (mode, mode_override)
                # e2: \(cannot) 1 earned_habit changed after it was defined, 1 mode changed after it was defined (mode, mode_override)
                # e3: \(cannot) 1 distracting_apps set again (its rows keep the last value), 1 qr_key set again (its rows keep the last value)
                # r1: \(cannot) 1 Earned rows older than the cleanup keeps (quests.lua retention)

                """, "\(printed.stdout)")
        #expect(printed.stderr.contains("a.sqlite: 7 of 9 users left out (marked by # lines)"), "\(printed.stderr)")
        // A database whose engine did not keep the instants of subscriptions and shields (as
        // before it did): their users are left out, named.
        try Self.execute(
            "UPDATE engine_state SET state_json = json_remove(state_json, '$.subscriptions', '$.shields')",
            in: dir.appendingPathComponent("a.sqlite"))
        let older = try CLI.run(["events", "a.sqlite", "--user", "p1"], in: dir)
        #expect(older.stdout == "# p1: \(cannot) 1 shield, 1 subscription\n", "\(older.stdout)")
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

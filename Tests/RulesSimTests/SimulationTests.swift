import Foundation
import RulesEngine
import RulesModel
import RulesSim
import RulesStore
import Testing

@Suite struct SimulationTests {
    @Test func theReportAndTheDatabaseDoNotDependOnTheNumberOfJobs() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var reports: [String] = []
        var dumps: [String] = []
        for (jobs, chunk) in [(1, 5), (3, 2), (2, 100)] {
            let path = dir.appendingPathComponent("jobs\(jobs).sqlite").path
            var config = try SimTestSupport.config(jobs: jobs, database: path)
            config.chunkSize = chunk
            let report = try Simulation(config: config).run()
            reports.append(report.json())
            let store = try Store.open(path: path)
            dumps.append(try store.dump())
            #expect(try store.integrityCheck() == ["ok"])
            try store.close()
        }
        #expect(reports[0] == reports[1] && reports[1] == reports[2])
        // Written with a rollback journal, its read indexes built at the end (`StoreOptions.bulkLoad`),
        // the file has the schema of any other database, every index included.
        let fresh = try Store.open(path: dir.appendingPathComponent("fresh.sqlite").path)
        let schema = { (dump: String) in dump.components(separatedBy: "## schema\n").last! }
        #expect(schema(try fresh.dump()) == schema(dumps[0]))
        #expect(schema(dumps[0]).contains("CREATE INDEX idx_event_ts ON event_log(ts_utc_ms)"))
        #expect(dumps[0] == dumps[1] && dumps[1] == dumps[2])
        #expect(dumps[0].contains("## pressure_commitment"))
        // Earned's users too: their unlock attempts, and the economy in the report.
        #expect(SimTestSupport.rows(of: "unlock_attempt", in: dumps[0]).count > 0)
        #expect(reports[0].contains("\"unlocks\":{\"CREDITS\":"))
    }

    @Test func theShardsMergeIntoTheWholeRun() throws {
        let whole = try Simulation(config: try SimTestSupport.config(users: 23)).run()
        let shards = try (1...3).map { i in
            try Simulation(config: try SimTestSupport.config(users: 23, shard: Shard(index: i, count: 3))).run()
        }
        #expect(shards.map(\.userCount) == [7, 8, 8])
        // Through JSON, as `rulesrun merge` reads them, and in any order.
        let parsed = try shards.reversed().map { try SimulationReport(json: Data($0.json().utf8)) }
        let merged = try SimulationReport.merge(parsed)
        #expect(merged.json() == whole.json())
        #expect(merged.table() == whole.table())
        #expect(merged.days.map(\.earned) == whole.days.map(\.earned))
        #expect(ReportSummary(whole).earned.unlocks.total > 0)
        #expect(throws: SimulationError.self) { try SimulationReport.merge([shards[0], shards[2]]) }
        #expect(throws: SimulationError.self) { try SimulationReport.merge([shards[0], shards[0]]) }
    }

    @Test func theReportsCountsAreTheDatabasesRows() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("count.sqlite").path
        let report = try Simulation(config: try SimTestSupport.config(days: 10, users: 20, database: path)).run()
        let summary = ReportSummary(report)
        let store = try Store.open(path: path)
        let dump = try store.dump()
        #expect(try store.checkInvariants() == [])
        try store.close()

        let commitments = SimTestSupport.rows(of: "pressure_commitment", in: dump)
        let first = SimulationConfig.defaultStart.rawValue, last = SimulationConfig.defaultStart.adding(days: 9)!.rawValue
        let inRange = commitments.filter { ($0["day_id"] ?? "").contains(first.prefix(4)) && $0["day_id"].map { $0 >= "\"\(first)\"" && $0 <= "\"\(last)\"" } == true }
        func count(_ status: String) -> Int { inRange.filter { $0["status"] == "\"\(status)\"" }.count }
        #expect(summary.yes == count("YES"))
        #expect(summary.no == count("NO"))
        #expect(summary.missed == count("MISSED"))
        #expect(summary.yes + summary.no + summary.missed > 0)
        #expect(summary.shields == commitments.filter { $0["shield_used"] == "1" }.count)
        #expect(summary.reminders == SimTestSupport.rows(of: "pressure_notification", in: dump).count)
        let usage = SimTestSupport.rows(of: "miga_usage_event", in: dump)
        #expect(summary.exits == usage.filter { $0["event_type"] == "\"exit_to_focus\"" }.count)
        #expect(summary.habitDone == SimTestSupport.rows(of: "tracker_completion", in: dump).count)
        #expect(SimTestSupport.rows(of: "app_user", in: dump).count == 20)
        #expect(SimTestSupport.rows(of: "engine_state", in: dump).count == 20)
        // Every user is counted on every day, on one tier.
        #expect(report.days.allSatisfy { $0.users == 20 && $0.streaks.reduce(0, +) == 20 })
        #expect(summary.refused == 0)
    }

    @Test func appendingAddsTheSameCohortUnderNewIds() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("append.sqlite").path
        let first = try Simulation(config: try SimTestSupport.config(days: 3, users: 6, database: path)).run()
        var config = try SimTestSupport.config(days: 3, users: 6, database: path)
        config.append = true
        let second = try Simulation(config: config).run()
        #expect(first.json() == second.json())
        let store = try Store.open(path: path)
        let dump = try store.dump()
        try store.close()
        #expect(SimTestSupport.rows(of: "app_user", in: dump).count == 12)
        #expect(Set(SimTestSupport.rows(of: "engine_state", in: dump).compactMap { $0["name"] }).count == 12)
        // Without --append the file is replaced.
        _ = try Simulation(config: try SimTestSupport.config(days: 3, users: 6, database: path)).run()
        let again = try Store.open(path: path)
        #expect(SimTestSupport.rows(of: "app_user", in: try again.dump()).count == 6)
        try again.close()
    }

    @Test func aUserWhoNeverAnswersEndsOnTierThree() throws {
        let report = try Simulation(config: try SimTestSupport.config(days: 6, users: 5, mix: "ghost")).run()
        let summary = ReportSummary(report)
        #expect(summary.commitments == 0 && summary.yes == 0 && summary.no == 0)
        #expect(summary.missed == 5 * 6)
        // Default rules: one miss per tier, tier 3 from the third missed day on.
        #expect(report.days.map { $0.tiers } == [[0, 5, 0, 0], [0, 0, 5, 0], [0, 0, 0, 5], [0, 0, 0, 5], [0, 0, 0, 5], [0, 0, 0, 5]])
        #expect(summary.finalStreaks.streakPercentile(90) == 0)
    }

    @Test func theNativeReferenceGivesTheSameReportAsTheDefaultLuaRules() throws {
        var config = try SimTestSupport.config(days: 7, users: 12)
        let lua = try Simulation(config: config).run()
        config.reference = true
        let native = try Simulation(config: config).run()
        #expect(lua.days == native.days)
        #expect(lua.run.engine == "lua" && native.run.engine == "native")
    }

    @Test func anotherSeedGivesAnotherCohort() throws {
        let a = try Simulation(config: try SimTestSupport.config(users: 12, seed: 1)).run()
        let b = try Simulation(config: try SimTestSupport.config(users: 12, seed: 2)).run()
        #expect(a.days != b.days)
    }

    /// What `day()` returns is checked like the file: each probability, `yes + no` when it returns
    /// both, and a table it cannot read is named at its field. (The file is named as Lua's
    /// short_src names it: a long path is shortened at the front.)
    @Test(arguments: [("{ commit = 2 }", "day() returned commit: expected a probability between 0 and 1, found 2.0"),
                      ("{ yes = 0.9, no = 0.9 }", "day() returned yes + no must be at most 1 (the rest is no answer), found 1.8"),
                      ("(function() local t = { answer = {} } t.answer.again = t.answer return t end)()",
                       "answer.again: in the table returned by the function at line 5: a cycle: the table answer contains itself here")])
    func aPersonaDayFunctionThatFailsStopsTheRunWithItsLine(_ returned: String, _ expected: String) throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("broken-day.lua").path
        try """
            return {
              description = "Its day function returns what it must not",
              commit = 0.5,
              answer = { yes = 0.5, no = 0.1 },
              day = function(d)
                return \(returned)
              end,
            }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let simulation = try Simulation(config: try SimTestSupport.config(days: 2, users: 2, mix: path))
        let error = try #require(throws: PersonaError.self) { try simulation.run() }
        #expect(error.description.contains("broken-day.lua:5: \(expected) (in day() for u1 on 2026-01-05)"), "\(error)")
        #expect(error.description.hasSuffix("(in day() for u1 on 2026-01-05)"), "\(error)")
    }

    /// Variants of a shipped persona that the engine must accept every event of: a window
    /// closing at 23:59 (the late look and the shield ran into the next day), and quests slower
    /// than the rules allow (their completions came after they expired).
    @Test(arguments: [("checkin_window_close = \"22:00\"", "checkin_window_close = \"23:59\""),
                      ("minutes = { 1, 4 } },", "minutes = { 59, 60 } },")])
    func aPersonaAtTheEdgesOfTheRulesSendsNothingTheEngineRefuses(_ replacement: (String, String)) throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let steady = try String(contentsOfFile: SimTestSupport.personas + "/steady.lua", encoding: .utf8)
        #expect(steady.contains(replacement.0))
        var text = steady.replacingOccurrences(of: replacement.0, with: replacement.1)
        text = text.replacingOccurrences(of: "paid_share = 0.3", with: "paid_share = 1")
        let path = dir.appendingPathComponent("edge.lua").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let report = try Simulation(config: try SimTestSupport.config(days: 21, users: 40, mix: path)).run()
        #expect(report.days.map(\.refused).reduce(0, +) == 0)
        #expect(report.days.map(\.events).reduce(0, +) > 1000)
    }

    /// A change to Pressure's rules changes how many draws Pressure makes (its reminders); the
    /// habit tracker's and MIGA's days must stay as they were (they shared one stream).
    @Test func aPressureRuleChangeLeavesTheOtherAppsDaysAsTheyAre() throws {
        var config = try SimTestSupport.config(days: 14, users: 40)
        let before = try Simulation(config: config).run()
        config.rules = SimTestSupport.root.appendingPathComponent("examples/graduated-recovery").path
        let after = try Simulation(config: config).run()
        #expect(before.days.map(\.tiers) != after.days.map(\.tiers))
        #expect(before.days.map(\.habitDone) == after.days.map(\.habitDone))
        #expect(before.days.map(\.habitPlanned) == after.days.map(\.habitPlanned))
        #expect(before.days.map { [$0.exits, $0.deepens, $0.proceeds] } == after.days.map { [$0.exits, $0.deepens, $0.proceeds] })
    }

    /// `simulate --bench` measures SQLite alone on a run's rows (`SQLiteFloor`): the copy must hold
    /// exactly the rows the simulation wrote, with and without the constraints checked, and leave
    /// the simulation's file as it was.
    @Test func sqliteAloneCopiesEveryRowOfTheRun() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("run.sqlite").path
        _ = try Simulation(config: try SimTestSupport.config(days: 5, users: 12, database: path)).run()
        let withoutMeta = { (dump: String) in
            dump.components(separatedBy: "## ").filter { !$0.hasPrefix("meta ") && !$0.hasPrefix("grdb_migrations ") }.joined(separator: "## ")
        }
        let dumpOf = { (path: String) throws -> String in
            let store = try Store.open(path: path)
            defer { try? store.close() }
            return withoutMeta(try store.dump())
        }
        let original = try dumpOf(path)
        for checked in [true, false] {
            let copy = dir.appendingPathComponent("copy-\(checked).sqlite").path
            let floor = try SQLiteFloor.measure(copying: path, into: copy, checked: checked)
            #expect(floor.rows > 12 * 5)
            #expect(try dumpOf(copy) == original, "checked: \(checked)")
            Store.removeFiles(of: copy)
        }
        #expect(try dumpOf(path) == original)
    }
}

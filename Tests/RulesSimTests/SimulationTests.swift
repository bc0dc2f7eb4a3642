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

    /// More shards than users: some shards are empty (`users_from == users_to`); they overlap
    /// nothing, whatever the order they come in.
    /// Pacific/Apia skipped 2011-12-30: its users have no day then (no result, nothing refused),
    /// and the next day runs as any other; the shards of such a run still merge into it.
    @Test func aDateTheUsersZoneSkipsIsNoDayForThem() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("apia.lua").path
        let steady = try String(contentsOfFile: SimTestSupport.personas + "/steady.lua", encoding: .utf8)
        try steady.replacingOccurrences(of: "timezone = \"Europe/Paris\"", with: "timezone = \"Pacific/Apia\"")
            .write(toFile: path, atomically: true, encoding: .utf8)
        func config(_ shard: Shard) throws -> SimulationConfig {
            var c = try SimTestSupport.config(days: 4, users: 10, mix: path, shard: shard)
            c.start = try DayID("2011-12-28")
            return c
        }
        let whole = try Simulation(config: try config(.whole)).run()
        try whole.validate()
        let skipped = whole.days[2], next = whole.days[3]
        #expect(skipped.yes + skipped.no + skipped.missed == 0 && skipped.commitments == 0 && skipped.refused == 0)
        #expect(next.yes + next.no + next.missed == 10 && next.refused == 0 && next.commitments > 5)
        let shards = try (1...2).map { try Simulation(config: try config(Shard(index: $0, count: 2))).run() }
        let parsed = try shards.map { try SimulationReport(json: Data($0.json().utf8)) }
        #expect(try SimulationReport.merge(parsed).json() == whole.json())
    }

    @Test func emptyShardsMergeWithTheOthers() throws {
        let whole = try Simulation(config: try SimTestSupport.config(days: 3, users: 5)).run()
        let shards = try (1...8).map { i in
            try Simulation(config: try SimTestSupport.config(days: 3, users: 5, shard: Shard(index: i, count: 8))).run()
        }
        #expect(shards.map(\.userCount) == [0, 1, 0, 1, 1, 0, 1, 1])
        for order in [shards, shards.reversed()] {
            let parsed = try order.map { try SimulationReport(json: Data($0.json().utf8)) }
            let merged = try SimulationReport.merge(parsed)
            #expect(merged.json() == whole.json())
            #expect(merged.table() == whole.table())
            #expect(merged.csv() == whole.csv())
        }
        // Empty shards alone cover nobody; with --partial they are a report of no user.
        let empty = [shards[0], shards[2], shards[5]]
        let missing = try #require(throws: SimulationError.self) { try SimulationReport.merge(empty) }
        #expect(
            missing.message == "users 1–5 of the 5 are in none of the reports (a shard is missing; --partial merges a part of the cohort)")
        #expect(try SimulationReport.merge(empty, partial: true).userCount == 0)
    }

    /// `validate` holds for every real report, and refuses counts that no run can print, naming
    /// the field and what was expected.
    @Test func aReportWhoseCountsCannotBeRightIsRefusedNamingTheField() throws {
        let shard = try Simulation(config: try SimTestSupport.config(days: 4, users: 16, shard: Shard(index: 2, count: 2))).run()
        try shard.validate()
        #expect(shard.userCount == 8 && shard.days[1].earned.users > 0 && shard.days[1].earned.questsStarted > 0)
        let cases: [(String, (inout SimulationReport) -> Void)] = [
            (
                "days[1].yes: YES \(shard.days[1].yes + 1) + NO \(shard.days[1].no) + MISSED \(shard.days[1].missed) = 9 results, "
                    + "expected at most one for each of the day's 8 Pressure users", { $0.days[1].yes += 1 }
            ),
            ("days[1].habit_done: 999, expected at most habit_planned \(shard.days[1].habitPlanned)", { $0.days[1].habitDone = 999 }),
            ("days[1].max_reminders: 4, expected at most 3", { $0.days[1].maxReminders = 4 }),
            ("days[1].reminders: 1000000, expected at most max_reminders", { $0.days[1].reminders = 1_000_000 }),
            ("days[1].tiers: counts 9 users, but the report covers 8", { $0.days[1].tiers[0] += 1 }),
            ("days[1].tiers: expected 4 counts (tiers 0 to 3), found 3", { $0.days[1].tiers.removeLast() }),
            ("days[1].streak_histogram: counts 9 users, but the tiers count 8 (each Pressure user once)", { $0.days[1].streaks[0] += 1 }),
            ("days[1].shields: 9, expected at most the day's NO", { $0.days[1].shields = 9 }),
            (
                "days[1].earned_streak_histogram: counts 9 users, expected at most one for each of the day's \(shard.days[1].active) active users",
                { $0.days[1].earnedStreaks = [4, 5] }
            ),
            (
                "days[1].earned.balance_histogram: counts 9 Earned users, but the report covers 8 users",
                { $0.days[1].earned.balances[0] += 9 - $0.days[1].earned.users }
            ),
            (
                "days[1].earned.balance_histogram: counts \(shard.days[1].earned.users + 1) Earned users, but days[0] counts \(shard.days[0].earned.users)",
                { $0.days[1].earned.balances[0] += 1 }
            ),
            (
                "days[1].earned.choices: \(shard.days[1].earned.choices), expected at least the choices' outcomes: unlocks CREDITS 500",
                { $0.days[1].earned.unlocks[.credits] = 500 }
            ),
            (
                "days[1].earned.unlocks.QUEST: \(shard.days[1].earned.unlocks[.quest] + 1), expected the \(shard.days[1].earned.quests[.completed]) quests COMPLETED",
                { $0.days[1].earned.unlocks[.quest] += 1 }
            ),
            (
                "days[0].earned.quests: \(shard.days[0].earned.questsStarted + 1) quests ended by this day, expected at most the \(shard.days[0].earned.questsStarted) started",
                { $0.days[0].earned.quests[.failed] += $0.days[0].earned.questsStarted + 1 - $0.days[0].earned.quests.total }
            ),
            ("run.days: 5, but 4d from 2026-01-05 is 4 days", { $0.run.days = 5 }),
            ("days: 3 days, expected one for each of the run's 4 (run.days)", { $0.days.removeLast() }),
            ("run: users_from 8, users_to 17 and users 16 do not make a slice of the cohort", { $0.run.usersTo = 17 }),
        ]
        for (expected, change) in cases {
            var bad = shard
            change(&bad)
            let error = try #require(throws: SimulationError.self) { try bad.validate() }
            #expect(error.message.hasPrefix(expected), "\(error.message)")
            // merge checks each part, and names it.
            let merged = try #require(throws: SimulationError.self) {
                try SimulationReport.merge([bad], names: ["part2.json"], partial: true)
            }
            #expect(merged.message.hasPrefix("part2.json: \(expected)"), "\(merged.message)")
        }
        // Events counted apart (exits, habits, …) are events applied that day.
        var exits = shard
        exits.days[1].exits = 1_000_000
        let error = try #require(throws: SimulationError.self) { try exits.validate() }
        #expect(error.message.hasPrefix("days[1].events: \(shard.days[1].events), expected at least 100"), "\(error.message)")
        // A report of no user counts nothing.
        var nobody = try Simulation(config: try SimTestSupport.config(days: 4, users: 1, shard: Shard(index: 1, count: 2))).run()
        try nobody.validate()
        nobody.days[2].exits = 1
        let empty = try #require(throws: SimulationError.self) { try nobody.validate() }
        #expect(empty.message.hasPrefix("days[2].events: 0, expected at least 1"), "\(empty.message)")
        nobody.days[2].events = 1
        #expect(throws: SimulationError.self) { try nobody.validate() }
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
        let inRange = commitments.filter {
            ($0["day_id"] ?? "").contains(first.prefix(4)) && $0["day_id"].map { $0 >= "\"\(first)\"" && $0 <= "\"\(last)\"" } == true
        }
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
        // Every user is counted on every day, every active one on one tier.
        #expect(report.days.allSatisfy { $0.users == 20 && $0.streaks.reduce(0, +) == $0.active })
        #expect(summary.refused == 0)
    }

    /// Appended users are new users: their ids follow the database's last user, and their random
    /// streams are keyed by their ids, so 6 users appended to 6 are the users 7–12 of a run of 12.
    @Test func appendedUsersAreNewUsersKeyedByTheirIds() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("append.sqlite").path
        let first = try Simulation(config: try SimTestSupport.config(days: 3, users: 6, database: path)).run()
        var config = try SimTestSupport.config(days: 3, users: 6, database: path)
        config.append = true
        let second = try Simulation(config: config).run()
        #expect(first.days != second.days)
        #expect(second.run.idOffset == 6 && first.run.idOffset == 0)
        #expect(second.table().contains("3 days, user ids 7–12 (appended)\n"))
        let twelvePath = dir.appendingPathComponent("twelve.sqlite").path
        let twelve = try Simulation(config: try SimTestSupport.config(days: 3, users: 12, database: twelvePath)).run()
        #expect(
            twelve.days
                == zip(first.days, second.days).map { a, b in
                    var sum = a
                    sum.add(b)
                    return sum
                })
        let store = try Store.open(path: path)
        let dump = try store.dump()
        try store.close()
        #expect(SimTestSupport.rows(of: "app_user", in: dump).count == 12)
        #expect(Set(SimTestSupport.rows(of: "engine_state", in: dump).compactMap { $0["name"] }).count == 12)
        let twelveStore = try Store.open(path: twelvePath)
        #expect(try twelveStore.dump() == dump)
        try twelveStore.close()
        // The appended report is not a shard of a run from the first user: it does not merge as one.
        var asShard = second
        asShard.run.usersFrom = 6
        asShard.run.usersTo = 12
        asShard.run.users = 12
        var head = first
        head.run.users = 12
        let refused = try #require(throws: SimulationError.self) {
            try SimulationReport.merge([head, asShard].map { try SimulationReport(json: Data($0.json().utf8)) })
        }
        #expect(refused.message == "report 2 is not a shard of the same run as report 1: id_offset (--append after other users) 6 ≠ 0")
        // Without --append the file is replaced.
        _ = try Simulation(config: try SimTestSupport.config(days: 3, users: 6, database: path)).run()
        let again = try Store.open(path: path)
        #expect(SimTestSupport.rows(of: "app_user", in: try again.dump()).count == 6)
        try again.close()
    }

    /// The shards of a cohort appended one after the other to one database: the ids follow each
    /// other, and the database and the merged report are the whole run's.
    @Test func shardsAppendedInTurnMakeTheWholeRun() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("shards.sqlite").path
        var reports: [SimulationReport] = []
        for i in 1...3 {
            var config = try SimTestSupport.config(days: 3, users: 13, database: path, shard: Shard(index: i, count: 3))
            config.append = i > 1
            reports.append(try Simulation(config: config).run())
        }
        let wholePath = dir.appendingPathComponent("whole.sqlite").path
        let whole = try Simulation(config: try SimTestSupport.config(days: 3, users: 13, database: wholePath)).run()
        #expect(try SimulationReport.merge(reports).json() == whole.json())
        let store = try Store.open(path: path)
        let dump = try store.dump()
        try store.close()
        #expect(SimTestSupport.rows(of: "app_user", in: dump).compactMap { $0["user_id"] } == (1...13).map(String.init))
        let wholeStore = try Store.open(path: wholePath)
        #expect(try wholeStore.dump() == dump)
        try wholeStore.close()
    }

    @Test func aUserWhoNeverAnswersEndsOnTierThree() throws {
        let report = try Simulation(config: try SimTestSupport.config(days: 6, users: 5, mix: "ghost")).run()
        let summary = ReportSummary(report)
        #expect(summary.commitments == 0 && summary.yes == 0 && summary.no == 0)
        #expect(summary.missed == 5 * 6)
        // Default rules: one miss per tier, tier 3 from the third missed day on.
        #expect(report.days.map { $0.tiers } == [[0, 5, 0, 0], [0, 0, 5, 0], [0, 0, 0, 5], [0, 0, 0, 5], [0, 0, 0, 5], [0, 0, 0, 5]])
        #expect(summary.finalStreaks.streakPercentile(90) == 0)
        try report.validate()
    }

    @Test func theNativeReferenceGivesTheSameReportAsTheDefaultLuaRules() throws {
        var config = try SimTestSupport.config(days: 7, users: 12)
        let lua = try Simulation(config: config).run()
        config.reference = true
        let native = try Simulation(config: config).run()
        #expect(lua.days == native.days)
        try native.validate()
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
    @Test(arguments: [
        ("{ commit = 2 }", "day() returned commit: expected a probability between 0 and 1, found 2.0"),
        ("{ yes = 0.9, no = 0.9 }", "day() returned yes + no must be at most 1 (the rest is no answer), found 1.8"),
        (
            "(function() local t = { answer = {} } t.answer.again = t.answer return t end)()",
            "answer.again: in the table returned by the function at line 5: a cycle: the table answer contains itself here"
        ),
    ])
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
        let error = try #require(throws: InputFileError.self) { try simulation.run() }
        #expect(error.description.contains("broken-day.lua:5: \(expected) (in day() for u1 on 2026-01-05)"), "\(error)")
        #expect(error.description.hasSuffix("(in day() for u1 on 2026-01-05)"), "\(error)")
    }

    /// An error raised in a persona's `day()` names the file whole, however long its path.
    @Test func anErrorInDayNamesThePersonaFileWhole() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("a-folder-with-a-long-name/and-another-one/personas")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("x.lua").path
        #expect(path.utf8.count > 60)
        try """
        return {
          description = "Fails on its first day",
          commit = 0.5,
          answer = { yes = 0.5, no = 0.1 },
          day = function(d)
            error("no plan for " .. d.date)
          end,
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let simulation = try Simulation(config: try SimTestSupport.config(days: 2, users: 1, mix: path))
        let error = try #require(throws: InputFileError.self) { try simulation.run() }
        #expect(error.description.hasPrefix("\(path):6: no plan for 2026-01-05"), "\(error)")
    }

    /// Variants of a shipped persona that the engine must accept every event of: a window
    /// closing at 23:59 (the late look and the shield ran into the next day), and quests slower
    /// than the rules allow (their completions came after they expired).
    @Test(arguments: [
        ("checkin_window_close = \"22:00\"", "checkin_window_close = \"23:59\""),
        ("minutes = { 1, 4 } },", "minutes = { 59, 60 } },"),
    ])
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
        // Paid users who use their shields: the report's counts hold together (`validate`).
        #expect(report.days.map(\.shields).reduce(0, +) > 0)
        try report.validate()
    }

    /// A change to Pressure's rules changes how many draws Pressure makes (its reminders); the
    /// habit tracker's and MIGA's days must stay as they were (they shared one stream).
    @Test func aPressureRuleChangeLeavesTheOtherAppsDaysAsTheyAre() throws {
        // (Without responses: a user who leaves Pressure leaves the other apps too.)
        var config = try SimTestSupport.config(days: 14, users: 40)
        config.responses = false
        let before = try Simulation(config: config).run()
        config.rules = SimTestSupport.root.appendingPathComponent("examples/graduated-recovery").path
        let after = try Simulation(config: config).run()
        #expect(before.days.map(\.tiers) != after.days.map(\.tiers))
        #expect(before.days.map(\.habitDone) == after.days.map(\.habitDone))
        #expect(before.days.map(\.habitPlanned) == after.days.map(\.habitPlanned))
        #expect(before.days.map { [$0.exits, $0.deepens, $0.proceeds] } == after.days.map { [$0.exits, $0.deepens, $0.proceeds] })
        try before.validate()
        try after.validate()
    }
}

import Foundation
import RulesEngine
import RulesModel
import RulesSim
import RulesStore
import Testing

/// Earned in the simulation: the report's economy against the database the engine wrote, the
/// balance followed from the decisions, and Earned leaving the other apps' draws alone.
@Suite struct EarnedSimulationTests {
    /// The standard personas in a temporary folder, with `earned.share` set to `share` (1: every
    /// user uses Earned; 0: none does).
    static func personas(share: Int) throws -> URL {
        let dir = try SimTestSupport.temporaryFolder()
        for name in ["steady", "struggling", "lapsing-then-recovering", "weekend-skipper"] {
            let text = try String(contentsOfFile: SimTestSupport.personas + "/\(name).lua", encoding: .utf8)
            try text.replacingOccurrences(of: #"\bshare = [0-9.]+,"#, with: "share = \(share),", options: .regularExpression)
                .write(to: dir.appendingPathComponent("\(name).lua"), atomically: true, encoding: .utf8)
        }
        return dir
    }

    /// A8 in a long simulation (issue 21): the database of a 50-day run holds only the last 30
    /// days of `event_log`, `unlock_attempt`, `unlock_grant`, `quest_session` and
    /// `unlock_grant_extension` (counted back from each user's last cleanup, on the run's last
    /// day), every day's `day_summary`, and passes the invariant checker.
    @Test func aFiftyDayDatabaseHoldsTheLastThirtyDays() throws {
        let dir = try Self.personas(share: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("earned.sqlite").path
        var config = try SimTestSupport.config(days: 50, users: 20, jobs: 2, database: path)
        config.personaFolders = [dir.path]
        config.responses = false  // every user to the last day (a user who left is cleaned up no more)
        _ = try Simulation(config: config).run()
        let store = try Store.open(path: path)
        #expect(try store.checkInvariants() == [])
        let dump = try store.dump()
        try store.close()
        let end = config.start.utcStartMillis + 50 * Millis.day
        var cutoff: [String: Int64] = [:]
        for (user, at) in try SimTestSupport.lastCleanups(in: dump) {
            #expect(at > end - 2 * Millis.day, "user \(user)'s last cleanup is before the run's last day")
            cutoff[user] = at - 30 * Millis.day
        }
        #expect(cutoff.count == 20)
        for (table, time) in [
            ("event_log", "ts_utc_ms"), ("unlock_attempt", "ts_utc_ms"), ("unlock_grant", "created_ts_utc_ms"),
            ("quest_session", "created_ts_utc_ms"), ("unlock_grant_extension", "ts_utc_ms"),
        ] {
            let rows = SimTestSupport.rows(of: table, in: dump)
            let old = rows.filter { Int64($0[time]!)! < cutoff[$0["user_id"]!]! }
            #expect(old.isEmpty, "\(table): \(old.count) rows older than 30 days before their user's last cleanup")
            #expect(
                table == "unlock_grant_extension" || rows.contains { Int64($0[time]!)! < cutoff[$0["user_id"]!]! + Millis.day },
                "\(table): no row of the 30th day back")
        }
        let days = Set(SimTestSupport.rows(of: "day_summary", in: dump).map { $0["day_id"]! })
        #expect(days.count >= 50)
    }

    @Test func theEconomyInTheReportIsTheDatabases() throws {
        let dir = try Self.personas(share: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("earned.sqlite").path
        var config = try SimTestSupport.config(days: 7, users: 16, database: path)
        config.personaFolders = [dir.path]
        let report = try Simulation(config: config).run()
        let e = ReportSummary(report).earned
        let store = try Store.open(path: path)
        #expect(try store.checkInvariants() == [])
        let dump = try store.dump()
        try store.close()

        #expect(report.days.allSatisfy { $0.earned.users == 16 })  // every user, every day
        #expect(ReportSummary(report).refused == 0)
        #expect(e.unlocks[.credits] > 0 && e.unlocks[.quest] > 0 && e.questsStarted > 0 && e.focusCompleted > 0 && e.habitsDone > 0)

        // day_summary, as the engine kept it, day by day.
        let summaries = SimTestSupport.rows(of: "day_summary", in: dump)
        func total(_ column: String) -> Int { summaries.reduce(0) { $0 + (Int($1[column] ?? "") ?? 0) } }
        #expect(e.creditsEarned == total("credits_earned"))
        #expect(e.creditsSpent == total("credits_spent"))
        #expect(e.unlocks[.credits] == total("credits_unlocks_count"))
        #expect(e.unlocks[.quest] == total("quest_unlocks_count"))
        #expect(e.unlocks[.emergency] == total("emergency_unlocks_count"))
        // A credit unlock costs one of the rules' prices (10, 25 or 45 credits).
        #expect(e.creditsSpent >= 10 * e.unlocks[.credits] && e.creditsSpent <= 45 * e.unlocks[.credits])

        // Denials: only A4.2's reasons, as many of each as the database has.
        let attempts = SimTestSupport.rows(of: "unlock_attempt", in: dump)
        let reasons = attempts.compactMap { $0["denial_reason"] }.filter { $0 != "NULL" }.map {
            $0.replacingOccurrences(of: "\"", with: "")
        }
        #expect(reasons.allSatisfy { UnlockDenialReason(rawValue: $0) != nil }, "\(Set(reasons))")
        for reason in UnlockDenialReason.allCases {
            #expect(e.denials[reason] == reasons.filter { $0 == reason.rawValue }.count, "\(reason)")
        }
        #expect(e.denials.total == attempts.filter { $0["outcome"] == "\"DENIED\"" }.count)
        #expect(e.choices + e.gaveUp <= e.gateOpens)

        // Quests by their final state; focus sessions; habit completions.
        let quests = SimTestSupport.rows(of: "quest_session", in: dump)
        #expect(e.questsStarted == quests.count)
        for outcome in QuestOutcome.allCases {
            #expect(e.quests[outcome] == quests.filter { $0["state"] == "\"\(outcome.rawValue)\"" }.count, "\(outcome)")
        }
        let sessions = SimTestSupport.rows(of: "focus_session", in: dump)
        #expect(e.focusCompleted == sessions.filter { $0["completed"] == "1" }.count)
        #expect(e.focusEndedEarly == sessions.filter { $0["ended_early"] == "1" }.count)
        let completions = SimTestSupport.rows(of: "habit_completion", in: dump)
        #expect(e.habitsDone == completions.count)
        #expect(e.habitAwardsSuspended == completions.filter { $0["award_suspended"] == "1" }.count)
        #expect(e.qualifiedDays == summaries.filter { $0["qualified"] == "1" }.count)

        // The balance followed from the decisions: each day's balances are the previous day's,
        // less what the rollover forfeited, plus what was earned, less what was spent; after the
        // last rollover, the database's balances.
        func sum(_ histogram: [Int]) -> Int { histogram.enumerated().reduce(0) { $0 + $1.offset * $1.element } }
        for d in report.days.indices.dropFirst() {
            let before = report.days[d - 1].earned, day = report.days[d].earned
            #expect(
                sum(day.balances) == sum(before.balances) - before.creditsForfeited + day.creditsEarned - day.creditsSpent, "day \(d + 1)")
        }
        let last = report.days.last!.earned
        let balances = SimTestSupport.rows(of: "economy_state", in: dump).compactMap { Int($0["credit_balance"] ?? "") }
        #expect(balances.count == 16)
        #expect(balances.reduce(0, +) == sum(last.balances) - last.creditsForfeited)
    }

    @Test func earnedLeavesTheOtherAppsAsTheyWere() throws {
        let dir = try Self.personas(share: 0)
        defer { try? FileManager.default.removeItem(at: dir) }
        let with = try Simulation(config: try SimTestSupport.config(days: 7, users: 16)).run()
        var config = try SimTestSupport.config(days: 7, users: 16)
        config.personaFolders = [dir.path]
        let without = try Simulation(config: config).run()
        #expect(ReportSummary(with).earnedUsers > 0 && ReportSummary(without).earnedUsers == 0)
        func others(_ report: SimulationReport) -> [DayTotals] {
            report.days.map { day in
                var d = day
                (d.events, d.earned, d.earnedStreaks) = (0, EconomyTotals(), [])
                return d
            }
        }
        #expect(others(with) == others(without))
    }

    @Test func aReportWrittenBeforeEarnedStillReads() throws {
        let report = try Simulation(config: try SimTestSupport.config(days: 3, users: 6)).run()
        var object = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        object["days"] = (object["days"] as? [[String: Any]])?.map { day in day.filter { $0.key != "earned" } }
        let old = try SimulationReport(json: try JSONSerialization.data(withJSONObject: object))
        #expect(old.days.allSatisfy { $0.earned == EconomyTotals() })
        #expect(old.days.map(\.yes) == report.days.map(\.yes))
        #expect(try SimulationReport.merge([old]).days == old.days)
        // Not mixed with a report that has Earned's counts (its zeros would pass for counts).
        let mixed = try #require(throws: SimulationError.self) {
            try SimulationReport.merge([report, old], names: ["new.json", "old.json"], partial: true)
        }
        #expect(
            mixed.message == "old.json has no Earned counts (its days have no `earned`: written before Earned was simulated), "
                + "but new.json has them: merge shards written by the same version of rulesrun")
        // Nor some days with them and others without.
        object["days"] =
            (try #require(JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])["days"] as? [[String: Any]])?
            .enumerated().map { d, day in d == 1 ? day.filter { $0.key != "earned" } : day }
        let error = try #require(throws: SimulationError.self) {
            try SimulationReport(json: try JSONSerialization.data(withJSONObject: object))
        }
        #expect(error.message.hasPrefix("days[1].earned: missing, but present in days[0]"), "\(error.message)")
    }

    /// Cheaper unlocks: the same cohort pays less per credit unlock and takes more of them.
    @Test func gentlePricingSellsMoreCreditUnlocksForFewerCredits() throws {
        let dir = try Self.personas(share: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let comparison = try PopulationComparison.run(
            folderA: SimTestSupport.rules, folderB: SimTestSupport.root.appendingPathComponent("examples/gentle-pricing").path,
            users: 24, days: 7, seed: 3, mix: .standard, personaFolders: [dir.path], responses: false)
        func metric(_ name: String) throws -> PopulationComparison.Metric {
            try #require(comparison.metrics.first { $0.name == name }, "\(name)")
        }
        #expect(try metric("credits per credit unlock").delta < 0)
        #expect(try metric("credit unlocks per user-day").delta > 0)
        // Pressure's rules and Earned's ways to earn are the same: so are their metrics, without the
        // responses (with them, a user short of credits earns more, and friction makes users leave).
        #expect(try metric("YES rate").delta == 0)
        #expect(try metric("credits earned per user-day").delta == 0)
    }
}

import Foundation
import Testing

/// The focus app's cohort (Earned and the habit tracker, `focus-user`): Earned's qualifying-day
/// streak appears in `simulate` (text, JSON, HTML), `compare` and `sweep`, and no Pressure metric does.
@Suite struct EarnedStreakCohortTests {
    let cohort = ["5d", "--users", "30", "--seed", "1", "--persona", "focus-user"]
    /// Labels of Pressure's metrics (none may show for this cohort).
    let pressure = ["YES rate", "tier 3", "reminders per user-day", "Pressure final streak", "Pressure streak"]

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text.prefix(300))")
    }

    @Test func simulateShowsTheStreakAndNoPressure() throws {
        let text = try CLI.run(["simulate"] + cohort + ["--no-db"])
        #expect(text.status == 0, "\(text.stderr)")
        let line = try #require(text.stdout.split(separator: "\n").first { $0.hasPrefix("  qualifying-day streak ") })
        #expect(line.contains("p50 ") && line.contains(" at the end (qualifying days in a row"), "\(line)")
        #expect(!text.stdout.contains("YES") && !text.stdout.contains("tier"))

        let json = try CLI.run(["simulate"] + cohort + ["--no-db", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try object(json.stdout)
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["final_streak"] == nil && summary["check_ins"] == nil, "no Pressure")
        let streak = try #require((summary["earned"] as? [String: Any])?["final_streak"] as? [String: Int])
        let days = try #require(report["days"] as? [[String: Any]])
        let last = try #require(days.last?["earned_streak_histogram"] as? [Int])
        let earnedUsers = try #require((days.last?["earned"] as? [String: Any])?["balance_histogram"] as? [Int]).reduce(0, +)
        #expect(last.reduce(0, +) <= earnedUsers && last.reduce(0, +) > 0)
        #expect(streak["max"] == last.count - 1 && streak["p50"] == days.last?["earned_streak_p50"] as? Int)
        #expect(line.contains("p50 \(streak["p50"]!), p90 \(streak["p90"]!), max \(streak["max"]!) at the end"), "\(line)")

        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("report.html").path
        #expect(try CLI.run(["simulate"] + cohort + ["--no-db", "--html", page]).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<td>Earned qualifying-day streak p50</td><td>\(streak["p50"]!).00</td>"), "\(html.prefix(3000))")
        for label in pressure { #expect(!html.contains(label), "\(label)") }
    }

    @Test func compareAndSweepReportItThroughTheRegistry() throws {
        let result = try CLI.run([
            "compare", "rules", "examples/earned-freezes", "--runs", "1", "--days", "5", "--economy-runs", "0", "--habit-runs", "0",
            "--population-users", "30", "--persona", "focus-user", "--json",
        ])
        let population = try #require(try object(result.stdout)["population"] as? [String: Any], "\(result.stderr)")
        let names = try #require(population["metrics"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(names.contains("Earned qualifying-day streak p50") && names.contains("Earned qualifying-day streak p90"))
        for label in pressure { #expect(!names.contains { $0.contains(label) }, "\(label) in \(names)") }
        let day = try #require((population["per_day"] as? [[String: Any]])?.first?["a"] as? [String: Any])
        #expect(day["Earned qualifying-day streak p50"] != nil)

        let sweep = try CLI.run(
            ["sweep"] + cohort + ["--set", "pricing.credit_costs[1].credits=5,10", "--metric", "earned_streak_p50", "--format", "json"])
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let head = try #require(try object(sweep.stdout)["sweep"] as? [String: Any])
        #expect(head["metrics"] as? [String] == ["Earned qualifying-day streak p50"])
    }
}

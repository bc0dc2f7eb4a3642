import Foundation
import Testing

/// `rulesrun sweep` through the real binary, on tiny cohorts (≤ 50 users × 7 days).
@Suite struct SweepCommandTests {
    let cohort = ["7d", "--users", "50", "--seed", "1"]

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    func variants(_ result: CLI.Result) throws -> [[String: Any]] {
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try object(result.stdout)["variants"] as? [[String: Any]])
    }

    func number(_ value: Any?) throws -> Double { try #require((value as? NSNumber)?.doubleValue, "\(String(describing: value))") }

    /// Equal but for the last bits JSONSerialization may lose reading a double.
    func same(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-12 * max(1, abs(a)) }

    @Test func aThreeValueSweepHasThreeRowsAndTheBaseRowIsSimulatesRun() throws {
        let rows = try variants(
            try CLI.run(["sweep"] + cohort + ["--set", "escalation.recover_after[3]=1..5/2", "--format", "json"]))
        #expect(rows.count == 3)
        #expect(rows.compactMap { ($0["knobs"] as? [String: Any])?["escalation.recover_after[3]"] as? Int } == [1, 3, 5])
        let metrics = try rows.map { try #require($0["metrics"] as? [String: Any]) }
        // The knob is what the rules read: tier 3 lasts longer when leaving it needs more YES days.
        let tier3 = try metrics.map { try number($0["user-days at tier 3"]) }
        #expect(tier3[0] < tier3[2], "\(tier3)")

        // recover_after[3] = 3 is the folder's own value: the row is `simulate` with the same cohort.
        let simulate = try CLI.run(["simulate"] + cohort + ["--no-db", "--format", "json"])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let summary = try #require(try object(simulate.stdout)["summary"] as? [String: Any])
        let checkIns = try #require(summary["check_ins"] as? [String: Int])
        let userDays = try number(summary["user_days"])
        let atTier = try #require(summary["user_days_at_tier"] as? [Int])
        let earned = try #require(summary["earned"] as? [String: Any])
        let credits = try #require(earned["credits"] as? [String: Any])
        let streak = try #require(summary["final_streak"] as? [String: Any])
        let base = metrics[1]
        #expect(same(try number(base["YES rate"]), Double(checkIns["YES"]!) / Double(checkIns.values.reduce(0, +))))
        #expect(same(try number(base["user-days at tier 3"]), Double(atTier[3]) / userDays))
        #expect(same(try number(base["reminders per user-day"]), (try number(summary["reminders"])) / userDays))
        #expect(try number(base["final streak p50"]) == (try number(streak["p50"])))
        // (The report prints the rate with 4 decimals.)
        #expect(abs(try number(base["habit completion rate"]) - (try number(summary["habit_completion_rate"]))) <= 0.00005)
        #expect(same(try number(base["credits spent per user-day"]), (try number(credits["spent"])) / (try number(earned["user_days"]))))
    }

    @Test func aValueThatBreaksAConstraintIsReportedAndSkipped() throws {
        let result = try CLI.run(["sweep"] + cohort + ["--set", "escalation.max_reminders_per_day=3,4", "--format", "json"])
        let rows = try variants(result)
        #expect(rows.count == 2)
        #expect(rows[0]["metrics"] != nil && rows[0]["invalid"] == nil)
        #expect(rows[1]["metrics"] == nil)
        let problems = try #require(rows[1]["invalid"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(problems.first?["file"] as? String == "escalation.lua")
        #expect(problems.first?["field"] as? String == "max_reminders_per_day")
        #expect((problems.first?["message"] as? String)?.contains("found 4") == true, "\(problems)")
        #expect(result.stderr.contains("escalation.max_reminders_per_day = 4 is not valid, not run"), "\(result.stderr)")

        // The table says so on the variant's row.
        let table = try CLI.run(["sweep"] + cohort + ["--set", "escalation.max_reminders_per_day=3,4", "--metric", "YES rate"])
        #expect(table.status == 0)
        let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("  4 ") })
        #expect(row.contains("refused, not run: escalation.lua:42: max_reminders_per_day: must be between 1 and 3"), "\(row)")
    }

    @Test(arguments: [
        ("escalation.recover_after[3]", "expected knob=values"),
        ("escalation.recover_after[3]=", "no values after '='"),
        ("escalation.recover_after[3]=5..1", "the range 5..1 is empty"),
        ("escalation.recover_after[3]=1..x", "a range is a..b or a..b/step with whole numbers"),
        ("escalation.recover_after[3]=1..9/0", "the step of a range is a whole number above 0"),
        ("escalation.recover_after[3]=0..1000", "more than 100 values"),
        ("escalation.recover_after[3]=1,,2", "an empty value"),
        (
            "escalation.recovr_after[3]=1",
            "escalation.recovr_after[3]: escalation.recovr_after does not exist; did you mean 'recover_after'?"
        ),
        ("escalaton.max_tier=1", "\"escalaton\" is not a file of a rule set"),
        ("escalation.max_tier=high", "escalation.max_tier is a number (3), not a string like \"high\""),
        ("escalation.recover_after=1", "escalation.recover_after is a table, not a value a sweep can set"),
    ])
    func aBadSetIsAnErrorNamingIt(argument: String, expected: String) throws {
        let result = try CLI.run(["sweep"] + cohort + ["--set", argument])
        #expect(result.status == 2, "\(result.stdout)")
        #expect(result.stderr.contains("--set '\(argument)': \(expected)"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func theRowsAreTheSameWhateverJobs() throws {
        let args =
            ["sweep"] + cohort + [
                "--set", "escalation.recover_after[3]=1,3", "--set", "escalation.recover_after[2]=1,2", "--format", "csv",
            ]
        let one = try CLI.run(args + ["--jobs", "1"]), three = try CLI.run(args + ["--jobs", "3"])
        #expect(one.status == 0 && three.status == 0, "\(one.stderr)\(three.stderr)")
        #expect(one.stdout == three.stdout)
        // Every combination, the first knob changing slowest.
        #expect(
            one.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") } == [
                "1,1", "1,2", "3,1", "3,2",
            ])
    }

    @Test func oneAtATimeMovesEachKnobAloneAfterTheBase() throws {
        let args =
            ["sweep"] + cohort + [
                "--one-at-a-time", "--set", "escalation.recover_after[3]=1..4", "--set", "pricing.rollover_cap=5,10", "--metric",
                "user-days at tier 3",
            ]
        let rows = try variants(try CLI.run(args + ["--format", "json"]))
        let knobs = rows.compactMap { $0["knobs"] as? [String: Int] }
        // The base (3, 10), then recover_after[3] at 1, 2, 4, then rollover_cap at 5; the base's own values are not run twice.
        #expect(
            knobs.map { [$0["escalation.recover_after[3]"]!, $0["pricing.rollover_cap"]!] } == [
                [3, 10], [1, 10], [2, 10], [4, 10], [3, 5],
            ])
        let table = try CLI.run(args)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(
            table.stdout.contains("5 variants (one at a time); base: escalation.recover_after[3] = 3, pricing.rollover_cap = 10"),
            "\(table.stdout)")
        // The sensitivity: recover_after[3] moves the tier-3 share, the rollover cap does not; the first is listed first.
        let lines = table.stdout.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("  user-days at tier 3 (base ") })
        #expect(lines[start + 1].hasPrefix("    escalation.recover_after[3]: "))
        #expect(lines[start + 2].hasPrefix("    pricing.rollover_cap: "))
        let cap = lines[start + 2].split(separator: " ").suffix(3)
        #expect(cap.first == cap.last, "\(lines[start + 2])")
    }

    @Test func outAndChartAreWritten() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("sweep.csv").path, chart = dir.appendingPathComponent("sweep.svg").path
        let result = try CLI.run(
            ["sweep"] + cohort + [
                "--set", "escalation.recover_after[3]=1,2", "--metric", "YES rate", "--format", "csv", "--out", out, "--chart", chart,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let csv = try String(contentsOfFile: out, encoding: .utf8)
        #expect(csv.hasPrefix("escalation.recover_after[3],YES rate,refused\n1,0."), "\(csv)")
        #expect(csv.split(separator: "\n").count == 3)
        let svg = try String(contentsOfFile: chart, encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains(">YES rate (%)</text>") && svg.components(separatedBy: "<circle").count == 3)

        let three = try CLI.run(
            ["sweep"] + cohort + [
                "--set", "escalation.recover_after[1]=1", "--set", "escalation.recover_after[2]=1", "--set",
                "escalation.recover_after[3]=1", "--chart", chart,
            ])
        #expect(three.status == 2)
        #expect(three.stderr.contains("--chart draws sweeps of one or two knobs (this one moves 3)"), "\(three.stderr)")
    }
}

import Foundation
import Testing

/// `rulesrun fit --predict RULES` (docs/fit.md#prediction-under-another-rule-set): the fitted
/// personas, their parameters drawn from the fit's sampling distribution, simulated under another
/// rule set: a prediction per metric with its interval, the same whatever the jobs
/// (``FitPredictionCalibrationTests``, slow: over replicates, the intervals hold the truth).
@Suite struct FitPredictionTests {
    /// The default rules in `a/`, and in `b/` the same with a habit's day counting for its streak
    /// only with two completions: a task done once a day never has a streak, so the streak
    /// response (`gradient`, `at_stake`) no longer lifts its completions.
    static func folder(_ files: [String: String] = [:]) throws -> URL {
        let dir = try BundleCommandTests.copyOfTheRules(in: "a", files)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("b"), withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("a").path) {
            var text = try String(contentsOf: dir.appendingPathComponent("a/\(name)"), encoding: .utf8)
            if name == "streaks.lua" { text = CLI.edit(text, [("  min_completions = 1,", "  min_completions = 2,")]) }
            try text.write(to: dir.appendingPathComponent("b/\(name)"), atomically: true, encoding: .utf8)
        }
        return dir
    }

    /// The metric `id` of a prediction: its section `part` (predicted, baseline, difference).
    static func estimate(_ prediction: [String: Any], _ id: String, _ part: String) -> [String: Any]? {
        let metrics = prediction["metrics"] as? [[String: Any]] ?? []
        return metrics.first { $0["id"] as? String == id }?[part] as? [String: Any]
    }

    /// 150 habit tracker users over 8 days under A, fitted and predicted under B over 5 days from
    /// 3 draws: every metric predicted has its mean inside its interval; the completion rate
    /// falls (B − A's mean below 0: the streak no longer lifts it); the same seed gives the same bytes
    /// with 1 and 2 jobs, another seed another prediction.
    @Test func aPredictionUnderOtherRulesHasAnIntervalPerMetricWhateverTheJobs() throws {
        let dir = try Self.folder(["habit.lua": FitCommandTests.habitPersona("meditate", 0.6, 0.01)])
        let simulated = try CLI.run(
            ["simulate", "8d", "--users", "150", "--no-db", "--events", "log.jsonl", "--persona", "habit.lua", "--rules", "a"],
            in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fit = [
            "fit", "log.jsonl", "--rules", "a", "--persona", "habit.lua", "--predict", "b", "--predict-days", "5", "--draws", "3",
        ]
        let one = try CLI.run(fit + ["--format", "json", "--jobs", "1"], in: dir)
        #expect(one.status == 0, "\(one.stderr)")
        let two = try CLI.run(fit + ["--format", "json", "--jobs", "2", "--html", "fit.html"], in: dir)
        #expect(one.stdout == two.stdout)
        // The page: the prediction's table and the plot of B − A, a row per metric.
        let html = try String(contentsOf: dir.appendingPathComponent("fit.html"), encoding: .utf8)
        #expect(html.contains("<h2>Prediction under b</h2>") && html.contains("B against A: the predicted difference"))
        #expect(html.contains("<g data-metric=\"habit completion rate\" data-id=\"habit_completion_rate\" data-significant="))
        let prediction = try #require(try FitCommandTests.object(one.stdout)["prediction"] as? [String: Any])
        #expect(prediction["rules"] as? String == "b" && prediction["baseline"] as? String == "a", "\(prediction)")
        #expect(prediction["users"] as? Int == 150 && prediction["days"] as? Int == 5 && prediction["draws"] as? Int == 3)
        #expect(prediction["start"] as? String == "2026-01-13", "\(prediction)")
        let metrics = prediction["metrics"] as? [[String: Any]] ?? []
        #expect(metrics.count >= 3, "\(metrics)")
        for metric in metrics {
            for part in ["predicted", "baseline", "difference"] {
                guard let e = metric[part] as? [String: Any], let mean = e["mean"] as? Double, let low = e["low"] as? Double,
                    let high = e["high"] as? Double
                else {
                    Issue.record("\(metric["id"] ?? "?"): no \(part)")
                    continue
                }
                #expect(low <= mean && mean <= high, "\(metric)")
            }
        }
        let fall = try #require(Self.estimate(prediction, "habit_completion_rate", "difference"))
        #expect((fall["mean"] as? Double ?? 1) < 0, "\(fall)")
        let reseeded = try CLI.run(fit + ["--format", "json", "--seed", "2"], in: dir)
        #expect(reseeded.status == 0 && reseeded.stdout != one.stdout)
        let text = try CLI.run(fit + ["--no-baseline"], in: dir)
        #expect(text.status == 0, "\(text.stderr)")
        let heading = "prediction under b: 150 users simulated from the fitted personas from 2026-01-13 over 5 days, 3 draws"
        #expect(text.stdout.contains(heading), "\(text.stdout)")
        #expect(!text.stdout.contains("B − A"), "\(text.stdout)")
    }

    /// Bad inputs: each error names the option and what was expected.
    @Test func badPredictionOptionsAreRefusedWithWhatWasExpected() throws {
        let dir = try Self.folder(["habit.lua": FitCommandTests.habitPersona("meditate", 0.6, 0.01)])
        try CLI.edit(
            try String(contentsOf: dir.appendingPathComponent("b/escalation.lua"), encoding: .utf8),
            [("M.tier_for_misses = { 1, 2, 3 }", "M.tier_for_misses = { 1, 2, \"three\" }")]
        ).write(to: dir.appendingPathComponent("b/escalation.lua"), atomically: true, encoding: .utf8)
        let simulated = try CLI.run(
            ["simulate", "3d", "--users", "20", "--no-db", "--events", "log.jsonl", "--persona", "habit.lua", "--rules", "a"],
            in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fit = ["fit", "log.jsonl", "--rules", "a", "--persona", "habit.lua"]
        for (arguments, message) in [
            (["--predict", "a", "--draws", "1"], "--draws: expected 2 to 1000 draws, found 1"),
            (["--predict", "a", "--draws", "1001"], "--draws: expected 2 to 1000 draws, found 1001"),
            (["--predict", "a", "--predict-days", "0"], "--predict-days: expected 1 to 366 days, found 0"),
            (["--predict", "a", "--predict-days", "367"], "--predict-days: expected 1 to 366 days, found 367"),
            (["--predict", "a", "--predict-users", "1"], "--predict-users: expected 2 to 10000000 users, found 1"),
            (["--draws", "10"], "--draws is for a prediction: name the rules predicted with --predict"),
            (["--predict", "b"], "--predict b: the rule set is not valid"),
        ] {
            let run = try CLI.run(fit + arguments, in: dir)
            #expect(run.status != 0 && run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        let noPersona = try CLI.run(["fit", "log.jsonl", "--rules", "a", "--predict", "a"], in: dir)
        let named = noPersona.stderr.contains("--predict simulates the fitted persona")
        #expect(noPersona.status != 0 && named, "\(noPersona.stderr)")
        // A log of one user: nothing fitted to draw from.
        let alone = try CLI.run(
            ["simulate", "3d", "--users", "1", "--no-db", "--events", "one.jsonl", "--persona", "habit.lua", "--rules", "a"],
            in: dir)
        #expect(alone.status == 0, "\(alone.stderr)")
        let empty = try CLI.run(["fit", "one.jsonl", "--rules", "a", "--persona", "habit.lua", "--predict", "a"], in: dir)
        #expect(empty.status != 0 && empty.stderr.contains("--predict a: the log gave no fit to draw from"), "\(empty.stderr)")
    }
}

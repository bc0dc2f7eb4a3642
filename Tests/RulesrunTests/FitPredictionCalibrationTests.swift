import Foundation
import RulesEngine
import RulesModel
import RulesSim
import Testing

/// The calibration of `fit --predict` (slow: Tests/slow-tests.txt): fitted on 30 days of 1,000
/// habit tracker users under A, the prediction under B (no habit streak: the streak response no
/// longer lifts completions) over the next 30 days holds the truth — 1,000 users of the true
/// persona simulated under B with another seed, counted as the prediction's are — for the main
/// metrics, in at least 90 % of (metric, replicate) pairs over 10 replicates.
@Suite struct FitPredictionCalibrationTests {
    static let metrics = ["habit_completion_rate", "retained_day_7", "retained_day_30"]

    @Test func thePredictionsIntervalsHoldTheTruthUnderOtherRules() throws {
        let truth = FitCommandTests.habitPersona("meditate", 0.6, 0.01)
        let dir = try FitPredictionTests.folder(["habit.lua": truth])
        let b = dir.appendingPathComponent("b").path
        let replay = ArmReplay(rules: [(b, try RuleSet.load(b).snapshot)], jobs: 2)
        let personas = try PersonaMix([dir.appendingPathComponent("habit.lua").path])
        let measured = PersonaFit.checked.filter { Self.metrics.contains($0.id) }
        var pairs = 0, covered = 0
        for seed in 1...10 {
            let log = "log-\(seed).jsonl"
            let simulated = try CLI.run(
                [
                    "simulate", "30d", "--users", "1000", "--no-db", "--events", log, "--persona", "habit.lua", "--rules", "a",
                    "--seed", "\(seed)",
                ], in: dir)
            #expect(simulated.status == 0, "\(simulated.stderr)")
            let fitted = try CLI.run(
                [
                    "fit", log, "--rules", "a", "--persona", "habit.lua", "--predict", "b", "--draws", "12", "--no-baseline",
                    "--seed", "\(seed)", "--format", "json",
                ], in: dir)
            #expect(fitted.status == 0, "\(fitted.stderr)")
            try FileManager.default.removeItem(at: dir.appendingPathComponent(log))
            let prediction = try #require(try FitCommandTests.object(fitted.stdout)["prediction"] as? [String: Any])
            let start = try DayID(prediction["start"] as? String ?? "")
            let observed = try FittedCohort.counted(
                users: 1000, personas: personas, personaFolders: [dir.path], replay: replay, start: start, days: 30,
                seed: 1000 + UInt64(seed), metrics: measured
            ).moments
            for (metric, moments) in zip(measured, observed) {
                guard let e = FitPredictionTests.estimate(prediction, metric.id, "predicted"), let low = e["low"] as? Double,
                    let high = e["high"] as? Double, let value = moments.value
                else {
                    Issue.record("seed \(seed): \(metric.id) not predicted or not observed")
                    continue
                }
                pairs += 1
                if low <= value && value <= high { covered += 1 }
                print("seed \(seed) \(metric.id): truth \(value), predicted \(e["mean"] ?? "?") [\(low), \(high)]")
            }
        }
        print("covered: \(covered) of \(pairs)")
        #expect(pairs == 30 && Double(covered) >= 0.9 * Double(pairs), "\(covered) of \(pairs) intervals hold the truth")
    }
}

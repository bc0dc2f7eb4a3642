import Foundation
import Testing

/// The gate fit's 95 % intervals over replicated logs (a slow test: Tests/slow-tests.txt).
@Suite struct GateFitCoverageTests {
    /// 20 logs of 150 focus-user users over 7 days under surge pricing, each fitted: of the 100
    /// intervals of the five parameters estimated, at least 90 % hold the truth, and at least 16
    /// of each parameter's 20 (a correct 95 % interval misses that often with probability 0.003).
    @Test func theIntervalsHoldTheTruthAsOftenAsTheySay() throws {
        let rules = CLI.packageRoot.appendingPathComponent("examples/surge-pricing").path
        let truth = [
            "earned.gate.credits": 0.6, "earned.gate.quest": 0.3, "earned.gate.emergency": 0.02,
            "responses.price.sensitivity": 0.04, "responses.price.balance": 0.5,
        ]
        var held: [String: Int] = [:]
        let replicates = 20
        for seed in 1...replicates {
            let dir = try CLI.folder([:])
            let simulated = try CLI.run(
                [
                    "simulate", "7d", "--users", "150", "--no-db", "--events", "log.jsonl", "--seed", "\(100 + seed)", "--rules", rules,
                    "--persona", "focus-user",
                ], in: dir)
            #expect(simulated.status == 0, "\(simulated.stderr)")
            let fitted = try CLI.run(["fit", "log.jsonl", "--rules", rules, "--persona", "focus-user", "--format", "json"], in: dir)
            #expect(fitted.status == 0, "\(fitted.stderr)")
            let (_, parameters) = try GateFitTests.parameters(fitted.stdout)
            for (name, value) in truth {
                guard let p = parameters[name], let low = p["low"] as? Double, let high = p["high"] as? Double else { continue }
                if low <= value, value <= high { held[name, default: 0] += 1 }
            }
        }
        let total = held.values.reduce(0, +)
        #expect(Double(total) >= 0.9 * Double(truth.count * replicates), "\(held)")
        for name in truth.keys { #expect(held[name, default: 0] >= 16, "\(name): \(held)") }
    }
}

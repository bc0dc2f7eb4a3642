import Foundation
import Testing

/// `rulesrun fit`'s unlock gate's choice (docs/fit.md): on logs simulated from a known persona,
/// its gate weights and price response are recovered where the prices vary, and the price's
/// sensitivity is reported not identified where every user saw one price.
@Suite struct GateFitTests {
    /// The `gate` section's parameters of a JSON report, by name.
    static func parameters(_ text: String) throws -> (gate: [String: Any], parameters: [String: [String: Any]]) {
        let report = try FitCommandTests.object(text)
        let gate = try #require(report["gate"] as? [String: Any], "\(report.keys.sorted())")
        let parameters = try #require(gate["parameters"] as? [[String: Any]])
        return (gate, Dictionary(uniqueKeysWithValues: parameters.map { ($0["name"] as! String, $0) }))
    }

    /// focus-user (gate weights 0.6, 0.3, 0.02; the default price response: sensitivity 0.04,
    /// balance 0.5) under surge pricing, where each unlock granted in a day raises the next one's
    /// price: each estimate within 3 standard errors of the truth; reference, with one credit
    /// length always offered first, is not identified.
    @Test func theGateWeightsAndThePriceResponseAreRecovered() throws {
        let dir = try CLI.folder([:])
        let rules = CLI.packageRoot.appendingPathComponent("examples/surge-pricing").path
        let simulated = try CLI.run(
            [
                "simulate", "10d", "--users", "250", "--no-db", "--events", "log.jsonl", "--seed", "5", "--rules", rules,
                "--persona", "focus-user",
            ], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fitted = try CLI.run(["fit", "log.jsonl", "--rules", rules, "--persona", "focus-user", "--format", "json"], in: dir)
        #expect(fitted.status == 0, "\(fitted.stderr)")
        let (gate, parameters) = try Self.parameters(fitted.stdout)
        #expect((gate["used"] as? Int ?? 0) > 2500, "\(gate)")
        let truth = [
            "earned.gate.credits": 0.6, "earned.gate.quest": 0.3, "earned.gate.emergency": 0.02,
            "responses.price.sensitivity": 0.04, "responses.price.balance": 0.5,
        ]
        for (name, value) in truth {
            let p = try #require(parameters[name], "\(name)")
            #expect(p["identified"] as? Bool == true, "\(name): \(p)")
            guard let low = p["low"] as? Double, let high = p["high"] as? Double, let estimate = p["estimate"] as? Double else { continue }
            let se = (high - low) / (2 * 1.959964)
            #expect(abs(estimate - value) <= 3 * se, "\(name): \(estimate) [\(low), \(high)], truth \(value)")
        }
        let reference = try #require(parameters["responses.price.reference"])
        #expect(reference["identified"] as? Bool == false)
        #expect((reference["reason"] as? String)?.contains("always 15 minutes") == true, "\(reference)")
    }

    /// Under the default rules every opening offers a 15-minute unlock at 25 credits: the price's
    /// sensitivity is not identified (its effect is the credits weight's) and keeps the persona's
    /// value; the fitted persona, with its gate weights, simulates.
    @Test func onePriceLeavesTheSensitivityNotIdentified() throws {
        let dir = try CLI.folder([:])
        let simulated = try CLI.run(
            ["simulate", "5d", "--users", "60", "--no-db", "--events", "log.jsonl", "--seed", "2", "--persona", "focus-user"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fitted = try CLI.run(["fit", "log.jsonl", "--persona", "focus-user", "--out", "fitted.lua", "--format", "json"], in: dir)
        #expect(fitted.status == 0, "\(fitted.stderr)")
        let (_, parameters) = try Self.parameters(fitted.stdout)
        let sensitivity = try #require(parameters["responses.price.sensitivity"])
        #expect(sensitivity["identified"] as? Bool == false, "\(sensitivity)")
        #expect((sensitivity["reason"] as? String)?.contains("the same price") == true, "\(sensitivity)")
        #expect(sensitivity["estimate"] as? Double == 0.04)
        #expect(parameters["earned.gate.credits"]?["identified"] as? Bool == true)
        let persona = try String(contentsOf: dir.appendingPathComponent("fitted.lua"), encoding: .utf8)
        #expect(persona.contains("persona.earned.gate.credits = "), "\(persona)")
        let table = try CLI.run(["fit", "log.jsonl", "--persona", "focus-user"], in: dir)
        #expect(table.stdout.contains("the unlock gate's choice (earned.gate, responses.price)"), "\(table.stdout)")
        #expect(table.stdout.contains("gate openings: "))
        let rerun = try CLI.run(["simulate", "2d", "--users", "5", "--no-db", "--persona", "fitted.lua"], in: dir)
        #expect(rerun.status == 0, "\(rerun.stderr)")
    }
}

import Foundation
import Testing

/// examples/surge-pricing through the CLI, as a user runs it: the price rises with the day's
/// unlocks in `replay` and `simulate`, and `compare` against the default rules shows it.
@Suite struct SurgePricingExampleTests {
    /// The gates' prices (5, 15, 30 minutes) and the credits each choice was charged, in order.
    func prices(_ stdout: String) throws -> (gates: [[Int]], charged: [Int]) {
        var gates: [[Int]] = [], charged: [Int] = []
        for line in stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["ok"] as? Bool == true, "\(line)")
            let decisions = object["decisions"] as? [String: Any] ?? [:]
            if let gate = decisions["unlock_gate"] as? [String: Any], let snapshot = gate["available_options"] as? [String: Any],
                let credits = (snapshot["options"] as? [[String: Any]])?.first, let durations = credits["durations"] as? [[String: Any]]
            {
                gates.append(durations.compactMap { $0["cost_credits"] as? Int })
            }
            if let unlock = decisions["unlock"] as? [String: Any], let cost = unlock["cost_credits"] as? Int { charged.append(cost) }
        }
        return (gates, charged)
    }

    @Test func theSurgeShowsInTheReplayAndTheChoiceIsChargedWhatItsGateShowed() throws {
        let surge = try CLI.run(["replay", "examples/surge-pricing/surge-day.jsonl", "--rules", "examples/surge-pricing"])
        #expect(surge.status == 0, "\(surge.stderr)")
        let (gates, charged) = try prices(surge.stdout)
        // 0, 1, 2 and 2 unlocks granted before each gate of the day; the next day starts over.
        #expect(gates == [[10, 25, 45], [15, 37, 67], [20, 50, 90], [20, 50, 90], [10, 25, 45]])
        // The last choice of the day is charged the 50 its gate showed, though a third unlock was
        // granted in between (priced at the choice, it would be 62).
        #expect(charged == [10, 37, 20, 50])
        // The default rules price every gate of the same day by the table.
        let plain = try CLI.run(["replay", "examples/surge-pricing/surge-day.jsonl", "--rules", "rules"])
        #expect(try prices(plain.stdout).gates == Array(repeating: [10, 25, 45], count: 5))
        #expect(try prices(plain.stdout).charged == [10, 25, 10, 25])
    }

    @Test func itSimulatesAndSpendsMorePerCreditUnlock() throws {
        func perUnlock(_ rules: String) throws -> Double {
            let result = try CLI.run(["simulate", "10d", "--users", "40", "--no-db", "--format", "json", "--rules", rules])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let earned = try #require((report["summary"] as? [String: Any])?["earned"] as? [String: Any])
            return try #require((earned["credits"] as? [String: Any])?["per_credit_unlock"] as? Double)
        }
        #expect(try perUnlock("examples/surge-pricing") > perUnlock("rules"))
    }
}

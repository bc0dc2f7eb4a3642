import Foundation
import Testing

/// `compare`'s population half: each delta B − A with its paired 95 % interval, marked where the
/// interval leaves out 0.
@Suite struct PopulationIntervalTests {
    func population(_ arguments: [String]) throws -> (json: [String: Any], metrics: [String: [String: Any]]) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-population-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run(["compare"] + arguments + ["--runs", "1", "--economy-runs", "0", "--habit-runs", "0", "--out", out.path])
        #expect(result.status <= 1, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let population = try #require(report["population"] as? [String: Any])
        let metrics = try #require(population["metrics"] as? [[String: Any]])
        return (population, Dictionary(uniqueKeysWithValues: metrics.map { ($0["name"] as! String, $0) }))
    }

    @Test func theSameRulesHaveEveryDeltaZeroAndNoneSignificant() throws {
        let (population, metrics) = try population(["rules", "rules", "--json", "--population-users", "20", "--days", "7"])
        let interval = try #require(population["interval"] as? [String: Any])
        #expect(interval["method"] as? String == "user-groups" && interval["n"] as? Int == 20)
        #expect(metrics.count > 10)
        for (name, metric) in metrics {
            #expect(metric["delta"] as? Double == 0, "\(name)")
            #expect(metric["significant"] as? Bool == false, "\(name)")
            if let low = metric["delta_low"] as? Double, let high = metric["delta_high"] as? Double {
                #expect(low <= 0 && 0 <= high, "\(name)")
            } else {
                #expect(name == "most reminders in a user-day")  // a maximum: no interval from groups of users
            }
        }
    }

    /// Graduated recovery steps down one tier at a time: fewer user-days at tier 0, more at tier 1,
    /// far beyond the noise of 100 users × 14 days (the tier-0 interval ends 1.4 points from 0 or more
    /// for seeds 1, 2, 3). Its tier-3 share hardly moves: its interval holds 0 here.
    @Test func graduatedRecoveryMovesTheLowTiersSignificantly() throws {
        let (_, metrics) = try population(["rules", "examples/graduated-recovery", "--json", "--population-users", "100", "--days", "14"])
        let tier0 = try #require(metrics["user-days at tier 0"]), tier1 = try #require(metrics["user-days at tier 1"])
        #expect(tier0["significant"] as? Bool == true)
        #expect(try #require(tier0["delta_high"] as? Double) < -0.01)
        #expect(tier1["significant"] as? Bool == true)
        #expect(try #require(tier1["delta_low"] as? Double) > 0)
        #expect(metrics["habit completion rate"]?["significant"] as? Bool == false)
    }

    @Test func theTextMarksTheSignificantDeltasAndSaysHow() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-population-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "rules", "examples/graduated-recovery", "--population-users", "100", "--days", "14", "--runs", "1",
            "--economy-runs", "0", "--habit-runs", "0", "--out", out.path,
        ])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let tier0 = try #require(lines.first { $0.hasPrefix("  user-days at tier 0") })
        #expect(tier0.hasSuffix("] *"), "\(tier0)")
        let habits = try #require(lines.first { $0.hasPrefix("  habit completion rate") })
        #expect(habits.hasSuffix("[0, 0]"), "\(habits)")
        #expect(lines.contains { $0.contains("Student t over 20 groups of 5 users") && $0.contains("* marks a difference") })
    }

    @Test func replicasGiveTheIntervalOverTheReplicas() throws {
        let (population, metrics) = try population([
            "rules", "rules", "--json", "--population-users", "10", "--days", "5", "--population-replicas", "3",
        ])
        #expect(population["replicas"] as? Int == 3)
        #expect((population["interval"] as? [String: Any])?["method"] as? String == "replicas")
        #expect(metrics["most reminders in a user-day"]?["delta_low"] as? Double == 0)
        let bad = try CLI.run(["compare", "rules", "rules", "--population-replicas", "0"])
        #expect(bad.status != 0 && bad.stderr.contains("--population-replicas"), "\(bad.stderr)")
    }
}

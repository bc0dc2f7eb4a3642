import Foundation
import Testing

/// Parameter recovery of `rulesrun fit` over replicates (slow: listed in Tests/slow-tests.txt):
/// logs simulated from a persona whose leaving response is known (`steady`'s: the defaults), each
/// fitted; the 95 % intervals of the identified parameters contain the truth in at least 90 % of
/// (parameter, replicate) pairs, and they narrow with more users.
@Suite struct FitRecoveryTests {
    static let truth = ["base": 0.01, "denied": 0.2, "high_tier": 0.7, "reminders": 0.1, "engaged": -1.0]

    /// The identified parameters of one replicate: name, low, high.
    static func replicate(users: Int, seed: Int, in dir: URL) throws -> [(String, Double, Double)] {
        let log = "log-\(users)-\(seed).jsonl"
        let simulated = try CLI.run(
            ["simulate", "14d", "--users", "\(users)", "--no-db", "--events", log, "--persona", "steady", "--seed", "\(seed)"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fitted = try CLI.run(["fit", log, "--format", "json"], in: dir)
        #expect(fitted.status == 0, "\(fitted.stderr)")
        try FileManager.default.removeItem(at: dir.appendingPathComponent(log))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(fitted.stdout.utf8)) as? [String: Any])
        return FitCommandTests.parameters(report, "leaving").compactMap { p in
            guard p["identified"] as? Bool == true, let low = p["low"] as? Double, let high = p["high"] as? Double else { return nil }
            return (p["name"] as! String, low, high)
        }
    }

    @Test func theIntervalsContainTheTruthAndNarrowWithMoreUsers() throws {
        let dir = try CLI.folder([:])
        var pairs = 0, covered = 0
        var widths: [String: [Double]] = [:]
        for seed in 1...20 {
            for (name, low, high) in try Self.replicate(users: 1000, seed: seed, in: dir) {
                pairs += 1
                if low <= Self.truth[name]!, Self.truth[name]! <= high { covered += 1 }
                widths[name, default: []].append(high - low)
            }
        }
        #expect(pairs >= 40, "\(pairs) identified (parameter, replicate) pairs")
        #expect(Double(covered) >= 0.9 * Double(pairs), "\(covered) of \(pairs) intervals contain the truth")
        // A quarter of the users: wider intervals (about twice as wide).
        var fewer: [String: [Double]] = [:]
        for seed in 101...105 {
            for (name, low, high) in try Self.replicate(users: 250, seed: seed, in: dir) { fewer[name, default: []].append(high - low) }
        }
        for name in ["base", "high_tier"] {
            let mean = { (x: [Double]) in x.reduce(0, +) / Double(max(1, x.count)) }
            #expect(mean(fewer[name] ?? []) > 1.4 * mean(widths[name] ?? []), "\(name): \(fewer[name] ?? []) against \(widths[name] ?? [])")
        }
    }
}

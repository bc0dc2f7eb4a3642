import Foundation
import Testing

/// `rulesrun fit` on logs simulated from known personas (docs/fit.md): the leaving response's
/// parameters are recovered, a parameter the log cannot inform is reported so, and the fitted
/// persona is one `simulate` runs.
@Suite struct FitCommandTests {
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The default cohort (its personas leave with the defaults: base 0.01, denied 0.2, high_tier
    /// 0.7, reminders 0.1, engaged −1): each estimate within 3 standard errors of the truth. A slow
    /// test (Tests/slow-tests.txt): 600 users to identify five parameters, about 25 s of CPU.
    @Test func theLeavingResponseIsRecovered() throws {
        let dir = try CLI.folder([:])
        let simulated = try CLI.run(["simulate", "20d", "--users", "600", "--no-db", "--events", "log.jsonl", "--seed", "3"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fitted = try CLI.run(["fit", "log.jsonl", "--format", "json"], in: dir)
        #expect(fitted.status == 0, "\(fitted.stderr)")
        let report = try Self.object(fitted.stdout)
        #expect((report["left"] as? Int ?? 0) > 20, "\(report)")
        let truth = ["base": 0.01, "denied": 0.2, "high_tier": 0.7, "reminders": 0.1, "engaged": -1.0]
        let parameters = try #require(report["parameters"] as? [[String: Any]])
        #expect(parameters.map { $0["name"] as? String } == ["base", "denied", "high_tier", "reminders", "engaged"])
        for p in parameters {
            let name = p["name"] as! String
            #expect(p["identified"] as? Bool == true, "\(name): \(p)")
            guard let low = p["low"] as? Double, let high = p["high"] as? Double, let estimate = p["estimate"] as? Double else { continue }
            let logit = { (x: Double) in name == "base" ? log(x / (1 - x)) : x }
            let se = (logit(high) - logit(low)) / (2 * 1.959964)
            #expect(abs(logit(estimate) - logit(truth[name]!)) <= 3 * se, "\(name): \(estimate) [\(low), \(high)], truth \(truth[name]!)")
        }
    }

    /// One persona, 200 users: too few leave after a day with an unlock denied to say anything of
    /// `denied`, which is reported not identified and keeps the persona's value; the fitted
    /// persona loads and simulates; the table of a fit.
    @Test func whatTheLogCannotInformIsSaidSo() throws {
        let dir = try CLI.folder([:])
        let simulated = try CLI.run(
            ["simulate", "10d", "--users", "200", "--db", "log.sqlite", "--events", "log.jsonl", "--persona", "steady"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fitted = try CLI.run(["fit", "log.jsonl", "--persona", "steady", "--out", "fitted.lua", "--format", "json"], in: dir)
        #expect(fitted.status == 0, "\(fitted.stderr)")
        let parameters = try #require(try Self.object(fitted.stdout)["parameters"] as? [[String: Any]])
        let denied = try #require(parameters.first { $0["name"] as? String == "denied" })
        #expect(denied["identified"] as? Bool == false)
        #expect((denied["reason"] as? String)?.isEmpty == false, "\(denied)")
        #expect(denied["estimate"] as? Double == 0.2)
        let persona = try String(contentsOf: dir.appendingPathComponent("fitted.lua"), encoding: .utf8)
        #expect(persona.contains("persona.responses.leaving.base = "))
        #expect(!persona.contains("persona.responses.leaving.denied = "))
        let rerun = try CLI.run(["simulate", "2d", "--users", "5", "--no-db", "--persona", "fitted.lua"], in: dir)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        // The database the run wrote, read as the log it implies (docs/analyze.md): its users that
        // can be given back are fitted; those that cannot are named on standard error.
        // In a table (the default format).
        let fromDatabase = try CLI.run(["fit", "log.sqlite"], in: dir)
        #expect(fromDatabase.status == 0, "\(fromDatabase.stderr)")
        #expect(fromDatabase.stdout.contains("the leaving response"), "\(fromDatabase.stdout)")
        #expect(fromDatabase.stdout.contains("95% interval"))
        let users = fromDatabase.stdout.firstMatch(of: /users: ([0-9]+);/).flatMap { Int($0.1) }
        #expect((users ?? 0) > 0, "\(fromDatabase.stdout)")
        let refused = try CLI.run(["fit", "log.jsonl", "--out", "x.lua"], in: dir)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--out writes a persona with the fitted values: name it with --persona"), "\(refused.stderr)")
    }
}

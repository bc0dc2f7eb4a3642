import Foundation
import Testing

/// Parameter recovery of `rulesrun fit` over replicates (slow: listed in Tests/slow-tests.txt):
/// logs simulated from personas whose responses are known, each fitted; the 95 % intervals of the
/// identified parameters contain the truth in at least 90 % of (parameter, replicate) pairs, and
/// they narrow with more users — for one segment (`steady`: the leaving response's defaults, its
/// task's rate and the streak response's defaults) and for a mixture of two.
@Suite struct FitRecoveryTests {
    static let truth = [
        "base": 0.01, "denied": 0.2, "high_tier": 0.7, "reminders": 0.1, "engaged": -1.0, "rate[meditate]": 0.85, "gradient": 0.2,
        "at_stake": 0.4, "after_break": -0.5,
    ]

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
        return (FitCommandTests.parameters(report, "leaving") + FitCommandTests.parameters(report, "habits")).compactMap { p in
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
                if low <= Self.truth[name]!, Self.truth[name]! <= high {
                    covered += 1
                } else {
                    print("not covered: seed \(seed) \(name) [\(low), \(high)]")
                }
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

    /// Each identified parameter's interval, with its truth, from one fit's JSON report: the
    /// parameters of `responses` (named `response.parameter`) and of the check-ins (`answers.…`).
    static func intervals(
        _ fitted: String, _ responses: [String], truth: [String: Double]
    ) throws -> [(
        name: String, truth: Double, low: Double, high: Double
    )] {
        let report = try FitCommandTests.object(fitted)
        let answers = (report["answers"] as? [String: Any])?["parameters"] as? [[String: Any]] ?? []
        let named = responses.flatMap { r in FitCommandTests.parameters(report, r).map { (r, $0) } } + answers.map { ("answers", $0) }
        return named.compactMap { response, p in
            guard let name = p["name"] as? String, let value = truth["\(response).\(name)"] else { return nil }
            guard p["identified"] as? Bool == true, let low = p["low"] as? Double, let high = p["high"] as? Double else {
                Issue.record("\(response).\(name) is not identified: \(p)")
                return nil
            }
            return ("\(response).\(name)", value, low, high)
        }
    }

    /// Coverage over replicates of 1,000 users of `persona` over `days`, fitted from `prior`: the
    /// parameters of `responses` and of the check-ins named in `truth` (at least `pairs` identified
    /// pairs, 90 % covered), and the intervals' mean widths, per parameter, against those of a
    /// replicate of 10,000 users (more than twice narrower: √10 ≈ 3.2 expected).
    static func covered(
        pairs least: Int, in dir: URL, days: Int, persona: String, prior: String, _ responses: [String], truth: [String: Double]
    ) throws {
        func replicate(_ users: Int, _ seed: Int) throws -> [(name: String, truth: Double, low: Double, high: Double)] {
            let log = "log-\(users)-\(seed).jsonl"
            let simulated = try CLI.run(
                ["simulate", "\(days)d", "--users", "\(users)", "--no-db", "--events", log, "--persona", persona, "--seed", "\(seed)"],
                in: dir)
            #expect(simulated.status == 0, "\(simulated.stderr)")
            let fitted = try CLI.run(["fit", log, "--persona", prior, "--format", "json"], in: dir)
            #expect(fitted.status == 0, "\(fitted.stderr)")
            try FileManager.default.removeItem(at: dir.appendingPathComponent(log))
            return try Self.intervals(fitted.stdout, responses, truth: truth)
        }
        var pairs = 0, covered = 0
        var widths: [String: [Double]] = [:], more: [String: [Double]] = [:]
        for seed in 1...20 {
            for p in try replicate(1000, seed) {
                pairs += 1
                if p.low <= p.truth, p.truth <= p.high { covered += 1 } else { print("not covered: seed \(seed) \(p)") }
                widths[p.name, default: []].append(p.high - p.low)
            }
        }
        #expect(pairs >= least, "\(pairs) identified (parameter, replicate) pairs")
        #expect(Double(covered) >= 0.9 * Double(pairs), "\(covered) of \(pairs) intervals contain the truth")
        for p in try replicate(10_000, 101) { more[p.name, default: []].append(p.high - p.low) }
        let mean = { (x: [Double]) in x.reduce(0, +) / Double(max(1, x.count)) }
        for name in widths.keys.sorted() {
            #expect(mean(widths[name]!) > 2 * mean(more[name] ?? [.infinity]), "\(name): \(widths[name]!) against \(more[name] ?? [])")
        }
    }

    /// Pressure's commitment and check-ins (`ResponsesFitTests.truth`: commit 0.8, the lost-streak
    /// effects, YES 0.5 and NO 0.1 at the first look, the reminders' answers by tier with fatigue,
    /// the YES share of those), 30 days, fitted from other priors: 11 parameters a replicate.
    @Test func thePressureResponsesAreCoveredAndNarrow() throws {
        let dir = try CLI.folder(["truth.lua": ResponsesFitTests.truth, "prior.lua": ResponsesFitTests.prior])
        var truth = [
            "commit.commit": 0.8, "commit.lost_streak": log(0.6 / 0.4) - log(0.8 / 0.2), "answers.answer.yes": 0.5,
            "answers.answer.no_share": 0.2, "answers.lost_streak": log(0.4 / 0.6), "answers.per_reminder": 0.15,
            "answers.reminder_yes_share": 0.6,
        ]
        for (t, r) in [0.3, 0.4, 0.5, 0.6].enumerated() { truth["answers.reminder_response[\(t)]"] = r }
        try Self.covered(pairs: 20 * 11, in: dir, days: 30, persona: "truth.lua", prior: "prior.lua", ["commit"], truth: truth)
    }

    /// Earned's habits and the earning response (`focus-user`: walk 0.6, read 0.5, boost 0.5),
    /// 7 days: 3 parameters a replicate.
    @Test func theEarningResponseIsCoveredAndNarrows() throws {
        let truth = ["earning.earned.rate[read]": 0.5, "earning.earned.rate[walk]": 0.6, "earning.boost": 0.5]
        try Self.covered(
            pairs: 20 * 3, in: try CLI.folder([:]), days: 7, persona: "focus-user", prior: "focus-user", ["earning"], truth: truth)
    }

    /// Two kinds of habit tracker users, 60 % and 40 % (rates 0.85 and 0.45, leaving 0.005 and
    /// 0.03 a day, the streak response's defaults), fitted as two segments over 20 replicates of
    /// 1,000 users and 2 of 10,000: the shares, rates, bases and shared effects are covered, and
    /// 10 times the users narrow the intervals (by about √10).
    @Test func aMixtureOfTwoSegmentsIsRecovered() throws {
        let dir = try CLI.folder([
            "keen.lua": FitCommandTests.habitPersona("meditate", 0.85, 0.005),
            "casual.lua": FitCommandTests.habitPersona("meditate", 0.45, 0.03),
        ])
        let effects = ["gradient": 0.2, "at_stake": 0.4, "after_break": -0.5]
        /// Each identified parameter's interval, with its truth, of one replicate.
        func replicate(users: Int, seed: Int) throws -> [(name: String, truth: Double, low: Double, high: Double)] {
            let log = "mix-\(users)-\(seed).jsonl"
            let simulated = try CLI.run(
                [
                    "simulate", "14d", "--users", "\(users)", "--no-db", "--events", log, "--persona", "keen.lua:60,casual.lua:40",
                    "--seed", "\(seed)",
                ],
                in: dir)
            #expect(simulated.status == 0, "\(simulated.stderr)")
            let fitted = try CLI.run(["fit", log, "--segments", "2", "--format", "json"], in: dir)
            #expect(fitted.status == 0, "\(fitted.stderr)")
            try FileManager.default.removeItem(at: dir.appendingPathComponent(log))
            let report = try FitCommandTests.object(fitted.stdout)
            let list = (report["segments"] as? [String: Any])?["list"] as? [[String: Any]] ?? []
            guard list.count == 2 else {
                Issue.record("seed \(seed): \(report["segments"] ?? "no segments")")
                return []
            }
            var found: [(String, Double, Double, Double)] = []
            for (s, segment) in list.enumerated() {
                // Largest first: the keen users' segment (60 %) is the first.
                let truth = s == 0 ? (share: 0.6, rate: 0.85, base: 0.005) : (share: 0.4, rate: 0.45, base: 0.03)
                if let low = segment["low"] as? Double, let high = segment["high"] as? Double {
                    found.append(("share", truth.share, low, high))
                }
                for p in FitCommandTests.parameters(segment, "habits") + FitCommandTests.parameters(segment, "leaving") {
                    guard p["identified"] as? Bool == true, let name = p["name"] as? String, let low = p["low"] as? Double,
                        let high = p["high"] as? Double
                    else { continue }
                    let value = name == "rate[meditate]" ? truth.rate : name == "base" ? truth.base : effects[name]
                    // The effects are shared: counted once (the first segment's).
                    guard let value, s == 0 || effects[name] == nil else { continue }
                    found.append((name, value, low, high))
                }
            }
            return found
        }
        var pairs = 0, covered = 0
        var widths: [String: [Double]] = [:]
        for seed in 1...20 {
            for p in try replicate(users: 1000, seed: seed) {
                pairs += 1
                if p.low <= p.truth, p.truth <= p.high { covered += 1 } else { print("not covered: seed \(seed) \(p)") }
                widths[p.name, default: []].append(p.high - p.low)
            }
        }
        #expect(pairs >= 20 * 8, "\(pairs) identified (parameter, replicate) pairs")
        #expect(Double(covered) >= 0.9 * Double(pairs), "\(covered) of \(pairs) intervals contain the truth")
        var more: [String: [Double]] = [:]
        for seed in 101...102 {
            for p in try replicate(users: 10_000, seed: seed) { more[p.name, default: []].append(p.high - p.low) }
        }
        let mean = { (x: [Double]) in x.reduce(0, +) / Double(max(1, x.count)) }
        for name in ["share", "rate[meditate]", "gradient"] {
            #expect(
                mean(widths[name] ?? []) > 2 * mean(more[name] ?? [.infinity]), "\(name): \(widths[name] ?? []) against \(more[name] ?? [])"
            )
        }
    }
}

import Foundation
import Testing

/// `rulesrun fit` on logs simulated from known personas (docs/fit.md): the leaving response's
/// parameters are recovered, a parameter the log cannot inform is reported so, and the fitted
/// persona is one `simulate` runs.
@Suite struct FitCommandTests {
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A persona of the habit tracker alone: one task done at `rate` a day, leaving at `base` a day.
    static func habitPersona(_ task: String, _ rate: Double, _ base: Double) -> String {
        """
        return {
          description = "Habits only: \(task) at \(rate) a day.",
          habits = { { task = "\(task)", rate = \(rate) } },
          responses = { leaving = { base = \(base) } },
        }
        """
    }

    /// The report's section of `response`, and its parameters.
    static func section(_ report: [String: Any], _ response: String) -> [String: Any]? {
        (report["responses"] as? [[String: Any]] ?? []).first { $0["response"] as? String == response }
    }
    static func parameters(_ report: [String: Any], _ response: String) -> [[String: Any]] {
        section(report, response)?["parameters"] as? [[String: Any]] ?? []
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
        #expect((Self.section(report, "leaving")?["events"] as? Double ?? 0) > 20, "\(report)")
        let truth = ["base": 0.01, "denied": 0.2, "high_tier": 0.7, "reminders": 0.1, "engaged": -1.0]
        let parameters = Self.parameters(report, "leaving")
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
            ["simulate", "10d", "--users", "50", "--db", "log.sqlite", "--events", "log.jsonl", "--persona", "steady"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fitted = try CLI.run(["fit", "log.jsonl", "--persona", "steady", "--out", "fitted.lua", "--format", "json"], in: dir)
        #expect(fitted.status == 0, "\(fitted.stderr)")
        let parameters = Self.parameters(try Self.object(fitted.stdout), "leaving")
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
        #expect(fromDatabase.stdout.contains("\nleaving: "), "\(fromDatabase.stdout)")
        #expect(fromDatabase.stdout.contains("95% interval"))
        let users = fromDatabase.stdout.firstMatch(of: /; ([0-9]+) users replayed/).flatMap { Int($0.1) }
        #expect((users ?? 0) > 0, "\(fromDatabase.stdout)")
        let refused = try CLI.run(["fit", "log.jsonl", "--out", "x.lua"], in: dir)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--out writes a persona with the fitted values: name it with --persona"), "\(refused.stderr)")
    }

    /// A habit tracker's users of two kinds (a task done at 0.9 or at 0.4 a day; leaving at 0.005
    /// or 0.04 a day), half and half: `--segments auto` finds two segments by BIC, each share and
    /// rate within 3 standard errors of the truth, the streak response's effects shared; `--out`
    /// writes a persona per segment, which simulate runs as the mix fit prints.
    @Test func twoKindsOfUsersAreFoundAsTwoSegments() throws {
        let dir = try CLI.folder(["keen.lua": Self.habitPersona("read", 0.9, 0.005), "casual.lua": Self.habitPersona("read", 0.4, 0.04)])
        let simulated = try CLI.run(
            [
                "simulate", "20d", "--users", "200", "--no-db", "--events", "log.jsonl", "--persona", "keen.lua:50,casual.lua:50", "--seed",
                "2",
            ],
            in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fitted = try CLI.run(
            ["fit", "log.jsonl", "--segments", "auto:3", "--persona", "keen.lua", "--out", "fitted.lua", "--format", "json"], in: dir)
        #expect(fitted.status == 0, "\(fitted.stderr)")
        let report = try Self.object(fitted.stdout)
        let segments = try #require(report["segments"] as? [String: Any])
        #expect(segments["chosen"] as? Int == 2, "\(segments)")
        let list = try #require(segments["list"] as? [[String: Any]])
        try #require(list.count == 2)
        /// Within 3 standard errors of `truth` on the logit scale (the intervals are symmetric there).
        func near(_ p: [String: Any], _ truth: Double, _ what: String) {
            guard let e = p["estimate"] as? Double ?? p["share"] as? Double, let low = p["low"] as? Double, let high = p["high"] as? Double
            else {
                Issue.record("\(what): \(p)")
                return
            }
            let logit = { (x: Double) in log(x / (1 - x)) }
            let se = (logit(high) - logit(low)) / (2 * 1.959964)
            #expect(abs(logit(e) - logit(truth)) <= 3 * se, "\(what): \(e) [\(low), \(high)], truth \(truth)")
        }
        // Segments come largest first: which is which is read from the rates.
        let rates = list.map { Self.parameters($0, "habits").first { $0["name"] as? String == "rate[read]" } ?? [:] }
        let keen = (rates[0]["estimate"] as? Double ?? 0) > (rates[1]["estimate"] as? Double ?? 0) ? 0 : 1
        for (s, truth) in [(keen, (rate: 0.9, base: 0.005)), (1 - keen, (rate: 0.4, base: 0.04))] {
            near(list[s], 0.5, "share of segment \(s + 1)")
            near(rates[s], truth.rate, "rate of segment \(s + 1)")
            near(
                Self.parameters(list[s], "leaving").first { $0["name"] as? String == "base" } ?? [:], truth.base, "base of segment \(s + 1)"
            )
        }
        #expect(fitted.stderr.contains("simulate their users with --persona fitted-1.lua:"), "\(fitted.stderr)")
        let mix = try #require(fitted.stderr.split(separator: " ").last.map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) })
        let rerun = try CLI.run(["simulate", "2d", "--users", "5", "--no-db", "--persona", mix], in: dir)
        #expect(rerun.status == 0, "\(rerun.stderr)")
    }

    /// A log that contradicts the rules: events the rules refuse (a check-in without a
    /// commitment, a completion of a task never defined) are counted by code, with their lines,
    /// in the text and the JSON, and change nothing; users the bundle cannot give an arm are
    /// counted on standard error, never dropped in silence.
    @Test func eventsTheRulesRefuseAreCountedWithTheirLines() throws {
        let dir = try CLI.folder([:])
        let simulated = try CLI.run(
            ["simulate", "6d", "--users", "30", "--no-db", "--events", "log.jsonl", "--persona", "steady", "--start", "2026-03-02"], in: dir
        )
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let log = dir.appendingPathComponent("log.jsonl")
        var text = try String(contentsOf: log, encoding: .utf8)
        let lines = text.split(separator: "\n").count
        text += """
            {"at":"2026-03-03T07:00:00Z","user":"intruder","type":"settings","timezone":"UTC"}
            {"at":"2026-03-03T12:00:00Z","user":"intruder","type":"check_in","result":"YES"}
            {"at":"2026-03-03T13:00:00Z","user":"intruder","type":"habit_completion","task":"juggle"}

            """
        try text.write(to: log, atomically: true, encoding: .utf8)
        let table = try CLI.run(["fit", "log.jsonl"], in: dir)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("events the rules refused"), "\(table.stdout)")
        #expect(table.stdout.contains("line \(lines + 2): intruder: "), "\(table.stdout)")
        #expect(table.stdout.contains("line \(lines + 3): intruder: "), "\(table.stdout)")
        let json = try Self.object(try CLI.run(["fit", "log.jsonl", "--format", "json"], in: dir).stdout)
        let refused = try #require(json["refused"] as? [[String: Any]])
        #expect(refused.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } >= 2, "\(refused)")
        #expect(
            refused.contains { ($0["examples"] as? [String] ?? []).contains { $0.hasPrefix("line \(lines + 3): intruder:") } }, "\(refused)"
        )
    }

    /// `--check users:25`: a quarter of the users is held out of the fit and compared with as many
    /// simulated from the fitted persona. What the fit estimates agrees (the task's completion
    /// rate); what it does not estimate and the persona has wrong (MIGA's exits) differs.
    @Test func theHeldOutUsersAreComparedWithUsersSimulatedFromTheFit() throws {
        func persona(exit: Double) -> String {
            """
            return {
              description = "Habits and MIGA.",
              habits = { { task = "read", rate = 0.7 } },
              miga = { opens_per_day = 3, exit = \(exit), deepen = 0.1 },
            }
            """
        }
        let dir = try CLI.folder(["truth.lua": persona(exit: 0.5), "wrong.lua": persona(exit: 0.1)])
        let simulated = try CLI.run(
            ["simulate", "14d", "--users", "240", "--no-db", "--events", "log.jsonl", "--persona", "truth.lua"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fitted = try CLI.run(
            ["fit", "log.jsonl", "--persona", "wrong.lua", "--check", "users:25", "--format", "json", "--html", "fit.html"], in: dir)
        #expect(fitted.status == 0, "\(fitted.stderr)")
        let check = try #require(try Self.object(fitted.stdout)["check"] as? [String: Any])
        let held = check["observed_users"] as? Int ?? 0
        #expect((40...80).contains(held), "\(check)")
        #expect(check["simulated_users"] as? Int == held)
        #expect(check["start"] as? String == "2026-01-05" && check["days"] as? Int == 14, "\(check)")
        let metrics = check["metrics"] as? [[String: Any]] ?? []
        let agrees = { (id: String) in metrics.first { $0["id"] as? String == id }?["agrees"] as? Bool }
        #expect(agrees("habit_completion_rate") == true, "\(metrics)")
        #expect(agrees("exits_to_focus") == false, "\(metrics)")
        // The fit saw the other users only.
        #expect(try Self.object(fitted.stdout)["users"] as? Int == 240 - held)
        // Day by day: each per-day metric of the apps used, the held-out users' and the simulated
        // users' over the log's 14 days; the habit tracker's curves close, MIGA's exits apart.
        let curves = check["per_day"] as? [[String: Any]] ?? []
        let curve = { (id: String) in curves.first { $0["id"] as? String == id } }
        let habit = try #require(curve("habit_completion_rate"), "\(curves.map { $0["id"] })")
        let observed = habit["observed"] as? [Double] ?? [], simulatedCurve = habit["simulated"] as? [Double] ?? []
        #expect(observed.count == 14 && simulatedCurve.count == 14, "\(habit)")
        let mean = { (v: [Double]) in v.reduce(0, +) / Double(max(1, v.count)) }
        #expect(abs(mean(observed) - 0.7) < 0.06 && abs(mean(simulatedCurve) - 0.7) < 0.06, "\(habit)")
        #expect(curve("yes_rate") == nil, "no Pressure user: no Pressure curve")
        // The page: the JSON embedded byte for byte, a forest row per metric (MIGA's exits apart),
        // a chart per curve with both series.
        let html = try String(contentsOf: dir.appendingPathComponent("fit.html"), encoding: .utf8)
        CompareHTMLTests.noNetwork(html)
        #expect(try CompareHTMLTests.embedded(html, id: "fit") == fitted.stdout)
        #expect(html.contains("<h2>Check on users the fit did not see</h2>") && html.contains("<h3>Day by day</h3>"))
        #expect(html.contains("<g data-metric=\"MIGA exits to focus\" data-id=\"exits_to_focus\" data-significant=\"true\""), "\(html)")
        #expect(html.contains("<g data-metric=\"habit completion rate\" data-id=\"habit_completion_rate\" data-significant=\"false\""))
        #expect(html.components(separatedBy: "data-series=\"observed\"").count == curves.count + 1)
        #expect(html.components(separatedBy: "data-series=\"simulated\"").count == curves.count + 1)
        #expect(check["final_streaks"] is NSNull, "no Pressure user: no streak distribution")
        let refused = try CLI.run(["fit", "log.jsonl", "--check", "users:25"], in: dir)
        #expect(refused.status != 0 && refused.stderr.contains("--check users:P simulates the fitted persona"), "\(refused.stderr)")
    }

    /// `--check days:D`: the log's last days held out of the fit and each choice on them predicted
    /// from the fit and the replayed state: users who go on as before agree; users who tire on the
    /// last days (their rate halved from day 11) differ, by fewer completions than expected.
    @Test func theLaterDaysAreComparedWithTheFitsPrediction() throws {
        func persona(tired: Double) -> String {
            """
            return {
              description = "Habits alone, tired from day 11.",
              apps = { "habits" },
              habits = { { task = "read", rate = 0.8 } },
              responses = { leaving = { base = 0.01 } },
              day = function(d) if d.day >= 11 then return { habit_scale = \(tired) } end end,
            }
            """
        }
        let dir = try CLI.folder(["steady.lua": persona(tired: 1), "tired.lua": persona(tired: 0.5)])
        var totals: [String: [String: Any]] = [:]
        for name in ["steady", "tired"] {
            let log = "\(name).jsonl"
            let simulated = try CLI.run(
                ["simulate", "14d", "--users", "150", "--no-db", "--events", log, "--persona", "\(name).lua"], in: dir)
            #expect(simulated.status == 0, "\(simulated.stderr)")
            let fitted = try CLI.run(
                ["fit", log, "--persona", "\(name).lua", "--check", "days:4", "--format", "json", "--html", "\(name).html"], in: dir)
            #expect(fitted.status == 0, "\(fitted.stderr)")
            let html = try String(contentsOf: dir.appendingPathComponent("\(name).html"), encoding: .utf8)
            #expect(html.contains("<h2>Check on days the fit did not see</h2>") && html.contains("data-series=\"expected\""))
            let later = try #require(try Self.object(fitted.stdout)["later_days"] as? [String: Any])
            #expect(later["days"] as? Int == 4)
            let responses = later["responses"] as? [[String: Any]] ?? []
            let habits = try #require(responses.first { $0["response"] as? String == "habits" })
            totals[name] = habits["total"] as? [String: Any]
            #expect((habits["by_day"] as? [Any])?.count == 4)
            // The fit saw the first 10 days only: the rate fitted is the first days' (0.8).
            let rate = Self.parameters(try Self.object(fitted.stdout), "habits").first { $0["name"] as? String == "rate[read]" }
            #expect(abs((rate?["estimate"] as? Double ?? 0) - 0.8) < 0.05, "\(String(describing: rate))")
        }
        let steady = try #require(totals["steady"]), tired = try #require(totals["tired"])
        #expect(steady["agrees"] as? Bool == true, "\(steady)")
        #expect(tired["agrees"] as? Bool == false, "\(tired)")
        #expect((tired["observed"] as! Double) < (tired["expected"] as! Double) * 0.7, "\(tired)")
        let bad = try CLI.run(["fit", "steady.jsonl", "--check", "days:14"], in: dir)
        #expect(bad.status == 2 && bad.stderr.contains("--check days:14: the log has 14 day(s); hold out fewer"), "\(bad.stderr)")
        let wrong = try CLI.run(["fit", "steady.jsonl", "--check", "weeks:2"], in: dir)
        #expect(wrong.status != 0 && wrong.stderr.contains("--check: expected users:P"), "\(wrong.stderr)")
    }

    /// `--check users:P` on Pressure users: the held-out and the simulated users still there at the
    /// log's end by their streak then, each user once, with the chi-square test of one distribution.
    @Test func theStreaksAtTheLastDayAreCompared() throws {
        let dir = try CLI.folder([:])
        let simulated = try CLI.run(
            ["simulate", "10d", "--users", "60", "--no-db", "--events", "log.jsonl", "--persona", "steady"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fitted = try CLI.run(["fit", "log.jsonl", "--persona", "steady", "--check", "users:30", "--format", "json"], in: dir)
        #expect(fitted.status == 0, "\(fitted.stderr)")
        let check = try #require(try Self.object(fitted.stdout)["check"] as? [String: Any])
        let streaks = try #require(check["final_streaks"] as? [String: Any], "\(check)")
        #expect(streaks["buckets"] as? [String] == ["0", "1-2", "3-6", "7-13", "14-29", "30+"])
        let observed = streaks["observed"] as? [Int] ?? [], simulatedUsers = streaks["simulated"] as? [Int] ?? []
        // The users still there at the log's end, each once.
        let held = check["observed_users"] as? Int ?? 0, made = check["simulated_users"] as? Int ?? 0
        #expect((held * 3 / 4...held).contains(observed.reduce(0, +)) && (made * 3 / 4...made).contains(simulatedUsers.reduce(0, +)))
        #expect(observed[3...].reduce(0, +) > 0, "steady users keep streaks of a week: \(observed)")
        let p = streaks["p_value"] as? Double ?? -1
        #expect(p > 0 && p <= 1 && streaks["agrees"] as? Bool == (p >= 0.05), "\(streaks)")
    }

    /// `--check users:P` on Earned users: the unlocks by the hour they were granted, held out and
    /// simulated, in buckets of adjacent hours with enough unlocks, with the chi-square test; a
    /// persona whose urges come in the evening, fitted to users whose urges come in the morning,
    /// differs (the gate's choice is fitted, the hours are the persona's).
    @Test func theUnlocksByHourAreCompared() throws {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("examples/personas/focus-user.lua"), encoding: .utf8)
        let urges = "urges = { per_day = 5, hours = { 7, 23 } }"
        #expect(text.contains(urges))
        let dir = try CLI.folder([
            "morning.lua": text.replacingOccurrences(of: urges, with: "urges = { per_day = 5, hours = { 7, 12 } }"),
            "evening.lua": text.replacingOccurrences(of: urges, with: "urges = { per_day = 5, hours = { 15, 23 } }"),
        ])
        let simulated = try CLI.run(
            ["simulate", "6d", "--users", "100", "--no-db", "--events", "log.jsonl", "--persona", "morning.lua"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        func hours(_ persona: String) throws -> [String: Any] {
            let fitted = try CLI.run(["fit", "log.jsonl", "--persona", persona, "--check", "users:40", "--format", "json"], in: dir)
            #expect(fitted.status == 0, "\(fitted.stderr)")
            let check = try #require(try Self.object(fitted.stdout)["check"] as? [String: Any])
            return try #require(check["unlock_hours"] as? [String: Any], "\(check)")
        }
        let same = try hours("morning.lua"), other = try hours("evening.lua")
        for h in [same, other] {
            let buckets = h["buckets"] as? [String] ?? []
            #expect(buckets.first?.hasPrefix("00") == true && buckets.last?.hasSuffix("23") == true, "\(buckets)")
            let o = h["observed"] as? [Int] ?? [], s = h["simulated"] as? [Int] ?? []
            #expect(o.count == buckets.count && s.count == buckets.count)
            #expect(zip(o, s).dropLast().allSatisfy { $0 + $1 >= 20 }, "\(o) \(s)")
        }
        let total = { (h: [String: Any]) in (h["observed"] as? [Int] ?? []).reduce(0, +) }
        #expect(total(same) == total(other) && total(same) > 100, "the held-out users are the same users: \(same) \(other)")
        #expect(same["agrees"] as? Bool == true, "\(same)")
        #expect(other["agrees"] as? Bool == false && (other["p_value"] as? Double ?? 1) < 0.001, "\(other)")
    }

    /// `--check days:4` with two segments: each user's later choices are expected from its chances
    /// of being in each segment; users of two kinds who go on as before agree, and the same users
    /// with the casual kind completing half as much on the last 4 days differ.
    @Test func aMixturesLaterDaysAreExpectedFromEachUsersChancesOfItsSegments() throws {
        let tired = Self.habitPersona("read", 0.4, 0.04).replacingOccurrences(
            of: "  responses =", with: "  day = function(d) if d.day >= 16 then return { habit_scale = 0.5 } end end,\n  responses =")
        let dir = try CLI.folder([
            "keen.lua": Self.habitPersona("read", 0.9, 0.005), "casual.lua": Self.habitPersona("read", 0.4, 0.04), "tired.lua": tired,
        ])
        var totals: [String: [String: Any]] = [:]
        for (name, mix) in [("same", "keen.lua:50,casual.lua:50"), ("tired", "keen.lua:50,tired.lua:50")] {
            let simulated = try CLI.run(
                ["simulate", "20d", "--users", "300", "--no-db", "--events", "\(name).jsonl", "--persona", mix, "--seed", "4"], in: dir)
            #expect(simulated.status == 0, "\(simulated.stderr)")
            let fitted = try CLI.run(
                ["fit", "\(name).jsonl", "--persona", "keen.lua", "--segments", "2", "--check", "days:4", "--format", "json"], in: dir)
            #expect(fitted.status == 0, "\(fitted.stderr)")
            let later = try #require(try Self.object(fitted.stdout)["later_days"] as? [String: Any])
            let habits = try #require((later["responses"] as? [[String: Any]])?.first { $0["response"] as? String == "habits" })
            #expect(habits["reason"] == nil && (habits["by_day"] as? [Any])?.count == 4, "\(habits)")
            totals[name] = habits["total"] as? [String: Any]
        }
        let same = try #require(totals["same"]), changed = try #require(totals["tired"])
        #expect(same["agrees"] as? Bool == true, "\(same)")
        #expect(changed["agrees"] as? Bool == false && (changed["observed"] as! Double) < (changed["expected"] as! Double), "\(changed)")
    }
}

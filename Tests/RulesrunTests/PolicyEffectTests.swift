import Foundation
import Testing

/// What the simulated users' responses are for: a policy knob moves a metric significantly, as
/// `compare --json` reports it (the same cohort under A and B, B − A with its paired interval).
@Suite struct PolicyEffectTests {
    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text.prefix(300))")
    }

    /// `compare A B` of the population alone (one Pressure history, no economy nor habit histories):
    /// each metric by name.
    func population(_ a: String, _ b: String, users: Int, days: Int, _ extra: [String]) throws -> [String: [String: Any]] {
        let result = try CLI.run(
            [
                "compare", a, b, "--runs", "1", "--days", String(days), "--economy-runs", "0", "--habit-runs", "0",
                "--population-users", String(users), "--json",
            ] + extra)
        let population = try #require(try object(result.stdout)["population"] as? [String: Any], "\(result.stderr)")
        let metrics = try #require(population["metrics"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: metrics.map { ($0["name"] as? String ?? "", $0) })
    }

    func number(_ value: Any?) throws -> Double { try #require((value as? NSNumber)?.doubleValue, "\(String(describing: value))") }

    /// A daily learner who misses about one day in five and keeps streak freezes equipped (bought
    /// ahead, never used by hand): what an equipped freeze does on a missed day is the rules' call.
    static let freezer = """
        return {
          description = "A daily lesson, some days missed, streak freezes equipped ahead.",
          apps = { "habits" },
          settings = { timezone = "Europe/Berlin" },
          habits = {
            { task = "lesson", rate = 0.8, freeze = { equip = 0.2, max = 2, use = 0 } },
          },
        }
        """

    /// Duolingo's streak (examples/duolingo-streak: an equipped freeze, up to `params.freeze_max` = 2
    /// held, is spent on a missed day and keeps the streak) against the default rules (a missed day
    /// breaks it): the habit streak p50 and p90 rise, each B − A's interval above 0. With the knob
    /// at 0 the same folder decides as the default rules: no difference at all.
    @Test func streakFreezesLengthenTheHabitStreakSignificantly() throws {
        let dir = try CLI.folder([
            "freezer.lua": Self.freezer,
            "no-freezes/extends": CLI.packageRoot.appendingPathComponent("examples/duolingo-streak").path,
            "no-freezes/streaks.lua": "local M = base\nM.params.freeze_max.default = 0\nreturn M\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let persona = ["--persona", dir.appendingPathComponent("freezer.lua").path]
        let freezes = try population("rules", "examples/duolingo-streak", users: 100, days: 20, persona)
        for name in ["habit streak p50", "habit streak p90"] {
            let m = try #require(freezes[name], "\(freezes.keys)")
            let (delta, low, high) = (try number(m["delta"]), try number(m["delta_low"]), try number(m["delta_high"]))
            #expect(delta > 0 && low > 0 && low <= delta && delta <= high && m["significant"] as? Bool == true, "\(name): \(m)")
        }
        let none = try population("rules", dir.appendingPathComponent("no-freezes").path, users: 100, days: 20, persona)
        for name in ["habit streak p50", "habit streak p90", "habit completion rate"] {
            #expect(try number(none[name]?["delta"]) == 0 && none[name]?["significant"] as? Bool == false, "\(name): \(none[name] ?? [:])")
        }
    }

    /// A Pressure user who commits most days and answers YES about half the time (Pressure alone:
    /// a cheap cohort of many users).
    static let wobbly = """
        return {
          description = "Commits most days; YES about half the time.",
          apps = { "pressure" },
          settings = { timezone = "Europe/Berlin", commitment_deadline = "09:00", checkin_window_close = "21:00" },
          commit = 0.8,
          answer = { yes = 0.55, no = 0.15 },
          reminder_response = { 0.3, 0.4, 0.5, 0.6 },
        }
        """

    /// A harsher escalation: the document's reading where a miss never lowers the tier
    /// (examples/miss-never-lowers-tier), leaving each tier only after 5, 7 and 10 YES days, and
    /// three reminders at every tier. With the leaving response (on by default), users spend far
    /// more days at tier 2 or 3 and fewer are still active on day 30: B − A's interval is below 0.
    /// Without responses nobody leaves under either. (400 users: B − A's interval of retention is
    /// about −5 ± 3.4 points.)
    @Test func aHarsherEscalationLowersDay30RetentionSignificantly() throws {
        let dir = try CLI.folder([
            "wobbly.lua": Self.wobbly,
            "harsher/extends": CLI.packageRoot.appendingPathComponent("examples/miss-never-lowers-tier").path,
            "harsher/escalation.lua": """
            local M = base
            M.recover_after = { 5, 7, 10 }
            M.reminders = {
              [0] = { "mid", "close-120", "close-30" },
              [1] = { "mid", "close-120", "close-30" },
              [2] = { "mid", "close-120", "close-30" },
              [3] = { "mid", "close-120", "close-30" },
            }
            return M

            """,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["--persona", dir.appendingPathComponent("wobbly.lua").path]
        let harsher = dir.appendingPathComponent("harsher").path
        let metrics = try population("rules", harsher, users: 400, days: 30, args)
        let retained = try #require(metrics["retained on day 30"], "\(metrics.keys)")
        let (delta, low, high) = (try number(retained["delta"]), try number(retained["delta_low"]), try number(retained["delta_high"]))
        #expect(delta < 0 && high < 0 && low <= delta && retained["significant"] as? Bool == true, "\(retained)")
        let tier3 = try #require(metrics["user-days at tier 3"])
        #expect(try number(tier3["delta"]) > 0.1 && tier3["significant"] as? Bool == true, "\(tier3)")

        let still = try population("rules", harsher, users: 100, days: 30, args + ["--no-responses"])
        #expect(try number(still["retained on day 30"]?["a"]) == 1 && (try number(still["retained on day 30"]?["delta"])) == 0)
    }
}

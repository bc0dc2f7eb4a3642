import Foundation
import Testing

/// A team's own metrics (`metrics.lua`, docs/simulate.md#team-metrics): checked like rule files,
/// computed on every user-day of a run from what the engine logged and decided, and reported with
/// the built-in metrics by simulate (table, JSON, CSV, HTML, replicas, merge), compare and sweep.
@Suite struct TeamMetricsTests {
    static let rules = CLI.packageRoot.appendingPathComponent("rules").path

    /// A rule folder that extends the default rules and has `metrics`.
    func folder(_ metrics: String) throws -> URL {
        try CLI.folder(["extends": Self.rules + "\n", "metrics.lua": metrics])
    }

    /// As the JSON report rounds its figures.
    func round4(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Metrics that count what the built-in report counts too, a share and a percentile of known values.
    static let checks = """
        return {
          { id = "events_seen", label = "events per user-day", unit = "per_user_day", aggregate = "mean",
            day = function(d) return #d.events end },
          { id = "refused_seen", label = "refused events per user", unit = "count", aggregate = "per_user",
            day = function(d)
              local n = 0
              for _, e in ipairs(d.events) do if e.refused then n = n + 1 end end
              return n
            end },
          { id = "reminders_seen", label = "reminders per Pressure user-day", app = "pressure", unit = "per_user_day",
            aggregate = "mean",
            day = function(d)
              local n = 0
              for _, x in ipairs(d.decisions) do if x.type == "reminders_sent" then n = n + 1 end end
              return n
            end },
          { id = "third_day", label = "users seen on day 3", unit = "share", aggregate = "share_of_users",
            day = function(d) return d.day == 3 end },
          { id = "day_p50", label = "day number p50", unit = "days", aggregate = "p50", day = function(d) return d.day end },
          { id = "tier_seen", label = "tier at the end of the day", app = "pressure", unit = "count", aggregate = "p90",
            day = function(d) return d.pressure.tier end },
        }
        """

    /// The values agree with the engine's own counts: the events and refusals of every user-day,
    /// the reminders, a share of users and percentiles of known values.
    @Test func theValuesAreTheEnginesCounts() throws {
        let dir = try folder(Self.checks)
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run([
            "simulate", "5d", "--users", "40", "--rules", dir.path, "--persona", "steady,struggling", "--no-db", "--no-responses",
            "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(result.stdout)
        let summary = try #require(report["summary"] as? [String: Any])
        let team = try #require(summary["team_metrics"] as? [String: Double])
        let days = try #require(report["days"] as? [[String: Any]])
        let userDays = Double(try #require(summary["user_days"] as? Int))
        let events = Double(try #require(summary["events"] as? Int)), refused = Double(try #require(summary["refused_events"] as? Int))
        let reminders = Double(try #require(summary["reminders"] as? Int))
        // Every event is on a simulated day (Earned's rollover after the last day on the last).
        #expect(abs(try #require(team["events_seen"]) - round4(events / userDays)) < 1e-9)
        #expect(abs(try #require(team["refused_seen"]) - round4(refused / 40)) < 1e-9)
        #expect(abs(try #require(team["reminders_seen"]) - round4(reminders / userDays)) < 1e-9)
        #expect(team["third_day"] == 1)
        #expect(team["day_p50"] == 3)
        // Each day's counts: every user once, the day's own value.
        for (d, day) in days.enumerated() {
            let counts = try #require(day["team_metrics"] as? [String: [String: Any]])
            #expect(counts["day_p50"]?["value"] as? Double == Double(d + 1))
            #expect(counts["events_seen"]?["user_days"] as? Int == 40)
            #expect(counts["events_seen"]?["users"] as? Int == (d == 0 ? 40 : 0))
            #expect(counts["third_day"]?["users_nonzero"] as? Int == (d == 2 ? 40 : 0))
            #expect(day["events"] as? Int == Int((counts["events_seen"]?["sum"] as? Double) ?? -1))
        }
        let tiers = try #require(days.last?["tiers"] as? [Int])
        let tierP90 = try #require((days.last?["team_metrics"] as? [String: [String: Any]])?["tier_seen"]?["value"] as? Double)
        let rank = (40 * 90 + 99) / 100
        #expect(Int(tierP90) == tiers.indices.first { tiers[0...$0].reduce(0, +) >= rank })
    }

    /// The same report whatever the jobs, and shards merge into the whole's report.
    @Test func determinismAndMerge() throws {
        let dir = try folder(Self.checks)
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = ["simulate", "4d", "--users", "30", "--rules", dir.path, "--no-db", "--format", "json"]
        let one = try CLI.run(base + ["--jobs", "1"]), two = try CLI.run(base + ["--jobs", "2", "--chunk-size", "7"])
        #expect(one.status == 0 && one.stdout == two.stdout, "\(one.stderr)")
        for i in 1...2 {
            let shard = try CLI.run(base + ["--shard", "\(i)/2", "--out", "shard\(i).json"])
            #expect(shard.status == 0, "\(shard.stderr)")
        }
        let merged = try CLI.run(["merge", "shard1.json", "shard2.json", "--format", "json"])
        #expect(merged.status == 0, "\(merged.stderr)")
        let whole = try json(one.stdout), parts = try json(merged.stdout)
        #expect(NSDictionary(dictionary: whole["summary"] as! [String: Any]) == NSDictionary(dictionary: parts["summary"] as! [String: Any]))
        #expect(NSArray(array: whole["days"] as! [Any]) == NSArray(array: parts["days"] as! [Any]))
    }

    /// The example's metrics (unlocks paid at night among them) in every format of simulate.
    @Test func theExampleInEveryFormat() throws {
        let base = ["simulate", "4d", "--users", "30", "--rules", "examples/night-surcharge", "--no-db"]
        let table = try CLI.run(base)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("the team's metrics (metrics.lua)"))
        #expect(table.stdout.contains("unlocks paid 22:00-06:00 per user-day"))
        #expect(table.stdout.contains("users who paid for a night unlock"))
        let csv = try CLI.run(base + ["--format", "csv"])
        let header = try #require(csv.stdout.split(separator: "\n").first)
        #expect(header.hasSuffix(",team.night_paid_unlocks,team.night_payers,team.credits_spent_p90,team.tier_3_days"))
        let html = try CLI.run(base + ["--html", "page.html"])
        #expect(html.status == 0, "\(html.stderr)")
        let page = try String(contentsOf: CLI.workingFolder.appendingPathComponent("page.html"), encoding: .utf8)
        #expect(page.contains("The team's metrics") && page.contains("data-series=\"team_metrics.night_paid_unlocks\""))
        // Replicas: each with its interval.
        let replicas = try CLI.run(base + ["--replicas", "3", "--users", "10"])
        #expect(replicas.status == 0, "\(replicas.stderr)")
        let line = try #require(replicas.stdout.split(separator: "\n").first { $0.contains("users who paid for a night unlock") })
        #expect(line.contains("["), "\(line)")
    }

    /// compare measures both sets by B's metrics, with an interval; sweep takes a team metric by id.
    @Test func compareAndSweep() throws {
        let compare = try CLI.run([
            "compare", "rules", "examples/night-surcharge", "--runs", "5", "--economy-runs", "1", "--habit-runs", "1",
            "--population-users", "30", "--days", "3", "--json",
        ])
        #expect(compare.status == 0, "\(compare.stderr)")
        let population = try #require(try json(compare.stdout)["population"] as? [String: Any])
        let metrics = try #require(population["metrics"] as? [[String: Any]])
        let night = try #require(metrics.first { $0["name"] as? String == "unlocks paid 22:00-06:00 per user-day" })
        let (low, delta, high) = (night["delta_low"] as? Double, night["delta"] as? Double, night["delta_high"] as? Double)
        #expect(low != nil && high != nil && low! <= delta! && delta! <= high!, "\(night)")
        let sweep = try CLI.run([
            "sweep", "3d", "--users", "20", "--rules", "examples/night-surcharge", "--set", "pricing.credit_costs[1].credits=5,8",
            "--metric", "night_paid_unlocks", "--metric", "credits spent in a user-day p90",
        ])
        #expect(sweep.status == 0, "\(sweep.stderr)")
        #expect(sweep.stdout.contains("unlocks paid 22:00-06:00 per user-day") && sweep.stdout.contains("credits spent in a user-day p90"))
        let unknown = try CLI.run(["sweep", "5d", "--users", "4", "--rules", "examples/night-surcharge", "--set", "pricing.credit_costs[1].credits=5", "--metric", "night_paid_unlock"])
        #expect(unknown.status != 0 && unknown.stderr.contains("did you mean 'night_paid_unlocks'?"), "\(unknown.stderr)")
    }

    /// The focus app's case: a sweep of the night surcharge (a param of the example's pricing.lua)
    /// moves the night's paid unlocks, a team metric, down monotonically and significantly (the
    /// personas' price response), and the paid unlocks of the whole day with it.
    @Test func aNightSurchargeSweepMovesTheNightsPaidUnlocks() throws {
        let result = try CLI.run([
            "sweep", "6d", "--users", "60", "--persona", "focus-user", "--rules", "examples/night-surcharge",
            "--set", "pricing.params.night_surcharge.default=0,150", "--metric", "night_paid_unlocks",
            "--metric", "credit_unlocks_per_user_day", "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let variants = try #require(try json(result.stdout)["variants"] as? [[String: Any]])
        #expect(variants.count == 2)
        let night = "unlocks paid 22:00-06:00 per user-day", all = "credit unlocks per user-day"
        func value(_ v: [String: Any], _ m: String) -> Double { (v["metrics"] as? [String: Double])?[m] ?? .nan }
        func difference(_ v: [String: Any], _ m: String) -> [String: Any] { (v["vs_base"] as? [String: [String: Any]])?[m] ?? [:] }
        // 0 % < the base's 50 % < 150 %: the night's paid unlocks fall, each step significantly.
        #expect(value(variants[0], night) > value(variants[1], night))
        #expect(value(variants[0], all) > value(variants[1], all))
        for (v, sign) in [(variants[0], 1.0), (variants[1], -1.0)] {
            let d = difference(v, night)
            #expect(d["significant"] as? Bool == true && sign * ((d["delta"] as? Double) ?? 0) > 0, "\(d)")
        }
    }

    /// Every problem of a metrics file at its line, in validate and before a run starts.
    @Test func problemsAreNamedAtTheirLines() throws {
        let dir = try folder(
            """
            return {
              { id = "Yes Rate", label = "YES rate", unit = "cnt", aggregat = "mean", app = "earnd", day = function(d) return 1 end },
              { id = "ok", label = "ok", unit = "count", aggregate = "p100", day = 3 },
              { label = "no id", unit = "count", aggregate = "mean", day = function(d) return 1 end },
            }
            """)
        defer { try? FileManager.default.removeItem(at: dir) }
        let validate = try CLI.run(["validate", dir.path])
        #expect(validate.status == 1)
        for expected in [
            "metrics.lua:2: [1].aggregat: unknown field 'aggregat'; did you mean 'aggregate'?",
            "metrics.lua:2: [1].id: expected a snake_case name (a-z, 0-9, _; at most 40 characters), found \"Yes Rate\"",
            "metrics.lua:2: [1].label: 'YES rate' is a built-in metric's label; choose another",
            "metrics.lua:2: [1].app: expected one of pressure, habits, miga, earned, cohort, found \"earnd\"; did you mean 'earned'?",
            "metrics.lua:2: [1].unit: expected one of share, count, per_user_day, days, credits, credits_per_unlock, found \"cnt\"",
            "metrics.lua:3: [2].day: expected a function, found integer 3",
            "metrics.lua:3: [2].aggregate: expected one of mean, per_user, share_of_users, p1 to p99, found \"p100\"",
            "metrics.lua:4: [3].id: missing (expected a snake_case name)",
        ] {
            #expect(validate.stdout.contains(expected), "\(expected)\n\(validate.stdout)")
        }
        #expect(!validate.stdout.contains("[1].aggregate: missing"), "a typo's field is not also missing")
        let simulate = try CLI.run(["simulate", "2d", "--users", "2", "--rules", dir.path, "--no-db"])
        #expect(simulate.status == 2 && simulate.stderr.contains("[1].aggregat: unknown field"), "\(simulate.stderr)")
    }

    /// A function that fails, loops or returns something else than a value stops the run (exit 2)
    /// at its line, naming the user and the day; the database is not replaced.
    @Test(arguments: [
        ("if d.day == 2 then return d.nothing.x end return 1", "attempt to index a nil value (field 'nothing')", "on 2026-01-06"),
        ("if d.day == 3 then while true do end end return 1", "instruction budget exceeded", "on 2026-01-07"),
        ("if d.day == 2 then return 'many' end return 1", "day() returned string \"many\", expected a number, a boolean or nil", "on 2026-01-06"),
        ("if d.day == 2 then return 0/0 end return 1", "expected a finite number from -1000000 to 1000000", "on 2026-01-06"),
        ("return 'x'", "day() returned string \"x\", expected a number, a boolean or nil (in day() of metric 'm' for u1 on 2026-01-05)", ""),
    ])
    func aFailingMetricStopsTheRun(body: String, message: String, day: String) throws {
        let dir = try folder("return {\n  { id = \"m\", label = \"m\", unit = \"count\", aggregate = \"mean\",\n    day = function(d) \(body) end },\n}\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("sim.sqlite").path
        let good = try CLI.run(["simulate", "1d", "--users", "2", "--db", db])
        #expect(good.status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let result = try CLI.run(["simulate", "4d", "--users", "3", "--rules", dir.path, "--db", db])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("metrics.lua:3: ") && result.stderr.contains(message) && (day.isEmpty || result.stderr.contains(day)), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }
}

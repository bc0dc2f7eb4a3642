import Foundation
import Testing

/// `rulesrun analyze` as a team runs it on its apps' log (docs/analyze.md): the log of a simulated
/// rollout (`simulate --rules FILE.bundle --events`) analysed with the bundle gives each arm the
/// figures the simulation reported for it; what the log cannot give is counted, never dropped in silence.
@Suite struct AnalyzeCommandTests {
    /// The suite's rollout (control and lenient, 50/50) and its simulated log of `days` days.
    static func rollout(days: Int = 8, users: Int = 60) throws -> URL {
        let dir = try BundleExperimentCommandTests.folder()
        let built = try CLI.run(BundleExperimentCommandTests.build + ["--allocation", "control=50%,lenient=50%"], in: dir)
        #expect(built.status == 0, "\(built.stderr)")
        let simulated = try CLI.run(
            ["simulate", "\(days)d", "--users", "\(users)", "--no-db", "--format", "json", "--out", "sim.json", "--rules", "x.bundle",
             "--events", "log.jsonl"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        return dir
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Each arm's figures in the JSON report of `analyze` (`report`) against those of the JSON
    /// report of `simulate` of the bundle (`simulated`): the same users per arm and the same value
    /// of every metric both have (a total per user in `analyze`). Returns the figures compared.
    static func expectTheArmsFigures(
        of report: [String: Any], as simulated: [String: Any], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Int {
        let arms = try #require(
            (simulated["arms"] as? [String: Any])?["arms"] as? [[String: Any]], sourceLocation: sourceLocation)
        let users = try #require(report["users"] as? [String: Int], sourceLocation: sourceLocation)
        #expect(
            users == Dictionary(uniqueKeysWithValues: arms.map { ($0["arm"] as! String, $0["users"] as! Int) }),
            sourceLocation: sourceLocation)
        let metrics = try #require(report["metrics"] as? [[String: Any]], sourceLocation: sourceLocation)
        let totals: Set<String> = ["refused_events", "shields_used", "exits_to_focus"]
        var compared = 0
        for metric in metrics {
            let id = try #require(metric["id"] as? String, sourceLocation: sourceLocation)
            let values = try #require(metric["arms"] as? [String: Any], sourceLocation: sourceLocation)
            for arm in arms {
                let name = arm["arm"] as! String
                guard let simulatedValue = ((arm["metrics"] as? [String: Any])?[id] as? [String: Any])?["value"] as? Double,
                    let value = values[name] as? Double
                else { continue }
                // A total is compared per user by analyze.
                let expected = totals.contains(id) ? simulatedValue / Double(arm["users"] as! Int) : simulatedValue
                let tolerance = 0.00005 + (totals.contains(id) ? 0.0001 : 0)
                #expect(abs(value - expected) <= tolerance, "\(id) on \(name): \(value) ≠ \(expected)",
                    sourceLocation: sourceLocation)
                compared += 1
            }
        }
        return compared
    }

    @Test func eachArmsFiguresAreThoseTheSimulationReportedForIt() throws {
        let dir = try Self.rollout(days: 6, users: 48)
        let analyzed = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--format", "json"], in: dir)
        #expect(analyzed.status == 0, "\(analyzed.stderr)")
        let report = try Self.object(analyzed.stdout)
        let simulated = try Self.object(String(contentsOf: dir.appendingPathComponent("sim.json"), encoding: .utf8))
        #expect((report["sample_ratio"] as? [String: Any])?["mismatch"] as? Bool == false)
        let compared = try Self.expectTheArmsFigures(of: report, as: simulated)
        #expect(compared >= 38, "\(compared) figures compared")
        // The same bytes whatever the number of jobs.
        let oneJob = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--format", "json", "--jobs", "1"], in: dir)
        #expect(oneJob.stdout == analyzed.stdout)
        let table = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle"], in: dir)
        #expect(table.stdout.contains("sample ratio: χ² = "), "\(table.stdout)")
        #expect(table.stdout.contains("lenient − control [95%]"), "\(table.stdout)")
    }

    @Test func whatTheLogCannotGiveIsCountedWithExamples() throws {
        let dir = try Self.rollout(days: 3, users: 20)
        let log = try String(contentsOf: dir.appendingPathComponent("log.jsonl"), encoding: .utf8)
        var lines = log.split(separator: "\n").map(String.init)
        let exposures = lines.indices.filter { lines[$0].contains("\"type\":\"exposure\"") }
        // u-a: no exposure (removed); u-b: an unknown arm; u-c: a second arm; u-d: another revision.
        func user(_ i: Int) -> String { (try? Self.object(lines[exposures[i]]))?["user"] as? String ?? "" }
        let (a, b, c, d) = (user(0), user(1), user(2), user(3))
        lines[exposures[1]] = lines[exposures[1]].replacingOccurrences(of: "\"arm\":\"control\"", with: "\"arm\":\"strict\"")
            .replacingOccurrences(of: "\"arm\":\"lenient\"", with: "\"arm\":\"strict\"")
        let second = lines[exposures[2]].contains("\"control\"") ? "lenient" : "control"
        lines.insert(
            lines[exposures[2]].replacingOccurrences(of: "\"arm\":\"control\"", with: "\"arm\":\"\(second)\"")
                .replacingOccurrences(of: "\"arm\":\"lenient\"", with: "\"arm\":\"\(second)\""), at: exposures[2] + 1)
        lines[exposures[3] + 1] = lines[exposures[3] + 1].replacingOccurrences(of: "\"revision\":1", with: "\"revision\":7")
        lines.remove(at: exposures[0])
        lines.append("{not json")
        // An event of a user earlier than its previous one.
        lines.append(#"{"at":"2026-01-04T00:00:00Z","user":"u9","type":"tick"}"#)
        try (lines.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("bad.jsonl"), atomically: true, encoding: .utf8)
        let analyzed = try CLI.run(["analyze", "bad.jsonl", "--rules", "x.bundle"], in: dir)
        #expect(analyzed.status == 0, "\(analyzed.stderr)")
        for expected in [
            "1 lines that are not events: left out; e.g. line \(lines.count - 1): ",
            "1 events out of order (before the user's previous event): left out; e.g. line \(lines.count): u9 at 2026-01-04T00:00:00Z",
            "1 users with no exposure to the experiment: left out of every arm; e.g. line ",
            "1 users exposed to an arm the bundle does not have: left out of every arm; e.g. line ",
            "\(b): arm strict (the bundle's: control, lenient)",
            "1 users exposed to two arms: left out of every arm; e.g. line ", "\(c): ",
            "1 users exposed under another revision of the bundle: left out of every arm; e.g. line ",
            "\(d): revision 7, the bundle is revision 1",
        ] {
            #expect(analyzed.stdout.contains(expected), "\(expected)\n\(analyzed.stdout)")
        }
        #expect(analyzed.stdout.contains("e.g. line 1: \(a)") || analyzed.stdout.contains(": \(a)"), "\(analyzed.stdout)")
        let report = try Self.object(
            try CLI.run(["analyze", "bad.jsonl", "--rules", "x.bundle", "--format", "json"], in: dir).stdout)
        let users = try #require(report["users"] as? [String: Int])
        #expect(users.values.reduce(0, +) == 16)
        let problems = try #require(report["problems"] as? [String: [String: Any]])
        #expect(Set(problems.keys) == ["malformed_lines", "out_of_order", "no_exposure", "unknown_arm", "two_arms", "other_revision"])
    }

    @Test func aSampleRatioMismatchIsFlaggedFirstAndExitsOne() throws {
        let dir = try Self.rollout(days: 2, users: 200)
        let log = try String(contentsOf: dir.appendingPathComponent("log.jsonl"), encoding: .utf8)
        // The lenient arm's users lose most of their exposures (as a logging bug would).
        var dropped = 0
        let kept = log.split(separator: "\n").filter { line in
            guard line.contains("\"arm\":\"lenient\"") else { return true }
            dropped += 1
            return dropped % 3 == 0
        }
        try (kept.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("srm.jsonl"), atomically: true, encoding: .utf8)
        let analyzed = try CLI.run(["analyze", "srm.jsonl", "--rules", "x.bundle"], in: dir)
        #expect(analyzed.status == 1, "\(analyzed.stderr)")
        let second = analyzed.stdout.split(separator: "\n").dropFirst().first ?? ""
        #expect(second.hasPrefix("SAMPLE RATIO MISMATCH: χ² = "), "\(analyzed.stdout)")
        #expect(analyzed.stdout.contains("results below are untrustworthy"))
        #expect(analyzed.stderr.contains("analyze: sample ratio mismatch (p = "))
    }

    /// `--prediction`: the simulation of the bundle (its arms) or a comparison of two arms (B − A),
    /// each predicted difference beside the observed one, and whether they agree.
    @Test func thePredictionIsPrintedBesideTheObservation() throws {
        let dir = try Self.rollout(days: 4, users: 40)
        let analyzed = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--prediction", "sim.json"], in: dir)
        #expect(analyzed.status == 0, "\(analyzed.stderr)")
        #expect(analyzed.stdout.contains("prediction (sim.json) beside observation: "), "\(analyzed.stdout)")
        let yes = try #require(analyzed.stdout.split(separator: "\n").first { $0.hasPrefix("YES rate") && $0.contains("lenient") })
        #expect(yes.hasSuffix("yes"), "\(yes)")
        // A prediction far from what happened does not agree.
        var simulated = try Self.object(String(contentsOf: dir.appendingPathComponent("sim.json"), encoding: .utf8))
        var arms = simulated["arms"] as! [String: Any]
        var list = arms["arms"] as! [[String: Any]]
        var metrics = list[1]["metrics"] as! [String: Any]
        metrics["yes_rate"] = ["value": 0.01, "low": 0.0, "high": 0.02]
        list[1]["metrics"] = metrics
        arms["arms"] = list
        simulated["arms"] = arms
        try JSONSerialization.data(withJSONObject: simulated).write(to: dir.appendingPathComponent("far.json"))
        let far = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--prediction", "far.json", "--format", "json"], in: dir)
        let report = try Self.object(far.stdout)
        let yesRate = try #require((report["metrics"] as? [[String: Any]])?.first { $0["id"] as? String == "yes_rate" })
        let predicted = try #require(((yesRate["comparisons"] as? [[String: Any]])?.first)?["predicted"] as? [String: Any])
        #expect(predicted["agrees"] as? Bool == false)
        // A comparison's population half (B − A).
        let compared = try CLI.run(
            [
                "compare", "x.bundle#control", "x.bundle#lenient", "--days", "4", "--population-users", "40", "--runs", "1", "--economy-runs", "0",
                "--habit-runs", "0", "--json",
            ], in: dir)
        try compared.stdout.write(to: dir.appendingPathComponent("compare.json"), atomically: true, encoding: .utf8)
        let fromCompare = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--prediction", "compare.json"], in: dir)
        #expect(fromCompare.stdout.contains("prediction (compare.json) beside observation: "), "\(compared.stderr)\(fromCompare.stdout)")
        // Not a report: a clear refusal.
        try "{\"report\": \"other\"}".write(to: dir.appendingPathComponent("other.json"), atomically: true, encoding: .utf8)
        let refused = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--prediction", "other.json"], in: dir)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--prediction other.json: expected the JSON report of `rulesrun compare --json`"), "\(refused.stderr)")
    }

    /// The team's metrics (`--metrics`, as simulate's): each arm's figure is the one the simulation
    /// of the rollout reported for it, with an interval (a mean per user-day by the delta method,
    /// per user and shares of users by Welch's); shards carry their declarations into `merge`.
    @Test func theTeamsMetricsAreMeasuredAsSimulated() throws {
        let metrics = """
            return {
              { id = "events_per_day", label = "events per active user-day", unit = "per_user_day", aggregate = "mean",
                day = function(d) return #d.events end },
              { id = "yes_per_user", label = "YES check-ins per user", app = "pressure", unit = "count", aggregate = "per_user",
                day = function(d)
                  local n = 0
                  for _, e in ipairs(d.events) do if e.type == "check_in" and e.result == "YES" then n = n + 1 end end
                  return n
                end },
              { id = "reached_tier_2", label = "users who reached tier 2", app = "pressure", unit = "share",
                aggregate = "share_of_users", day = function(d) return d.pressure.tier >= 2 end },
              { id = "streak_p50_days", label = "streak p50 of user-days", app = "pressure", unit = "days", aggregate = "p50",
                day = function(d) return d.pressure.current_streak end },
            }
            """
        let dir = try BundleExperimentCommandTests.folder()
        try metrics.write(to: dir.appendingPathComponent("m.lua"), atomically: true, encoding: .utf8)
        let built = try CLI.run(BundleExperimentCommandTests.build + ["--allocation", "control=50%,lenient=50%"], in: dir)
        #expect(built.status == 0, "\(built.stderr)")
        let simulated = try CLI.run(
            ["simulate", "6d", "--users", "60", "--no-db", "--format", "json", "--out", "sim.json", "--rules", "x.bundle",
             "--events", "log.jsonl", "--metrics", "m.lua"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let analyzed = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--format", "json", "--metrics", "m.lua"], in: dir)
        #expect(analyzed.status == 0, "\(analyzed.stderr)")
        let report = try Self.object(analyzed.stdout)
        let sim = try Self.object(String(contentsOf: dir.appendingPathComponent("sim.json"), encoding: .utf8))
        let arms = try #require((sim["arms"] as? [String: Any])?["arms"] as? [[String: Any]])
        let rows = try #require(report["metrics"] as? [[String: Any]])
        for id in ["events_per_day", "yes_per_user", "reached_tier_2"] {
            let row = try #require(rows.first { $0["id"] as? String == id }, "\(id) is measured")
            let values = try #require(row["arms"] as? [String: Any])
            for arm in arms {
                let name = arm["arm"] as! String
                let expected = try #require(((arm["metrics"] as? [String: Any])?[id] as? [String: Any])?["value"] as? Double, "\(id) simulated")
                let value = try #require(values[name] as? Double)
                #expect(abs(value - expected) <= 0.00005, "\(id) on \(name): \(value) ≠ \(expected)")
            }
            let comparison = try #require((row["comparisons"] as? [[String: Any]])?.first)
            #expect(comparison["method"] as? String == (id == "events_per_day" ? "delta" : "welch"), "\(id): \(comparison)")
        }
        // A percentile of user-days has no sum over users: not measured (docs/analyze.md says so).
        #expect(!rows.contains { $0["id"] as? String == "streak_p50_days" })
        #expect((report["team_metrics"] as? [[String: Any]])?.count == 4)
        // Shards and merge keep them; a shard without them is refused.
        for i in 1...2 {
            let shard = try CLI.run(
                ["analyze", "log.jsonl", "--rules", "x.bundle", "--shard", "\(i)/2", "--format", "json", "--out", "s\(i).json",
                 "--metrics", "m.lua"], in: dir)
            #expect(shard.status == 0, "\(shard.stderr)")
        }
        let merged = try CLI.run(["merge", "s2.json", "s1.json", "--format", "json"], in: dir)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == analyzed.stdout)
        _ = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--shard", "2/2", "--format", "json", "--out", "t2.json"], in: dir)
        let mixed = try CLI.run(["merge", "s1.json", "t2.json"], in: dir)
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("analyse every shard with the same metrics.lua"), "\(mixed.stderr)")
        // A broken metrics file is refused at its line before the log is read.
        try "return { { id = 3 } }".write(to: dir.appendingPathComponent("bad.lua"), atomically: true, encoding: .utf8)
        let bad = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--metrics", "bad.lua"], in: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bad.lua:1"), "\(bad.stderr)")
    }

    /// `--segments FILE.csv` (here `simulate --user-table`'s personas): a segment's figures are
    /// those of the log of its users alone; users without a row are counted; shards merge; a
    /// broken file is refused at its line.
    @Test func aSegmentsFigureAreThoseOfItsUsersAlone() throws {
        let dir = try BundleExperimentCommandTests.folder()
        let built = try CLI.run(BundleExperimentCommandTests.build + ["--allocation", "control=50%,lenient=50%"], in: dir)
        #expect(built.status == 0, "\(built.stderr)")
        let simulated = try CLI.run(
            ["simulate", "5d", "--users", "60", "--no-db", "--rules", "x.bundle", "--events", "log.jsonl", "--user-table", "users.csv"],
            in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let table = try String(contentsOf: dir.appendingPathComponent("users.csv"), encoding: .utf8)
        let rows = table.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        #expect(table.hasPrefix("user,persona\n") && rows.count == 60)
        // One user left out of the table: in no segment, counted.
        try (table.split(separator: "\n").dropLast().joined(separator: "\n") + "\n").write(
            to: dir.appendingPathComponent("most.csv"), atomically: true, encoding: .utf8)
        let analyzed = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--format", "json", "--segments", "most.csv"], in: dir)
        #expect(analyzed.status == 0, "\(analyzed.stderr)")
        let report = try Self.object(analyzed.stdout)
        #expect(report["dimensions"] as? [String] == ["persona"])
        #expect(report["unsegmented"] as? Int == 1)
        let segments = try #require(report["segments"] as? [[String: Any]])
        #expect(segments.map { $0["value"] as! String } == Set(rows.dropLast().map { $0[1] }).sorted())
        let steady = try #require(segments.first { $0["value"] as? String == "steady" })
        // The log of the steady users alone, analysed: the segment's figures.
        let users = Set(rows.dropLast().filter { $0[1] == "steady" }.map { $0[0] })
        let log = try String(contentsOf: dir.appendingPathComponent("log.jsonl"), encoding: .utf8)
        let theirs = log.split(separator: "\n").filter { line in
            users.contains((try? Self.object(String(line)))?["user"] as? String ?? "")
        }
        try (theirs.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("steady.jsonl"), atomically: true, encoding: .utf8)
        let alone = try Self.object(try CLI.run(["analyze", "steady.jsonl", "--rules", "x.bundle", "--format", "json"], in: dir).stdout)
        #expect(steady["users"] as? [String: Int] == alone["users"] as? [String: Int])
        let mine = try #require(steady["metrics"] as? [[String: Any]]), expected = try #require(alone["metrics"] as? [[String: Any]])
        #expect(mine.count == expected.count && mine.count > 20)
        for (a, b) in zip(mine, expected) {
            #expect(a["id"] as? String == b["id"] as? String)
            #expect(a["arms"] as? [String: Double] == b["arms"] as? [String: Double], "\(a["id"] ?? "")")
            let (ca, cb) = ((a["comparisons"] as? [[String: Any]])?.first, (b["comparisons"] as? [[String: Any]])?.first)
            #expect(
                (ca?["difference"] as? [String: Any])?["low"] as? Double == (cb?["difference"] as? [String: Any])?["low"] as? Double,
                "\(a["id"] ?? "")")
        }
        let text = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--segments", "most.csv"], in: dir)
        #expect(text.stdout.contains("by segment (persona): 1 users in an arm have no row in the segments file"), "\(text.stdout)")
        #expect(text.stdout.contains("persona = steady: users control "), "\(text.stdout)")
        let csv = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--segments", "most.csv", "--format", "csv"], in: dir)
        #expect(csv.stdout.contains(",persona,steady\n"))
        // Shards merge into the whole, segments included.
        for i in 1...2 {
            let shard = try CLI.run(
                ["analyze", "log.jsonl", "--rules", "x.bundle", "--shard", "\(i)/2", "--format", "json", "--out", "s\(i).json",
                 "--segments", "most.csv"], in: dir)
            #expect(shard.status == 0, "\(shard.stderr)")
        }
        let merged = try CLI.run(["merge", "s2.json", "s1.json", "--format", "json"], in: dir)
        #expect(merged.stdout == analyzed.stdout, "\(merged.stderr)")
        // Broken files, each refused at its line.
        for (text, message) in [
            ("name,persona\nu1,steady\n", "bad.csv:1: column 1: expected the header user"),
            ("user,persona\nu1,steady\nu1,steady\n", "bad.csv:3: user: u1 has a row already (line 2)"),
            ("user,persona\nu1\n", "bad.csv:2: 1 fields, expected 2 (user,persona)"),
            ("user,persona\nu1,\"steady\n", "bad.csv:2: a quoted field is not closed"),
            ("user,Persona\n", "bad.csv:1: column 2: expected a dimension's name"),
            ("user,persona\n" + (0...64).map { "u\($0),p\($0)" }.joined(separator: "\n"), "bad.csv:66: persona: a 65th value"),
        ] {
            try text.write(to: dir.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
            let bad = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--segments", "bad.csv"], in: dir)
            #expect(bad.status == 2)
            #expect(bad.stderr.contains(message), "\(bad.stderr)")
        }
    }

    /// `--shard i/n` and `merge`: the shards' sufficient statistics add up to the whole log's
    /// report, byte for byte, in any order; a missing or bent shard is refused by name.
    @Test func shardsMergeIntoTheWholeLogsReport() throws {
        let dir = try Self.rollout(days: 3, users: 30)
        let whole = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--format", "json"], in: dir)
        for i in 1...3 {
            let shard = try CLI.run(
                ["analyze", "log.jsonl", "--rules", "x.bundle", "--shard", "\(i)/3", "--format", "json", "--out", "s\(i).json"], in: dir)
            #expect(shard.status == 0, "\(shard.stderr)")
        }
        let merged = try CLI.run(["merge", "s3.json", "s1.json", "s2.json", "--format", "json"], in: dir)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
        let missing = try CLI.run(["merge", "s1.json", "s3.json"], in: dir)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("shards 2/3 are missing: give every shard's report"), "\(missing.stderr)")
        let text = try String(contentsOf: dir.appendingPathComponent("s2.json"), encoding: .utf8)
        try text.replacingOccurrences(of: #""n":"#, with: #""n":-"#).write(
            to: dir.appendingPathComponent("bent.json"), atomically: true, encoding: .utf8)
        let bent = try CLI.run(["merge", "s1.json", "bent.json", "s3.json"], in: dir)
        #expect(bent.status == 2)
        #expect(bent.stderr.contains("bent.json: moments."), "\(bent.stderr)")
        let table = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--shard", "1/3"], in: dir)
        #expect(table.status == 2)
        #expect(table.stderr.contains("--shard 1/3 writes a shard's report for `rulesrun merge`: add --format json"))
    }

    /// Users exposed on their fourth day: their first days are the pre-period, replayed under the
    /// control's rules whatever their arm; CUPED states the variance it removed.
    @Test func cupedUsesTheDaysBeforeEachExposure() throws {
        let dir = try Self.rollout(days: 8, users: 80)
        let log = try String(contentsOf: dir.appendingPathComponent("log.jsonl"), encoding: .utf8)
        var out: [Substring] = []
        var exposure: Substring?
        var user = ""
        for line in log.split(separator: "\n") {
            let object = try Self.object(String(line))
            let name = object["user"] as! String
            if name != user, let pending = exposure { out.append(pending) }
            if name != user { (user, exposure) = (name, nil) }
            if object["type"] as? String == "exposure" {
                exposure = line
                continue
            }
            if let pending = exposure, (object["at"] as! String) >= "2026-01-08T12" {
                out.append(pending)
                exposure = nil
            }
            out.append(line)
        }
        if let pending = exposure { out.append(pending) }
        // The exposure keeps its own time: move it to the time of the line it now precedes.
        var fixed: [String] = []
        for (i, line) in out.enumerated() {
            guard line.contains("\"type\":\"exposure\""), i + 1 < out.count else {
                fixed.append(String(line))
                continue
            }
            let next = try Self.object(String(out[i + 1]))
            let object = try Self.object(String(line))
            guard next["user"] as? String == object["user"] as? String, let at = next["at"] as? String else {
                fixed.append(String(line))
                continue
            }
            fixed.append(String(line).replacingOccurrences(of: object["at"] as! String, with: at))
        }
        try (fixed.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("pre.jsonl"), atomically: true, encoding: .utf8)
        let analyzed = try CLI.run(["analyze", "pre.jsonl", "--rules", "x.bundle", "--format", "json"], in: dir)
        #expect(analyzed.status == 0, "\(analyzed.stderr)")
        let report = try Self.object(analyzed.stdout)
        let metrics = try #require(report["metrics"] as? [[String: Any]])
        let reductions = metrics.compactMap { m in
            ((m["comparisons"] as? [[String: Any]])?.first?["cuped_variance_reduction"] as? Double).map { (m["id"] as! String, $0) }
        }
        #expect(reductions.count >= 5, "\(reductions)")
        #expect(reductions.contains { $0.0 == "yes_rate" && $0.1 > 0 }, "\(reductions)")
        let table = try CLI.run(["analyze", "pre.jsonl", "--rules", "x.bundle"], in: dir)
        #expect(table.stdout.contains("CUPED (each user's days before its exposure): variance reduced by "), "\(table.stdout)")
        let without = try CLI.run(["analyze", "pre.jsonl", "--rules", "x.bundle", "--no-cuped", "--format", "json"], in: dir)
        #expect(!without.stdout.contains("cuped_variance_reduction"))
    }

    @Test func aRuleSetThatIsNotARolloutIsRefused() throws {
        let dir = try Self.rollout(days: 1, users: 4)
        for rules in ["x.bundle#lenient", "control"] {
            let refused = try CLI.run(["analyze", "log.jsonl", "--rules", rules], in: dir)
            #expect(refused.status == 2, "\(rules)")
            #expect(refused.stderr.contains("expected a bundle with an experiment and no arm named"), "\(refused.stderr)")
        }
    }
}

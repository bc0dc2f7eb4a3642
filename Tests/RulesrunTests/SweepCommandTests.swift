import Foundation
import Testing

/// `rulesrun sweep` through the real binary, on tiny cohorts (≤ 50 users × 7 days).
@Suite struct SweepCommandTests {
    let cohort = ["7d", "--users", "50", "--seed", "1"]
    /// For the tests that compare runs with each other, not a variant with the base.
    let small = ["4d", "--users", "12", "--seed", "1"]

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    func variants(_ result: CLI.Result) throws -> [[String: Any]] {
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try object(result.stdout)["variants"] as? [[String: Any]])
    }

    func number(_ value: Any?) throws -> Double { try #require((value as? NSNumber)?.doubleValue, "\(String(describing: value))") }

    /// Equal but for the last bits JSONSerialization may lose reading a double.
    func same(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-12 * max(1, abs(a)) }

    @Test func aThreeValueSweepHasThreeRowsAndTheBaseRowIsSimulatesRun() throws {
        let rows = try variants(
            try CLI.run(["sweep"] + cohort + ["--set", "escalation.recover_after[3]=1..5/2", "--format", "json"]))
        #expect(rows.count == 3)
        #expect(rows.compactMap { ($0["knobs"] as? [String: Any])?["escalation.recover_after[3]"] as? Int } == [1, 3, 5])
        let metrics = try rows.map { try #require($0["metrics"] as? [String: Any]) }
        // The knob is what the rules read: tier 3 lasts longer when leaving it needs more YES days.
        let tier3 = try metrics.map { try number($0["user-days at tier 3"]) }
        #expect(tier3[0] < tier3[2], "\(tier3)")

        // recover_after[3] = 3 is the folder's own value: the row is `simulate` with the same cohort.
        let simulate = try CLI.run(["simulate"] + cohort + ["--no-db", "--format", "json"])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let summary = try #require(try object(simulate.stdout)["summary"] as? [String: Any])
        let checkIns = try #require(summary["check_ins"] as? [String: Int])
        let userDays = try number(summary["user_days"])
        let atTier = try #require(summary["user_days_at_tier"] as? [Int])
        let earned = try #require(summary["earned"] as? [String: Any])
        let credits = try #require(earned["credits"] as? [String: Any])
        let streak = try #require(summary["final_streak"] as? [String: Any])
        let base = metrics[1]
        #expect(same(try number(base["YES rate"]), Double(checkIns["YES"]!) / Double(checkIns.values.reduce(0, +))))
        // Pressure's shares and rates are per Pressure user-day (the users who have not left).
        let pressureDays = Double(atTier.reduce(0, +))
        let apps = try #require(summary["apps"] as? [String: Any])
        let pressureUserDays = try number(apps["pressure"])
        #expect(pressureDays <= userDays && pressureDays == pressureUserDays)
        #expect(same(try number(base["user-days at tier 3"]), Double(atTier[3]) / pressureDays))
        #expect(same(try number(base["reminders per user-day"]), (try number(summary["reminders"])) / pressureDays))
        #expect(try number(base["Pressure final streak p50"]) == (try number(streak["p50"])))
        // (The report prints the rate with 4 decimals.)
        #expect(abs(try number(base["habit completion rate"]) - (try number(summary["habit_completion_rate"]))) <= 0.00005)
        #expect(same(try number(base["credits spent per user-day"]), (try number(credits["spent"])) / (try number(earned["user_days"]))))
    }

    @Test func aValueThatBreaksAConstraintIsReportedAndSkipped() throws {
        let result = try CLI.run(["sweep"] + cohort + ["--set", "escalation.max_reminders_per_day=3,4", "--format", "json"])
        let rows = try variants(result)
        #expect(rows.count == 2)
        #expect(rows[0]["metrics"] != nil && rows[0]["invalid"] == nil)
        #expect(rows[1]["metrics"] == nil)
        let problems = try #require(rows[1]["invalid"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(problems.first?["file"] as? String == "escalation.lua")
        #expect(problems.first?["field"] as? String == "max_reminders_per_day")
        #expect((problems.first?["message"] as? String)?.contains("found 4") == true, "\(problems)")
        #expect(result.stderr.contains("escalation.max_reminders_per_day = 4 is not valid, not run"), "\(result.stderr)")

        // The table says so on the variant's row.
        let table = try CLI.run(["sweep"] + cohort + ["--set", "escalation.max_reminders_per_day=3,4", "--metric", "YES rate"])
        #expect(table.status == 0)
        let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("  4 ") })
        #expect(row.contains("refused, not run: escalation.lua:42: max_reminders_per_day: must be between 1 and 3"), "\(row)")
    }

    @Test(arguments: [
        ("escalation.recover_after[3]", "expected knob=values"),
        ("escalation.recover_after[3]=", "no values after '='"),
        ("escalation.recover_after[3]=5..1", "the range 5..1 is empty"),
        ("escalation.recover_after[3]=1..x", "a range is a..b or a..b/step with whole numbers"),
        ("escalation.recover_after[3]=1..9/0", "the step of a range is a whole number above 0"),
        ("escalation.recover_after[3]=0..1000", "more than 100 values"),
        ("escalation.recover_after[3]=1,,2", "an empty value"),
        (
            "escalation.recovr_after[3]=1",
            "escalation.recovr_after[3]: escalation.recovr_after does not exist; did you mean 'recover_after'?"
        ),
        ("escalaton.max_tier=1", "\"escalaton\" is not a file of a rule set"),
        ("escalation.max_tier=high", "escalation.max_tier is a number (3), not a string like \"high\""),
        ("escalation.recover_after=1", "escalation.recover_after is a table, not a value a sweep can set"),
    ])
    func aBadSetIsAnErrorNamingIt(argument: String, expected: String) throws {
        let result = try CLI.run(["sweep"] + cohort + ["--set", argument])
        #expect(result.status == 2, "\(result.stdout)")
        #expect(result.stderr.contains("--set '\(argument)': \(expected)"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aMetricIsNamedByItsLabelOrItsId() throws {
        let sweep = ["sweep", "3d", "--users", "10", "--set", "escalation.recover_after[3]=1,3", "--format", "json"]
        let byLabel = try CLI.run(sweep + ["--metric", "YES rate", "--metric", "events applied"])
        let byID = try CLI.run(sweep + ["--metric", "yes_rate", "--metric", "events"])
        #expect(byLabel.status == 0, "\(byLabel.stderr)")
        #expect(byID.stdout == byLabel.stdout)
        let head = try #require(try object(byID.stdout)["sweep"] as? [String: Any])
        #expect(head["metrics"] as? [String] == ["YES rate", "events applied"])
        let typo = try CLI.run(sweep + ["--metric", "yes_rat"])
        #expect(typo.status != 0)
        #expect(typo.stderr.contains("--metric \"yes_rat\": no such metric; did you mean 'yes_rate'?"), "\(typo.stderr)")
        #expect(typo.stderr.contains("by label or id: refused events (refused_events), retained on day 7 (retained_day_7),"))
    }

    @Test func theRowsAreTheSameWhateverJobs() throws {
        let args =
            ["sweep"] + small + [
                "--set", "escalation.recover_after[3]=1,3", "--set", "escalation.recover_after[2]=1,2", "--format", "csv",
            ]
        let one = try CLI.run(args + ["--jobs", "1"]), three = try CLI.run(args + ["--jobs", "3"])
        #expect(one.status == 0 && three.status == 0, "\(one.stderr)\(three.stderr)")
        #expect(one.stdout == three.stdout)
        // Every combination, the first knob changing slowest.
        #expect(
            one.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") } == [
                "1,1", "1,2", "3,1", "3,2",
            ])
    }

    @Test func oneAtATimeMovesEachKnobAloneAfterTheBase() throws {
        let options = [
            "--one-at-a-time", "--set", "escalation.recover_after[3]=1..4", "--set", "pricing.rollover_cap=5,10", "--metric",
            "user-days at tier 3",
        ]
        let args = ["sweep"] + cohort + options
        // The order of the variants does not depend on the cohort: a small one.
        let rows = try variants(try CLI.run(["sweep"] + small + options + ["--format", "json"]))
        let knobs = rows.compactMap { $0["knobs"] as? [String: Int] }
        // The base (3, 10), then recover_after[3] at 1, 2, 4, then rollover_cap at 5; the base's own values are not run twice.
        #expect(
            knobs.map { [$0["escalation.recover_after[3]"]!, $0["pricing.rollover_cap"]!] } == [
                [3, 10], [1, 10], [2, 10], [4, 10], [3, 5],
            ])
        let table = try CLI.run(args)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(
            table.stdout.contains("5 variants (one at a time); base: escalation.recover_after[3] = 3, pricing.rollover_cap = 10"),
            "\(table.stdout)")
        // The sensitivity: recover_after[3] moves the tier-3 share, the rollover cap does not; the first is listed first.
        let lines = table.stdout.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("  user-days at tier 3 (base ") })
        #expect(lines[start + 1].hasPrefix("    escalation.recover_after[3]: "))
        #expect(lines[start + 2].hasPrefix("    pricing.rollover_cap: "))
        let cap = lines[start + 2].split(separator: " ").suffix(3)
        #expect(cap.first == cap.last, "\(lines[start + 2])")
    }

    @Test func outAndChartAreWritten() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("sweep.csv").path, chart = dir.appendingPathComponent("sweep.svg").path
        let result = try CLI.run(
            ["sweep"] + cohort + [
                "--set", "escalation.recover_after[3]=1,2", "--metric", "YES rate", "--format", "csv", "--out", out, "--chart", chart,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let csv = try String(contentsOfFile: out, encoding: .utf8)
        #expect(
            csv.hasPrefix(
                "escalation.recover_after[3],YES rate,YES rate low,YES rate high,YES rate delta,YES rate delta low,YES rate delta high,refused\n1,0."
            ), "\(csv)")
        #expect(csv.split(separator: "\n").count == 3)
        let svg = try String(contentsOfFile: chart, encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains(">YES rate</text>") && svg.components(separatedBy: "<circle").count == 3)

        let three = try CLI.run(
            ["sweep"] + cohort + [
                "--set", "escalation.recover_after[1]=1", "--set", "escalation.recover_after[2]=1", "--set",
                "escalation.recover_after[3]=1", "--chart", chart,
            ])
        #expect(three.status == 2)
        #expect(three.stderr.contains("--chart draws sweeps of one or two knobs (this one moves 3)"), "\(three.stderr)")
    }

    /// The estimates of a variant's metrics: name → (mean, low, high), and its differences to the base.
    func estimates(_ row: [String: Any]) throws -> (values: [String: Double], low: [String: Double], high: [String: Double]) {
        let metrics = try #require(row["metrics"] as? [String: Any]), intervals = try #require(row["intervals"] as? [String: [String: Any]])
        var values: [String: Double] = [:], low: [String: Double] = [:], high: [String: Double] = [:]
        for (name, value) in metrics { values[name] = try number(value) }
        for (name, bounds) in intervals {
            low[name] = try number(bounds["low"])
            high[name] = try number(bounds["high"])
        }
        return (values, low, high)
    }

    @Test func withReplicasEveryVariantRunsTheSameCohortsAndDiffersFromTheBaseWithAnInterval() throws {
        let result = try CLI.run(
            ["sweep"] + small + [
                "--replicas", "3", "--set", "escalation.recover_after[3]=1,3", "--metric", "YES rate", "--metric", "user-days at tier 3",
                "--format", "json",
            ])
        let head = try #require(try object(result.stdout)["sweep"] as? [String: Any])
        #expect(head["replicas"] as? Int == 3 && (head["seeds"] as? [String])?.count == 3)
        #expect((head["interval"] as? [String: Any])?["method"] as? String == "replicas")
        let rows = try variants(result)
        #expect(rows.map { $0["base"] as? Bool } == [false, true])
        // The base's row is `simulate --replicas 3`: the same three cohorts, the same intervals.
        let simulate = try CLI.run(["simulate"] + small + ["--replicas", "3", "--no-db", "--format", "json"])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let summary = try #require(try object(simulate.stdout)["summary"] as? [[String: Any]])
        let base = try estimates(rows[1]), moved = try estimates(rows[0])
        for name in ["YES rate", "user-days at tier 3"] {
            let replicated = try #require(summary.first { $0["name"] as? String == name })
            #expect(abs(base.values[name]! - (try number(replicated["mean"]))) < 1e-4, "\(name)")
            #expect(abs(base.low[name]! - (try number(replicated["low"]))) < 1e-4, "\(name)")
            #expect(abs(base.high[name]! - (try number(replicated["high"]))) < 1e-4, "\(name)")
            #expect(moved.low[name]! <= moved.values[name]! && moved.values[name]! <= moved.high[name]!)
        }
        // Paired: the difference is the difference of the means, its interval from the replicas' differences.
        let vsBase = try #require(rows[0]["vs_base"] as? [String: [String: Any]])
        #expect(rows[1]["vs_base"] == nil)
        for (name, d) in vsBase {
            let delta = try number(d["delta"]), low = try number(d["low"]), high = try number(d["high"])
            #expect(abs(delta - (moved.values[name]! - base.values[name]!)) < 1e-12)
            #expect(low <= delta && delta <= high)
            #expect(d["significant"] as? Bool == (low > 0 || high < 0))
        }

        // The table: mean [low, high], then Δ base with its interval, * when it leaves out 0.
        let table = try CLI.run(
            ["sweep"] + small + ["--replicas", "3", "--set", "escalation.recover_after[3]=1,3", "--metric", "user-days at tier 3"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("mean of 3 replicas (seeds 1, "), "\(table.stdout)")
        let tier3 = try #require(vsBase["user-days at tier 3"])
        let line = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("  1 ") })
        let pct = { (v: Double) in String(format: "%.1f%%", v * 100) }
        #expect(line.contains("user-days at tier 3  \(pct(moved.values["user-days at tier 3"]!))"), "\(line)")
        #expect(line.contains("[\(pct(moved.low["user-days at tier 3"]!)), \(pct(moved.high["user-days at tier 3"]!))]"), "\(line)")
        #expect(line.hasSuffix(" *") == (tier3["significant"] as? Bool == true), "\(line)")
        #expect(table.stdout.split(separator: "\n").contains { $0.hasPrefix("  3 ") && $0.hasSuffix("  base") }, "\(table.stdout)")
    }

    @Test func oneCohortHasIntervalsFromGroupsOfItsUsersButNotForAMaximum() throws {
        let result = try CLI.run(
            ["sweep"] + cohort + [
                "--set", "escalation.recover_after[3]=1,5", "--metric", "YES rate", "--metric", "most reminders in a user-day", "--format",
                "json",
            ])
        let head = try #require(try object(result.stdout)["sweep"] as? [String: Any])
        #expect((head["interval"] as? [String: Any])?["method"] as? String == "user-groups")
        #expect((head["interval"] as? [String: Any])?["n"] as? Int == 20)
        let rows = try variants(result)
        // The base (3) is not a variant: it is run for the differences, and each row has them.
        #expect(rows.count == 2 && rows.allSatisfy { $0["vs_base"] != nil && $0["base"] as? Bool == false })
        for row in rows {
            let e = try estimates(row)
            #expect(e.low["YES rate"]! < e.values["YES rate"]! && e.values["YES rate"]! < e.high["YES rate"]!)
            #expect(e.low["most reminders in a user-day"] == nil)
            let vs = try #require(row["vs_base"] as? [String: [String: Any]])
            #expect(vs["YES rate"]?["low"] != nil && vs["most reminders in a user-day"]?["low"] == nil)
        }
    }

    /// Every value a response curve draws (`data-values`, `data-low`, `data-high`) is the embedded
    /// JSON's, a refused variant a gap.
    @Test func theHTMLPageDrawsTheJSONsNumbers() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("sweep.html").path, json = dir.appendingPathComponent("sweep.json").path
        let result = try CLI.run(
            ["sweep"] + cohort + [
                "--set", "escalation.recover_after[3]=3,1", "--set", "escalation.max_reminders_per_day=3,4", "--metric", "YES rate",
                "--metric", "reminders per user-day", "--html", page, "--format", "json", "--out", json,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.components(separatedBy: "<script").count == 2)
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"sweep\">\n")).upperBound
        let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        let embedded = html[start..<end].replacingOccurrences(of: "<\\/", with: "</")
        #expect(embedded == (try String(contentsOfFile: json, encoding: .utf8)))
        let report = try object(embedded)
        let rows = try #require(report["variants"] as? [[String: Any]])
        // The x axis: the first knob by value, the base's marked.
        #expect(html.contains(">1</text>") && html.contains(" font-weight=\"bold\" fill=\"#333\">3 (base)</text>"))
        func attribute(_ name: String, of key: String) throws -> [Double] {
            let pattern = try NSRegularExpression(
                pattern: "data-(?:series|band)=\"\(NSRegularExpression.escapedPattern(for: key))\"[^>]* \(name)=\"([^\"]*)\"")
            let matches = pattern.matches(in: html, range: NSRange(html.startIndex..., in: html))
            #expect(matches.count == 1, "\(key) \(name)")
            let match = try #require(matches.first)
            return html[Range(match.range(at: 1), in: html)!].split(separator: " ").map { Double($0) ?? .nan }
        }
        var drawn = 0
        for (metric, scale) in [("YES rate", 100.0), ("reminders per user-day", 1)] {
            for reminders in [3, 4] {
                let key = "\(metric) @ escalation.max_reminders_per_day = \(reminders)"
                let values = try attribute("data-values", of: key), low = try attribute("data-low", of: key)
                let high = try attribute("data-high", of: key)
                for (i, recover) in [1, 3].enumerated() {
                    let row = try #require(
                        rows.first {
                            let knobs = $0["knobs"] as? [String: Int]
                            return knobs?["escalation.recover_after[3]"] == recover
                                && knobs?["escalation.max_reminders_per_day"] == reminders
                        })
                    guard row["metrics"] != nil else {
                        // max_reminders_per_day = 4 breaks a constraint: not run, a gap.
                        #expect(reminders == 4 && values[i].isNaN && low[i].isNaN && high[i].isNaN)
                        continue
                    }
                    let e = try estimates(row)
                    #expect(abs(values[i] - e.values[metric]! * scale) < 0.0001, "\(key)")
                    #expect(abs(low[i] - e.low[metric]! * scale) < 0.0001 && abs(high[i] - e.high[metric]! * scale) < 0.0001, "\(key)")
                    drawn += 1
                }
            }
        }
        #expect(drawn == 4)
    }

    /// The page carries the text output's table: each row's means, Δ base, intervals and
    /// significance, cell for cell the text's (a refused variant, the base's row, `*` included).
    @Test func theHTMLPageHasTheTextsTableOfDeltasAndIntervals() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("sweep.html").path, text = dir.appendingPathComponent("sweep.txt").path
        let result = try CLI.run(
            ["sweep"] + cohort + [
                "--set", "escalation.recover_after[3]=3,1", "--set", "escalation.max_reminders_per_day=3,4", "--metric", "YES rate",
                "--metric", "user-days at tier 3", "--html", page, "--out", text, "--no-responses",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        // The text's rows: the lines after the header, cut at runs of two spaces or more.
        let lines = try String(contentsOfFile: text, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let head = try #require(lines.firstIndex { $0.contains("metric") && $0.contains("Δ base") })
        let textRows = lines[(head + 1)...].prefix { !$0.isEmpty }.map { line in
            line.split(separator: try! Regex("  +")).map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        // The page's table: the header, then a row per line of the text.
        let table = try #require(html.range(of: "<table class=\"grid\">\n<tr><th>escalation.recover_after[3]</th>"))
        #expect(html[table.upperBound...].hasPrefix(
            "<th>escalation.max_reminders_per_day</th><th>metric</th><th>mean</th><th>95% interval</th><th>Δ base</th><th>95% interval of Δ</th><th>significant</th></tr>"))
        let end = try #require(html.range(of: "</table>", range: table.upperBound..<html.endIndex))
        let cellPattern = try NSRegularExpression(pattern: "<td>([^<]*)</td>")
        let pageRows = html[table.upperBound..<end.lowerBound].split(separator: "\n").dropFirst().map { line -> [String] in
            let line = String(line)
            var cells = cellPattern.matches(in: line, range: NSRange(line.startIndex..., in: line)).map {
                String(line[Range($0.range(at: 1), in: line)!]).replacingOccurrences(of: "&amp;", with: "&")
                    .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                    .replacingOccurrences(of: "&quot;", with: "\"")
            }
            // The text marks a significant interval with `*`; the page says so in a column.
            if cells.count == 8 {
                let significant = cells.removeLast()
                #expect(["", "yes *", "no"].contains(significant))
                if significant == "yes *" { cells[cells.count - 1] += " *" }
            }
            return cells.filter { !$0.isEmpty }
        }
        #expect(pageRows == textRows)
        #expect(textRows.count == 2 * 2 + 2)  // 4 variants: 2 run (a line per metric), 2 refused (max_reminders_per_day = 4)
        #expect(textRows.contains { $0.contains("base") } && textRows.contains { $0.last?.hasSuffix(" *") == true })
        #expect(textRows.contains { $0.contains { $0.hasPrefix("refused, not run: ") } })
        let significant = pageRows.filter { $0.last?.hasSuffix(" *") == true }.count
        #expect(html.components(separatedBy: "<tr class=\"marked\">").count - 1 == significant)
    }

    /// `--resume` keeps the variants a report already holds (the same inputs) and runs the rest: the
    /// file ends as a whole run's, byte for byte; changed rule files or another cohort are not reused.
    @Test func resumeKeepsTheFinishedVariantsWithTheSameInputs() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules").path
        try FileManager.default.copyItem(atPath: CLI.packageRoot.appendingPathComponent("rules").path, toPath: rules)
        let full = dir.appendingPathComponent("full.json").path, out = dir.appendingPathComponent("out.json").path
        let args =
            ["sweep", "4d", "--users", "12", "--rules", rules, "--set", "escalation.recover_after[3]=1,3,5", "--metric", "YES rate"]
            + ["--format", "json"]
        let whole = try CLI.run(args + ["--out", full])
        #expect(whole.status == 0, "\(whole.stderr)")
        // Stopped after the first variant: the file holds its row.
        let text = try String(contentsOfFile: full, encoding: .utf8)
        let cut = try #require(text.range(of: "},{\"knobs\"")).lowerBound
        try (String(text[...cut]) + "]}\n").write(toFile: out, atomically: true, encoding: .utf8)
        let resumed = try CLI.run(args + ["--out", out, "--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("sweep: resuming: 1 of 3 variants kept from \(out)"), "\(resumed.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == text)

        // Another cohort: refused before anything runs.
        let other = try CLI.run(args.map { $0 == "12" ? "40" : $0 } + ["--out", out, "--resume"])
        #expect(other.status == 2)
        #expect(other.stderr.contains("--resume: \(out) is the report of another sweep: its users is 12, this one's 40"), "\(other.stderr)")
        // A rule file changed: every variant runs again.
        let escalation = rules + "/escalation.lua"
        try (try String(contentsOfFile: escalation, encoding: .utf8) + "\n-- changed\n").write(
            toFile: escalation, atomically: true, encoding: .utf8)
        let changed = try CLI.run(args + ["--out", out, "--resume"])
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(
            changed.stderr.contains("0 of 3 variants kept from \(out); 3 run again (their rule or persona files changed)"),
            "\(changed.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) != text)
    }

    /// A report read back by `--resume` is the user's file: a number in it that no sweep writes (a
    /// share past 0…1, any number past 2^53, which the chart would label as an integer) is refused
    /// naming the metric, the variant and what a sweep writes, before anything is drawn.
    @Test func resumeRefusesANumberNoSweepWrites() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let full = dir.appendingPathComponent("full.json").path, out = dir.appendingPathComponent("out.json").path
        let chart = dir.appendingPathComponent("chart.svg").path
        let args =
            ["sweep", "4d", "--users", "12", "--set", "escalation.recover_after[3]=1,3,5", "--metric", "YES rate"]
            + ["--metric", "reminders per user-day", "--format", "json"]
        let whole = try CLI.run(args + ["--out", full])
        #expect(whole.status == 0, "\(whole.stderr)")
        let text = try String(contentsOfFile: full, encoding: .utf8)
        for (metric, value, expected) in [
            ("YES rate", "1e300", "has YES rate mean 1e+300 for the variant escalation.recover_after[3] = 1, which no sweep writes (a share: 0 to 1)"),
            ("YES rate", "1.5", "has YES rate mean 1.5 for the variant escalation.recover_after[3] = 1, which no sweep writes (a share: 0 to 1)"),
            (
                "reminders per user-day", "-1e19",
                "has reminders per user-day mean -1e+19 for the variant escalation.recover_after[3] = 1, which no sweep writes (at most 2^53 either way)"
            ),
        ] {
            let first = try #require(text.firstMatch(of: try Regex("\"\(metric)\":[-0-9.e]+")))
            try text.replacingCharacters(in: first.range, with: "\"\(metric)\":\(value)").write(toFile: out, atomically: true, encoding: .utf8)
            let resumed = try CLI.run(args + ["--out", out, "--resume", "--chart", chart])
            #expect(resumed.status == 2, "\(value): \(resumed.stderr)")
            #expect(resumed.stderr.contains("--resume: \(out) \(expected); remove it, or run without --resume"), "\(resumed.stderr)")
        }
    }
}

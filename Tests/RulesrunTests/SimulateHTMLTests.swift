import Foundation
import Testing

/// `simulate --html`, `--chart` and `--format jsonl`: the page's and the chart's numbers are the
/// JSON report's, read back from the files a user gets.
@Suite struct SimulateHTMLTests {
    /// The series a page draws, each computed here from a day of the JSON report (`days[i]`).
    nonisolated(unsafe) static let series: [String: ([String: Any]) -> Double] = {
        func int(_ day: [String: Any], _ key: String) -> Double { Double(day[key] as? Int ?? -1) }
        func earned(_ day: [String: Any]) -> [String: Any] { day["earned"] as? [String: Any] ?? [:] }
        func ratio(_ a: Double, _ b: Double, _ scale: Double = 1) -> Double { b == 0 ? 0 : scale * a / b }
        func users(_ day: [String: Any]) -> Double { Double((day["tiers"] as? [Int] ?? []).reduce(0, +)) }
        func earnedUsers(_ day: [String: Any]) -> Double { Double((earned(day)["balance_histogram"] as? [Int] ?? []).reduce(0, +)) }
        func results(_ day: [String: Any]) -> Double { int(day, "yes") + int(day, "no") + int(day, "missed") }
        var out: [String: ([String: Any]) -> Double] = [
            "active": { ratio(int($0, "active"), int($0, "users"), 100) },
            "yes": { ratio(int($0, "yes"), results($0), 100) }, "no": { ratio(int($0, "no"), results($0), 100) },
            "missed": { ratio(int($0, "missed"), results($0), 100) },
            "reminders": { ratio(int($0, "reminders"), users($0)) }, "max_reminders": { int($0, "max_reminders") },
            "streak_p50": { int($0, "streak_p50") }, "streak_p90": { int($0, "streak_p90") },
            "earned.balance_p50": { Double(earned($0)["balance_p50"] as? Int ?? -1) },
            "earned.balance_p90": { Double(earned($0)["balance_p90"] as? Int ?? -1) },
            "earned_streak_p50": { int($0, "earned_streak_p50") }, "earned_streak_p90": { int($0, "earned_streak_p90") },
        ]
        for t in 0..<4 { out["tiers.\(t)"] = { ratio(Double(($0["tiers"] as? [Int] ?? [])[t]), users($0), 100) } }
        for key in ["credits_earned", "credits_spent", "credits_forfeited"] {
            out["earned.\(key)"] = { ratio(Double(earned($0)[key] as? Int ?? -1), earnedUsers($0)) }
        }
        let cases = [
            "unlocks": ["CREDITS", "QUEST", "EMERGENCY"],
            "denials": [
                "INSUFFICIENT_CREDITS", "DAILY_LIMIT_REACHED", "COOLDOWN_ACTIVE", "QR_KEY_NOT_SET", "DISALLOWED_IN_HARD_MODE",
                "SAME_APP_CONSECUTIVE_BLOCKED",
            ],
            "quests": ["COMPLETED", "FAILED", "CANCELLED", "EXPIRED"],
        ]
        for (group, names) in cases {
            for name in names {
                out["earned.\(group).\(name)"] = { ratio(Double((earned($0)[group] as? [String: Int])?[name] ?? -1), earnedUsers($0)) }
            }
        }
        return out
    }()

    /// Every `data-series` with its `data-values`, in the order of the file.
    static func drawn(_ text: String) throws -> [(String, [Double])] {
        let pattern = try NSRegularExpression(pattern: "data-series=\"([^\"]*)\" data-values=\"([^\"]*)\"")
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            let key = String(text[Range(match.range(at: 1), in: text)!])
            let values = text[Range(match.range(at: 2), in: text)!].split(separator: " ").map { Double($0) ?? .nan }
            return (key, values)
        }
    }

    /// The days of a point: one day each, or (weekly) the days of each ISO week, from the dates.
    static func points(_ days: [[String: Any]], weekly: Bool) -> [[[String: Any]]] {
        guard weekly else { return days.map { [$0] } }
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd"
        format.timeZone = calendar.timeZone
        var out: [[[String: Any]]] = []
        var week: Int?
        for day in days {
            let date = format.date(from: day["date"] as? String ?? "")!
            let key = calendar.component(.weekOfYear, from: date) + 100 * calendar.component(.yearForWeekOfYear, from: date)
            if key == week { out[out.count - 1].append(day) } else { out.append([day]) }
            week = key
        }
        return out
    }

    /// Checks that each series drawn is one of the page's series and has the report's values, and
    /// that every series is drawn; returns the keys drawn.
    @discardableResult
    static func check(_ text: String, against report: [String: Any], weekly: Bool, earned: Bool = true) throws -> [String] {
        let days = try #require(report["days"] as? [[String: Any]])
        let groups = points(days, weekly: weekly)
        let drawn = try drawn(text)
        var keys: [String] = []
        for (key, values) in drawn {
            keys.append(key)
            if key == "final_streak" {
                let buckets = try #require((report["summary"] as? [String: Any])?["final_streak"] as? [String: Any])
                let expected = try #require(buckets["distribution"] as? [String: Int])
                #expect(values == ["0", "1-2", "3-6", "7-13", "14-29", "30+"].map { Double(expected[$0] ?? -1) })
                continue
            }
            let compute = try #require(series[key], "a series the test does not know: \(key)")
            let expected = groups.map { group in group.map(compute).reduce(0, +) / Double(group.count) }
            #expect(values.count == expected.count, "\(key)")
            for (v, e) in zip(values, expected) { #expect(abs(v - e) < 0.0001, "\(key): \(values) ≠ \(expected)") }
        }
        let all = Set(series.keys).subtracting(earned ? [] : series.keys.filter { $0.hasPrefix("earned") })
        #expect(Set(keys).subtracting(["final_streak"]) == all)
        return keys
    }

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theHTMLPageShowsTheJSONReportsNumbersAndNeedsNothingElse() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("report.html"), json = dir.appendingPathComponent("r.json")
        let result = try CLI.run([
            "simulate", "10d", "--users", "40", "--seed", "3", "--no-db", "--html", page.path, "--format", "json", "--out", json.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        // One page, titled, nothing fetched from elsewhere (the SVG namespace is a name, not a fetch).
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html") && html.hasSuffix("</html>\n"))
        #expect(html.components(separatedBy: "<html").count == 2 && html.components(separatedBy: "<body>").count == 2)
        #expect(html.contains("<title>rulesrun simulate 10d: 40 users, rule set “rules”</title>"))
        let links = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        #expect(!links.contains("http://") && !links.contains("https://") && !links.contains("src=") && !links.contains("<link"))
        #expect(html.components(separatedBy: "<script").count == 2 && html.contains("<script type=\"application/json\" id=\"report\">"))
        // The parameters a reader needs, with dates.
        for text in ["<th>seed</th><td>3</td>", "<th>personas</th>", "2026-01-05 (Monday) to 2026-01-14 (Wednesday)", ">5 Jan 2026</text>"]
        {
            #expect(html.contains(text), "\(text)")
        }
        // The JSON report embedded once, byte for byte, and the charts' numbers are its numbers.
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"report\">\n")).upperBound
        let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        let embedded = html[start..<end].replacingOccurrences(of: "<\\/", with: "</")
        #expect(embedded == (try String(contentsOf: json, encoding: .utf8)))
        let keys = try Self.check(html, against: try Self.object(Data(embedded.utf8)), weekly: false)
        #expect(keys.contains("final_streak") && keys.count == Self.series.count + 1)
        // Every chart has a unit on its axis and a dated axis.
        #expect(html.components(separatedBy: "<svg").count - 1 == 12)
        #expect(html.components(separatedBy: ">date</text>").count - 1 == 11)
    }

    /// A page's sections: each `<h2>` with the title and unit of each chart under it, and the
    /// metric names of its first table of columns.
    static func sections(_ html: String) throws -> [(heading: String, charts: [(title: String, unit: String)], metrics: [String])] {
        let chart = try NSRegularExpression(
            pattern: "<figure>\n<svg[^\n]*\n<rect[^\n]*\n(?:<g [^\n]*\n)?(?:<rect[^\n]*\n)*<text [^>]*font-weight=\"bold\">([^<]*)</text>\n(?:<text x=\"[^\"]*\" y=\"34\"[^\n]*\n)?<text x=\"18\"[^>]*rotate\\(-90[^>]*>([^<]*)</text>")
        let metric = try NSRegularExpression(pattern: "<tr><td>([^<]*)</td>")
        return html.components(separatedBy: "<h2>").dropFirst().map { part in
            func all(_ pattern: NSRegularExpression) -> [[String]] {
                pattern.matches(in: part, range: NSRange(part.startIndex..., in: part)).map { match in
                    (1..<match.numberOfRanges).map { String(part[Range(match.range(at: $0), in: part)!]) }
                }
            }
            let heading = String(part.prefix { $0 != "<" })
            let grid = part.range(of: "<table class=\"grid\">").map { String(part[$0.lowerBound...]) } ?? ""
            let names = metric.matches(in: grid, range: NSRange(grid.startIndex..., in: grid)).map {
                String(grid[Range($0.range(at: 1), in: grid)!])
            }
            return (heading, all(chart).map { ($0[0], $0[1]) }, names)
        }
    }

    /// `simulate --html` and `simulate --replicas K --html` of one run: the same sections in the
    /// same order, the same metrics at a glance, and each chart of the replica page has, in the same
    /// section, a chart of the single run in the same unit (the same unit for the same title).
    @Test func theSingleRunAndReplicaPagesShareSectionsMetricsAndUnits() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let one = dir.appendingPathComponent("one.html"), many = dir.appendingPathComponent("many.html")
        let run = ["simulate", "10d", "--users", "40", "--seed", "3", "--no-db"]
        let single = try CLI.run(run + ["--html", one.path, "--out", dir.appendingPathComponent("one.txt").path])
        let replicas = try CLI.run(run + ["--replicas", "2", "--html", many.path, "--out", dir.appendingPathComponent("many.txt").path])
        #expect(single.status == 0 && replicas.status == 0, "\(single.stderr)\(replicas.stderr)")
        let a = try Self.sections(try String(contentsOf: one, encoding: .utf8))
        let b = try Self.sections(try String(contentsOf: many, encoding: .utf8))
        #expect(a.map(\.heading) == ["The run", "At a glance", "Users", "Pressure", "Earned", "Data"])
        #expect(b.map(\.heading) == a.map(\.heading))
        let glance = try #require(a.first { $0.heading == "At a glance" }).metrics
        #expect(glance.count > 20 && glance == b.first { $0.heading == "At a glance" }?.metrics)
        for (x, y) in zip(a, b) {
            #expect(x.charts.count >= y.charts.count, "\(x.heading)")
            let units = Dictionary(x.charts.map { ($0.title, $0.unit) }, uniquingKeysWith: { first, _ in first })
            for chart in y.charts {
                #expect(units.values.contains(chart.unit), "\(x.heading): \(chart.title) in \(chart.unit), not on the single run's page")
                if let unit = units[chart.title] { #expect(unit == chart.unit, "\(chart.title)") }
            }
        }
        #expect(a.first { $0.heading == "Earned" }?.charts.count == 6 && b.first { $0.heading == "Earned" }?.charts.count == 3)
    }

    /// A rule folder named `x</script><!--y` cannot close the embedded JSON nor open a comment.
    @Test func namesInTheEmbeddedJSONCannotBreakThePage() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let odd = dir.appendingPathComponent("x<").appendingPathComponent("script><!--y")
        try FileManager.default.createDirectory(at: odd.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("rules"), to: odd)
        let page = dir.appendingPathComponent("p.html"), json = dir.appendingPathComponent("r.json")
        let result = try CLI.run([
            "simulate", "2d", "--users", "3", "--no-db", "--rules", odd.path, "--html", page.path, "--format", "json", "--out", json.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.components(separatedBy: "</script>").count == 2 && !html.contains("<!--"))
        #expect(
            html.contains(
                "<title>rulesrun simulate 2d: 3 users, rule set “\(odd.path.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;"))”</title>"
            ))
        let start = try #require(html.range(of: "id=\"report\">\n")).upperBound
        let end = try #require(html.range(of: "</script>")).lowerBound
        let embedded = try Self.object(Data(html[start..<end].utf8)), expected = try Self.object(try Data(contentsOf: json))
        #expect((embedded["run"] as? [String: Any])?["rules"] as? String == odd.path)
        #expect(NSDictionary(dictionary: embedded) == NSDictionary(dictionary: expected))
    }

    /// Over 60 days, a point is the mean of an ISO week's days, and the page says so.
    @Test func aLongRunIsDrawnAsWeeklyMeans() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("long.html")
        // 2026-01-07 is a Wednesday: the first and last weeks are partial.
        let result = try CLI.run([
            "simulate", "9w", "--users", "6", "--start", "2026-01-07", "--no-db", "--html", page.path, "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("weekly means (ISO weeks, Monday to Sunday"))
        let report = try Self.object(Data(result.stdout.utf8))
        try Self.check(html, against: report, weekly: true)
        #expect(try Self.drawn(html).first { $0.0 == "yes" }?.1.count == 10)
    }

    /// `--chart` draws the same series over the same dates, in one SVG file.
    @Test func theChartHasEarnedSeriesAndDates() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let chart = dir.appendingPathComponent("c.svg")
        let result = try CLI.run(["simulate", "10d", "--users", "40", "--seed", "3", "--no-db", "--chart", chart.path, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try String(contentsOf: chart, encoding: .utf8)
        #expect(svg.components(separatedBy: "<svg").count == 2 && svg.contains(">8 Jan</text>"))
        try Self.check(svg, against: try Self.object(Data(result.stdout.utf8)), weekly: false)
        // Personas without Earned: no Earned chart, and the chart says why.
        let pressure = dir.appendingPathComponent("p.svg"), plain = dir.appendingPathComponent("plain.lua")
        try "return { description = \"x\", commit = 0.5, answer = { yes = 0.5, no = 0 } }\n".write(
            to: plain, atomically: true, encoding: .utf8)
        let ghost = try CLI.run([
            "simulate", "3d", "--users", "4", "--no-db", "--persona", plain.path, "--chart", pressure.path, "--format", "json",
        ])
        #expect(ghost.status == 0, "\(ghost.stderr)")
        let text = try String(contentsOf: pressure, encoding: .utf8)
        #expect(text.contains("no Earned user in this run"))
        try Self.check(text, against: try Self.object(Data(ghost.stdout.utf8)), weekly: false, earned: false)
    }

    /// `merge --html` of a run's shards is the page of the whole run, byte for byte.
    @Test func mergedShardsMakeThePageOfTheWholeRun() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = ["simulate", "4d", "--users", "9", "--seed", "4", "--no-db"]
        let whole = dir.appendingPathComponent("whole.html"), merged = dir.appendingPathComponent("merged.html")
        #expect(try CLI.run(run + ["--html", whole.path, "--out", dir.appendingPathComponent("w.txt").path]).status == 0)
        var parts: [String] = []
        for i in 1...2 {
            parts.append(dir.appendingPathComponent("p\(i).json").path)
            #expect(try CLI.run(run + ["--shard", "\(i)/2", "--format", "json", "--out", parts[i - 1]]).status == 0)
        }
        let result = try CLI.run(["merge"] + parts + ["--html", merged.path, "--out", dir.appendingPathComponent("m.txt").path])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOf: merged, encoding: .utf8)
        let wholePage = try String(contentsOf: whole, encoding: .utf8)
        #expect(page.contains("data-series=\"tiers.0\"") && page == wholePage)
    }

    /// `--format jsonl`: a flat object per day, the same keys on every line, the JSON report's values.
    @Test func jsonLinesAreOneFlatObjectPerDay() throws {
        let args = ["simulate", "5d", "--users", "20", "--seed", "2", "--no-db", "--format"]
        let lines = try CLI.run(args + ["jsonl"]), json = try CLI.run(args + ["json"])
        #expect(lines.status == 0 && json.status == 0, "\(lines.stderr)")
        let days = try #require(try Self.object(Data(json.stdout.utf8))["days"] as? [[String: Any]])
        let rows = lines.stdout.split(separator: "\n")
        #expect(rows.count == 5)
        var firstKeys: [String]?
        for (row, day) in zip(rows, days) {
            let object = try Self.object(Data(row.utf8))
            // Keys in the printed order: `date`, `day`, then the day's values.
            let line = String(row)
            let keys = try NSRegularExpression(pattern: "\"([^\"]+)\":").matches(in: line, range: NSRange(line.startIndex..., in: line))
                .map { String(line[Range($0.range(at: 1), in: line)!]) }
            #expect(keys.count == object.count && Array(keys.prefix(2)) == ["date", "day"])
            #expect(firstKeys == nil || firstKeys == keys)
            firstKeys = keys
            for (key, value) in object {
                #expect(!(value is [String: Any]), "\(key) is not flat")
                var expected: Any? = day
                for part in key.split(separator: ".") {
                    if let index = Int(part), let array = expected as? [Any] {
                        expected = array[index]
                    } else {
                        expected = (expected as? [String: Any])?[String(part)]
                    }
                }
                #expect("\(expected ?? "absent")" == "\(value)", "\(key)")
            }
        }
        #expect(firstKeys?.contains("earned.unlocks.CREDITS") == true && firstKeys?.contains("tiers.3") == true)
    }
}

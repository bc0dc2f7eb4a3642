import Foundation
import Testing

/// `compare --html` and `simulate --replicas K --html`/`--chart`: the numbers drawn are the JSON's,
/// read back from the files a user gets.
@Suite struct CompareHTMLTests {
    /// The compare run of the tests: a tiny cohort, few histories.
    static let small = [
        "--runs", "20", "--days", "8", "--economy-runs", "4", "--habit-runs", "4", "--population-users", "40", "--seed", "2",
    ]

    /// The JSON embedded in `<script type="application/json" id="ID">`, as written (`<\/` read back as `</`).
    static func embedded(_ html: String, id: String) throws -> String {
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"\(id)\">\n")).upperBound
        let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        return html[start..<end].replacingOccurrences(of: "<\\/", with: "</")
    }

    /// Every `<g data-metric=… data-delta=… [data-low=… data-high=…] data-significant=…>` of the difference chart.
    static func deltas(_ html: String) throws -> [String: (delta: Double, low: Double?, high: Double?, significant: Bool)] {
        let pattern = try NSRegularExpression(
            pattern:
                "<g data-metric=\"([^\"]*)\" data-delta=\"([^\"]*)\"(?: data-low=\"([^\"]*)\" data-high=\"([^\"]*)\")? data-significant=\"(true|false)\"[^>]*>"
        )
        var out: [String: (Double, Double?, Double?, Bool)] = [:]
        for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            func group(_ i: Int) -> String? { Range(match.range(at: i), in: html).map { String(html[$0]) } }
            out[group(1)!] = (Double(group(2)!)!, group(3).flatMap(Double.init), group(4).flatMap(Double.init), group(5) == "true")
        }
        return out
    }

    /// Every `data-band` with its `data-low` and `data-high`.
    static func bands(_ text: String) throws -> [String: (low: [Double], high: [Double])] {
        let pattern = try NSRegularExpression(pattern: "data-band=\"([^\"]*)\" data-low=\"([^\"]*)\" data-high=\"([^\"]*)\"")
        var out: [String: ([Double], [Double])] = [:]
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            func values(_ i: Int) -> [Double] {
                text[Range(match.range(at: i), in: text)!].split(separator: " ").map { Double($0) ?? .nan }
            }
            out[String(text[Range(match.range(at: 1), in: text)!])] = (values(2), values(3))
        }
        return out
    }

    /// A fraction as a signed percentage, as the page prints a change (`+10.0%`, `≈0` when it rounds to 0).
    static func percent(_ v: Double) -> String {
        let text = String(format: "%+.1f%%", v * 100)
        return v == 0 ? "0" : text == "+0.0%" || text == "-0.0%" ? "≈0" : text
    }

    static func noNetwork(_ html: String) {
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html") && html.hasSuffix("</html>\n"))
        let links = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        #expect(!links.contains("http://") && !links.contains("https://") && !links.contains("src=") && !links.contains("<link"))
        #expect(html.components(separatedBy: "<script").count == 2 && html.components(separatedBy: "</script>").count == 2)
    }

    @Test func theComparePageDrawsTheJSONsDeltasAndDays() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("compare.html")
        let result = try CLI.run(
            [
                "compare", "rules", "examples/graduated-recovery", "--json", "--out", dir.appendingPathComponent("out").path, "--html",
                page.path,
            ]
                + Self.small)
        #expect(result.status == 1, "\(result.stderr)")  // the sets differ
        let html = try String(contentsOf: page, encoding: .utf8)
        Self.noNetwork(html)
        #expect(html.contains("<title>rulesrun compare: A = rules, B = examples/graduated-recovery</title>"))
        // The --json object, embedded once, byte for byte.
        let json = try Self.embedded(html, id: "compare")
        #expect(json == result.stdout)
        let report = try SimulateHTMLTests.object(Data(json.utf8))
        let population = try #require(report["population"] as? [String: Any])
        for text in [
            "<th>seed</th><td>2</td>", "<td>examples/graduated-recovery</td>", "8 days, 2026-01-05 (Monday) to 2026-01-12 (Monday)",
        ] {
            #expect(html.contains(text), "\(text)")
        }
        // Every metric's B − A and interval, as the JSON has them, with its significance.
        let metrics = try #require(population["metrics"] as? [[String: Any]])
        let drawn = try Self.deltas(html)
        #expect(drawn.count == metrics.count && metrics.count > 10)
        var significant = 0
        for metric in metrics {
            let name = try #require(metric["name"] as? String)
            let row = try #require(drawn[name], "\(name) is not drawn")
            #expect(abs(row.delta - (try #require(metric["delta"] as? Double))) < 1e-4, "\(name)")
            #expect(row.significant == metric["significant"] as? Bool, "\(name)")
            if let low = metric["delta_low"] as? Double, let high = metric["delta_high"] as? Double {
                #expect(abs((row.low ?? .nan) - low) < 1e-4 && abs((row.high ?? .nan) - high) < 1e-4, "\(name)")
            } else {
                #expect(row.low == nil && row.high == nil, "\(name)")
            }
            if row.significant { significant += 1 }
        }
        // Graduated recovery steps down one tier at a time: more user-days on tier 1, beyond the noise.
        #expect(drawn["user-days at tier 1"]?.significant == true && significant < metrics.count)
        #expect(html.components(separatedBy: "<tr class=\"marked\">").count - 1 == significant)
        // Every per-day series of A and of B, drawn with the JSON's values (shares in percent).
        let days = try #require(population["per_day"] as? [[String: Any]])
        #expect(days.count == 8 && days[0]["date"] as? String == "2026-01-05")
        let series = try SimulateHTMLTests.drawn(html)
        var keys = Set<String>()
        for (key, values) in series {
            keys.insert(key)
            let side = String(key.prefix(1)), name = String(key.dropFirst(2))
            let expected = try days.map { day in
                let value = try #require((day[side] as? [String: Any])?[name] as? NSNumber, "\(key)").doubleValue
                return name.hasPrefix("tier ") || name == "YES rate" || name == "active users" ? value * 100 : value
            }
            #expect(values.count == expected.count, "\(key)")
            for (v, e) in zip(values, expected) { #expect(abs(v - e) < 1e-6, "\(key): \(values) ≠ \(expected)") }
        }
        let names = try #require((days[0]["a"] as? [String: Any])?.keys)
        #expect(keys == Set(names.flatMap { ["a.\($0)", "b.\($0)"] }) && names.contains("credits earned per user"))
        #expect(html.components(separatedBy: "stroke-dasharray=\"6 4\" points=").count - 1 == names.count)
        // The other halves, with their replay files.
        let files = try #require(report["differences"] as? [[String: Any]]).compactMap { $0["replay_file"] as? String }
        #expect(!files.isEmpty)
        for file in files { #expect(html.contains(file)) }
    }

    /// The default rules against a copy of them in a folder named `x</script><!--y`: no difference is
    /// significant and the page says so; the name cannot close the embedded JSON nor open a comment;
    /// the page refuses to be one of the inputs.
    @Test func theSameRulesUnderAHostileNameHaveNoSignificantDifference() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let odd = dir.appendingPathComponent("x</script><!--y")
        try FileManager.default.createDirectory(at: odd.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("rules"), to: odd)
        let page = dir.appendingPathComponent("p.html")
        let result = try CLI.run(
            ["compare", "rules", odd.path, "--json", "--out", dir.appendingPathComponent("out").path, "--html", page.path] + Self.small)
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        Self.noNetwork(html)
        #expect(
            !html.contains("<!--")
                && html.contains("B = \(odd.path.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;"))"))
        // The JSON as --json prints it, but for `<!--` written `<\u0021--` (the same JSON string).
        let json = try Self.embedded(html, id: "compare")
        #expect(json.contains("<\\u0021--y") && json.replacingOccurrences(of: "<\\u0021--", with: "<!--") == result.stdout)
        #expect(html.contains("No difference is significant: every interval holds 0."))
        #expect(try Self.deltas(html).values.allSatisfy { !$0.significant && $0.delta == 0 })
        #expect(html.contains("<th>Pressure histories</th><td>20 histories of 8 days: no difference</td>"))
        let refused = try CLI.run(["compare", "rules", odd.path, "--html", odd.appendingPathComponent("escalation.lua").path] + Self.small)
        #expect(refused.status == 2 && refused.stderr.contains("--html"), "\(refused.stderr)")
        let skipped = try CLI.run(["compare", "rules", "rules", "--population-users", "0", "--html", page.path])
        #expect(skipped.status == 2 && skipped.stderr.contains("--html draws the population comparison"), "\(skipped.stderr)")
    }

    /// `simulate --replicas K --html`: each day's series is the mean with its interval band, the
    /// summary the metrics' intervals, all the JSON report's; `--chart` draws the same.
    @Test func theReplicaPageDrawsMeansWithTheirIntervals() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("r.html"), chart = dir.appendingPathComponent("r.svg")
        let result = try CLI.run([
            "simulate", "6d", "--users", "30", "--replicas", "3", "--no-db", "--format", "json", "--html", page.path, "--chart", chart.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        Self.noNetwork(html)
        #expect(try Self.embedded(html, id: "report") == result.stdout)
        let report = try SimulateHTMLTests.object(Data(result.stdout.utf8))
        let days = try #require(report["days"] as? [[String: Any]])
        let names = Set(days[0].keys).subtracting(["day", "date"])
        let svg = try String(contentsOf: chart, encoding: .utf8)
        for text in [html, svg] {
            let means = Dictionary(try SimulateHTMLTests.drawn(text), uniquingKeysWith: { a, _ in a }), bands = try Self.bands(text)
            #expect(Set(means.keys) == names && Set(bands.keys) == names)
            for name in names {
                let scale = name.hasPrefix("tier ") || name == "YES rate" || name == "active users" ? 100.0 : 1
                func expected(_ field: String) throws -> [Double] {
                    try days.map { try #require(($0[name] as? [String: Any])?[field] as? NSNumber).doubleValue * scale }
                }
                for (drawn, field) in [(means[name]!, "mean"), (bands[name]!.low, "low"), (bands[name]!.high, "high")] {
                    let e = try expected(field)
                    #expect(drawn.count == e.count && zip(drawn, e).allSatisfy { abs($0 - $1) < 1e-6 }, "\(name).\(field): \(drawn) ≠ \(e)")
                }
            }
        }
        // The summary: each metric's mean and interval as the table prints them.
        let summary = try #require(report["summary"] as? [[String: Any]])
        let tier3 = try #require(summary.first { $0["name"] as? String == "user-days at tier 3" })
        let low = try #require(tier3["low"] as? Double), high = try #require(tier3["high"] as? Double)
        #expect(html.contains(String(format: "<td>[%.1f%%, %.1f%%]</td>", low * 100, high * 100)))
        #expect(html.components(separatedBy: "<tr><td>").count - 1 == summary.count)
    }

    /// The differences of metrics of different units are put on one scale: B − A as a percentage
    /// of A, in a column of the table and in the chart, whose rows share one axis (a row's dot is
    /// as far from 0 as its change, whatever its unit) with ticks of one format.
    @Test func theComparePageDrawsEveryChangeOnOneScaleInPercentOfA() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("compare.html")
        let result = try CLI.run(
            ["compare", "rules", "examples/graduated-recovery", "--json", "--out", dir.appendingPathComponent("out").path, "--html", page.path]
                + Self.small)
        #expect(result.status == 1, "\(result.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        let report = try SimulateHTMLTests.object(Data(try Self.embedded(html, id: "compare").utf8))
        let metrics = try #require((report["population"] as? [String: Any])?["metrics"] as? [[String: Any]])
        #expect(html.contains("<th>B − A, % of A</th>"))
        // Each row: its change in % of A, drawn and printed; the dots on one scale.
        let pattern = try NSRegularExpression(
            pattern: "<g data-metric=\"([^\"]*)\"[^>]*?(?: data-value=\"([^\"]*)\")?(?: data-value-low=\"[^\"]*\" data-value-high=\"[^\"]*\")?>\n<text[^\n]*\n(?:<line[^\n]*\n)?(?:<circle cx=\"([^\"]*)\")?")
        var dots: [(relative: Double, x: Double)] = []
        var seen = 0
        for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            func group(_ i: Int) -> String? { Range(match.range(at: i), in: html).map { String(html[$0]) } }
            let name = try #require(group(1))
            let metric = try #require(metrics.first { $0["name"] as? String == name })
            let a = try #require(metric["a"] as? Double), delta = try #require(metric["delta"] as? Double)
            seen += 1
            guard a != 0 else {
                #expect(group(2) == nil && group(3) == nil, "\(name): A is 0, no relative change")
                #expect(html.contains("<td>— (A is 0)</td>"))
                continue
            }
            let relative = try #require(group(2).flatMap(Double.init), "\(name)")
            #expect(abs(relative - 100 * delta / abs(a)) < 1e-3, "\(name): \(relative)")
            let printed = Self.percent(delta / abs(a))
            #expect(html.contains("<td>\(printed)"), "\(name): \(printed)")
            if let x = group(3).flatMap(Double.init) { dots.append((relative, x)) }
        }
        #expect(seen == metrics.count && dots.count >= metrics.count / 2)
        // One scale: x grows with the change, and a change of 0 is at the same place on every row.
        let sorted = dots.sorted { $0.relative < $1.relative }
        let ticks = try NSRegularExpression(pattern: "<text class=\"tick\" x=\"([^\"]*)\"[^>]*>([^<]*)</text>")
            .matches(in: html, range: NSRange(html.startIndex..., in: html))
            .map { (Double(html[Range($0.range(at: 1), in: html)!])!, String(html[Range($0.range(at: 2), in: html)!])) }
        #expect(ticks.count == 5 && ticks.map(\.1).allSatisfy { $0.hasSuffix("%") })
        let limit = try #require(Double(ticks[4].1.dropFirst().dropLast())), zero = ticks[2].0, scale = (ticks[4].0 - zero) / limit
        for dot in sorted where abs(dot.relative) <= limit {
            #expect(abs(dot.x - (zero + dot.relative * scale)) < 0.2, "\(dot)")
        }
        // The ticks' labels share one number of decimals.
        #expect(Set(ticks.map { $0.1.contains(".") ? $0.1.split(separator: ".")[1].count : 0 }).count == 1)
    }
}

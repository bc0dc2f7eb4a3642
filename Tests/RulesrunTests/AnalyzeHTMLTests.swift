import Foundation
import Testing

/// `analyze --html`: the page a user gets, read back from the file: the sample-ratio verdict before
/// the forest plot, a row per metric on it drawn from the JSON's numbers, the prediction beside
/// the observation when given, the same bytes on every run.
@Suite struct AnalyzeHTMLTests {
    typealias PlotRow = (id: String, arm: String, agrees: Bool?, significant: Bool, value: Double?, beside: Double?)

    /// Every forest-plot row: its metric id, arm, significance, drawn lift (and predicted lift, agrees).
    static func rows(_ html: String) throws -> [PlotRow] {
        let pattern = try NSRegularExpression(
            pattern: "<g data-metric=\"[^\"]*\" data-id=\"([^\"]*)\" data-arm=\"([^\"]*)\"(?: data-agrees=\"(true|false)\")? "
                + "data-significant=\"(true|false)\"(?: data-value=\"([^\"]*)\")?(?: data-value-low=\"[^\"]*\" data-value-high=\"[^\"]*\")?"
                + "(?: data-beside=\"([^\"]*)\")?[^>]*>")
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { match in
            func group(_ i: Int) -> String? { Range(match.range(at: i), in: html).map { String(html[$0]) } }
            return (
                group(1)!, group(2)!, group(3).map { $0 == "true" }, group(4) == "true", group(5).flatMap(Double.init),
                group(6).flatMap(Double.init)
            )
        }
    }

    @Test func theVerdictComesFirstThenARowPerMetricWithThePredictionBesideIt() throws {
        let dir = try AnalyzeCommandTests.rollout(days: 4, users: 40)
        defer { try? FileManager.default.removeItem(at: dir) }
        let arguments = ["analyze", "log.jsonl", "--rules", "x.bundle", "--prediction", "sim.json", "--format", "json"]
        let analyzed = try CLI.run(arguments + ["--out", "a.json", "--html", "a.html"], in: dir)
        #expect(analyzed.status == 0, "\(analyzed.stderr)")
        let html = try String(contentsOf: dir.appendingPathComponent("a.html"), encoding: .utf8)
        CompareHTMLTests.noNetwork(html)
        #expect(html.contains("<title>rulesrun analyze log.jsonl: experiment escalation-2026, revision 1</title>"))
        // The JSON report, embedded once, byte for byte.
        let json = try String(contentsOf: dir.appendingPathComponent("a.json"), encoding: .utf8)
        #expect(try CompareHTMLTests.embedded(html, id: "analysis") == json)
        // The verdict, then the users, then the plot, then the table.
        let verdict = try #require(html.range(of: "<p class=\"verdict\">sample ratio: χ² = ")).lowerBound
        let users = try #require(html.range(of: "<h2>The rollout and its users</h2>")).lowerBound
        let plot = try #require(html.range(of: "<svg")).lowerBound
        let table = try #require(html.range(of: "<h2>Every metric</h2>")).lowerBound
        #expect(verdict < users && users < plot && plot < table)
        #expect(!html.contains("class=\"alert\""))
        #expect(html.contains("<td>lenient</td><td>"))
        // One row per metric of the JSON, in its order, with its lift (in %) and significance.
        let report = try AnalyzeCommandTests.object(json)
        let metrics = try #require(report["metrics"] as? [[String: Any]])
        let rows = try Self.rows(html)
        #expect(rows.map(\.id) == metrics.map { $0["id"] as! String } && rows.allSatisfy { $0.arm == "lenient" })
        #expect(html.components(separatedBy: "<svg").count == 2)
        var predicted = 0
        for (row, metric) in zip(rows, metrics) {
            let comparison = (metric["comparisons"] as? [[String: Any]])?.first
            guard let lift = comparison?["relative_lift"] as? [String: Any] else {
                #expect(row.value == nil, "\(row.id)")
                continue
            }
            #expect(abs(try #require(row.value) - (lift["point"] as! Double) * 100) < 0.00006, "\(row.id)")
            #expect(row.significant == (lift["significant"] as! Bool), "\(row.id)")
            if let p = comparison?["predicted"] as? [String: Any] {
                let control = try #require((metric["arms"] as? [String: Any])?["control"] as? Double)
                #expect(row.agrees == (p["agrees"] as! Bool), "\(row.id)")
                #expect(abs(try #require(row.beside) - (p["point"] as! Double) / control * 100) < 0.00006, "\(row.id)")
                predicted += 1
            } else {
                #expect(row.beside == nil && row.agrees == nil, "\(row.id)")
            }
        }
        #expect(predicted >= 8, "\(predicted) predicted rows")
        #expect(html.contains(">predicted</text>") && html.contains("<th>predicted [95%]</th><th>agrees</th>"))
        // The same bytes on another run; without a prediction, no mark of one.
        let again = try CLI.run(arguments + ["--out", "b.json", "--html", "b.html"], in: dir)
        #expect(again.status == 0)
        #expect(
            try Data(contentsOf: dir.appendingPathComponent("b.html")) == Data(contentsOf: dir.appendingPathComponent("a.html")))
        let plain = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--html", "c.html"], in: dir)
        #expect(plain.status == 0 && plain.stdout.contains("sample ratio: χ² = "), "\(plain.stderr)")
        let plainHTML = try String(contentsOf: dir.appendingPathComponent("c.html"), encoding: .utf8)
        #expect(try Self.rows(plainHTML).count == metrics.count)
        #expect(
            !plainHTML.contains("data-beside=\"") && !plainHTML.contains("class=\"beside\"") && !plainHTML.contains("predicted [")
        )
    }

    @Test func aMismatchIsABannerAboveEverythingAndTheBadInputIsListedWithExamples() throws {
        let dir = try AnalyzeCommandTests.rollout(days: 2, users: 200)
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try String(contentsOf: dir.appendingPathComponent("log.jsonl"), encoding: .utf8)
        // The lenient arm's users lose most of their exposures (as a logging bug would), and a line is not an event.
        var dropped = 0
        let kept = log.split(separator: "\n").filter { line in
            guard line.contains("\"arm\":\"lenient\"") else { return true }
            dropped += 1
            return dropped % 3 == 0
        }
        try (kept.joined(separator: "\n") + "\n{not json\n").write(
            to: dir.appendingPathComponent("srm.jsonl"), atomically: true, encoding: .utf8)
        let analyzed = try CLI.run(["analyze", "srm.jsonl", "--rules", "x.bundle", "--html", "srm.html"], in: dir)
        #expect(analyzed.status == 1, "\(analyzed.stderr)")
        let html = try String(contentsOf: dir.appendingPathComponent("srm.html"), encoding: .utf8)
        let banner = try #require(html.range(of: "<p class=\"alert\">SAMPLE RATIO MISMATCH: χ² = ")).lowerBound
        #expect(banner < (try #require(html.range(of: "<h2>")).lowerBound))
        #expect(
            html.contains(" &lt; 0.001: the users per arm are not the allocation's") && html.contains("untrustworthy</p>"),
            "\(html)")
        #expect(!html.contains("class=\"verdict\""))
        #expect(html.contains("<h2>What the log could not give</h2>"))
        #expect(
            html.contains("<tr><td>lines that are not events</td><td>1</td><td>left out</td><td>line \(kept.count + 1): "),
            "\(html)")
        #expect(html.contains("<td>users with no exposure to the experiment</td>"))
    }

    @Test func anHTMLPageOverAnInputIsRefused() throws {
        let dir = try AnalyzeCommandTests.rollout(days: 1, users: 4)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (arguments, expected) in [
            (["--html", "log.jsonl"], "--html log.jsonl: is the events log.jsonl, an input"),
            (["--html", "x.bundle"], "--html x.bundle: is the bundle x.bundle, an input"),
            (["--html", "a.txt", "--out", "./a.txt"], "--html a.txt: is the same file as --out ./a.txt"),
        ] {
            let refused = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle"] + arguments, in: dir)
            #expect(refused.status == 2, "\(arguments)")
            #expect(refused.stderr.contains(expected), "\(refused.stderr)")
        }
        let log = try Data(contentsOf: dir.appendingPathComponent("log.jsonl"))
        #expect(!log.isEmpty && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("a.txt").path))
    }
}

import Foundation
import Testing

/// Headless Chromium (on the PATH as `chromium`, `chromium-browser` or `google-chrome`;
/// scripts/install-deps.sh installs it), which renders the HTML pages as a reader's browser does.
enum Browser {
    static let path: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in path.split(separator: ":") {
                let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
        }
        return nil
    }()

    static let missing =
        "Chromium is not installed (no chromium, chromium-browser or google-chrome on the PATH): "
        + "the pages are not rendered; scripts/install-deps.sh installs it"

    /// The page's DOM once Chromium has loaded it (`--dump-dom`), and what Chromium logged
    /// (console messages and script errors among them).
    static func dom(of page: URL) throws -> (dom: String, log: String) {
        let result = try CLI.run(
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0", "--virtual-time-budget=2000",
                "--dump-dom", page.absoluteString,
            ], executableURL: try #require(Browser.path))
        #expect(result.status == 0, "\(result.stderr)")
        return (result.stdout, result.stderr)
    }

    /// A PNG screenshot 1200 px wide; returns its width and height (from the PNG's header).
    static func screenshot(of page: URL, to png: URL, height: Int) throws -> (width: Int, height: Int) {
        let result = try CLI.run(
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                "--screenshot=\(png.path)", "--window-size=1200,\(height)", page.absoluteString,
            ], executableURL: try #require(Browser.path))
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: png)
        #expect(data.count > 10_000 && data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        func int(_ at: Int) -> Int { data[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (int(16), int(20))
    }
}

/// Each HTML page (simulate, simulate --replicas, compare, sweep, analyze, fit) rendered in headless
/// Chromium: the DOM the browser built has the page's sections, tables, every chart with every
/// element of its SVG, and the embedded JSON (a page the parser cuts short, e.g. by an element left
/// open, loses them), no script error is logged, and a screenshot 1200 px wide is drawn.
@Suite(.serialized) struct HTMLBrowserTests {
    /// The pages of one small run of each command: (name, arguments, the sections expected, the JSON's id).
    static let pages: [(name: String, arguments: [String], sections: [String], json: String)] = [
        (
            "simulate", ["simulate", "10d", "--users", "40", "--seed", "3", "--no-db"],
            ["The run", "At a glance", "Users", "Pressure", "Earned", "Data"], "report"
        ),
        (
            "replicas", ["simulate", "10d", "--users", "40", "--seed", "3", "--replicas", "2", "--no-db"],
            ["The run", "At a glance", "Users", "Pressure", "Earned", "Data"], "report"
        ),
        (
            "compare", ["compare", "rules", "examples/graduated-recovery"] + CompareHTMLTests.small,
            [
                "The two rule sets and the run", "B − A: which differences are more than noise", "Day by day: A solid, B dashed",
                "The other comparisons", "Data",
            ], "compare"
        ),
        (
            "sweep", ["sweep", "7d", "--users", "50", "--seed", "1", "--set", "escalation.recover_after[3]=1,3,5"],
            ["Each variant against the base", "Response curves"], "sweep"
        ),
        (
            "analyze", ["analyze", "log.jsonl", "--rules", "x.bundle", "--prediction", "sim.json"],
            ["The rollout and its users", "What the log could not give", "The relative lift of each metric", "Every metric", "Data"],
            "analysis"
        ),
        (
            "fit", ["fit", "log.jsonl", "--persona", "steady", "--check", "users:30,days:3"],
            [
                "The log and its users", "Responses", "The unlock gate's choice (earned.gate, responses.price)",
                "Pressure's check-ins (answer, reminder_response, fatigue; the users as one segment)",
                "Check on users the fit did not see", "Check on days the fit did not see", "Data",
            ], "fit"
        ),
    ]

    @Test(.enabled(if: Browser.path != nil, Comment(rawValue: Browser.missing)), arguments: pages.map(\.name))
    func thePageRendersInChromium(_ name: String) throws {
        let page = try #require(Self.pages.first { $0.name == name })
        // analyze reads the log of a simulated rollout.
        let dir = name == "analyze" ? try AnalyzeCommandTests.rollout(days: 4, users: 40) : try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        // fit reads the log of a simulation.
        if name == "fit" {
            let simulated = try CLI.run(
                ["simulate", "8d", "--users", "80", "--no-db", "--events", "log.jsonl", "--persona", "steady"], in: dir)
            #expect(simulated.status == 0, "\(simulated.stderr)")
        }
        let html = dir.appendingPathComponent("\(name).html")
        var arguments = page.arguments + ["--html", html.path, "--out", dir.appendingPathComponent("\(name).txt").path]
        if name == "compare" { arguments += ["--json"] }
        let result = try CLI.run(arguments, in: name == "analyze" || name == "fit" ? dir : nil)
        #expect(result.status == 0 || (name == "compare" && result.status == 1), "\(result.stderr)")
        let source = try String(contentsOf: html, encoding: .utf8)
        let (dom, log) = try Browser.dom(of: html)
        // The sections, in order, as the browser parsed them.
        let headings = try NSRegularExpression(pattern: "<h2>([^<]*)</h2>").matches(in: dom, range: NSRange(dom.startIndex..., in: dom))
            .map { String(dom[Range($0.range(at: 1), in: dom)!]) }
        #expect(headings == page.sections)
        // Every chart and table of the file is in the DOM, the body closed after the last of them.
        let charts = source.components(separatedBy: "<svg").count - 1
        #expect(charts >= (name == "analyze" ? 1 : 2) && dom.components(separatedBy: "<svg").count - 1 == charts)
        for element in ["<g ", "<circle", "<line", "<text", "<polygon"] {
            #expect(dom.components(separatedBy: element).count == source.components(separatedBy: element).count, "\(element)")
        }
        if name == "analyze" {
            #expect(source.components(separatedBy: "<g data-metric=").count > 10 && source.contains("<circle class=\"beside\""))
        }
        #expect(dom.components(separatedBy: "<table").count == source.components(separatedBy: "<table").count)
        #expect(dom.contains("<table class=\"grid\">") && dom.contains("</table>"))
        // The embedded JSON, whole: it parses, in the DOM as in the file.
        let start = try #require(dom.range(of: "<script type=\"application/json\" id=\"\(page.json)\">")).upperBound
        let end = try #require(dom.range(of: "</script>", range: start..<dom.endIndex)).lowerBound
        #expect(try JSONSerialization.jsonObject(with: Data(dom[start..<end].utf8)) is [String: Any])
        #expect(dom.hasSuffix("</body></html>") || dom.hasSuffix("</body></html>\n"))
        // No script ran, so none failed; no console message.
        #expect(!log.contains("Uncaught") && !log.contains("CONSOLE"), "\(log)")
        let png = dir.appendingPathComponent("\(name).png")
        let size = try Browser.screenshot(of: html, to: png, height: 900)
        #expect(size.width == 1200 && size.height == 900)
    }
}

import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// The three outputs of `rulesrun test`: lines for people, one JSON object, JUnit XML for CI.
/// Test names, file names and folders are the test files' text: in the lines, each is shown on its
/// own line's part (`VisibleText.oneLine`: `test_a\nPASS …` cannot print a line of its own), and
/// what a test printed or failed with is indented to its last line; in the XML, every character
/// XML 1.0 cannot hold is escaped; JSON escapes them itself.
enum TestReport {
    /// `PASS  tests/streaks_test.lua:12 test_habit_grace  (1.2 ms)` (`SKIP`, `XFAIL`, `XPASS` for a
    /// marked inherited test, with its mark's reason), what failed, what was
    /// printed and the rule calls of a failure (`FailureExplanation`) indented under it; then `N passed, M failed` (and `, K errors`).
    static func printText(_ results: [RuleTestResult]) {
        var folder: String?
        for result in results {
            if result.folder != folder {
                if folder != nil { Terminal.line("") }
                Terminal.line("# \(VisibleText.oneLine(result.folder))")
                folder = result.folder
            }
            printResult(result)
        }
        Terminal.line(summary(results))
    }

    /// One test's line, what failed and what it printed (`rulesrun watch` prints those that did not pass).
    static func printResult(_ result: RuleTestResult) {
        let status = result.outcome.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
        let time = result.outcome == .error ? "" : String(format: "  (%.1f ms)", result.milliseconds)
        let cases = result.cases.map { " (\($0) case\($0 == 1 ? "" : "s"))" } ?? ""
        let shownTime = result.outcome == .skipped ? "" : time
        Terminal.line("\(status)\(VisibleText.oneLine(result.location)) \(VisibleText.oneLine(result.name))\(cases)\(shownTime)")
        if let mark = result.mark { Terminal.line("    " + markText(result, mark).replacingOccurrences(of: "\n", with: "\n    ")) }
        for line in result.failure { Terminal.line("    " + line.replacingOccurrences(of: "\n", with: "\n    ")) }
        for line in result.printed { Terminal.line("    print: " + line.replacingOccurrences(of: "\n", with: "\n           ")) }
        for line in result.explanation?.text ?? [] { Terminal.line("    " + line) }
    }

    /// What the mark of a marked test says: `skipped by tests/marks_test.lua:3: REASON`.
    static func markText(_ result: RuleTestResult, _ mark: TestMark) -> String {
        switch result.outcome {
        case .skipped: "skipped by \(mark.location): \(mark.reason)"
        case .expectedFailure: "expected to fail by \(mark.location): \(mark.reason)"
        default:
            "expected to fail by \(mark.location): \(mark.reason); it now passes: remove its expect_failure (\(mark.location))"
        }
    }

    /// `N passed, M failed`, then the other outcomes there are: `, K errors`, `, S skipped`,
    /// `, X expected failures`, `, U unexpectedly passed`.
    static func summary(_ results: [RuleTestResult]) -> String {
        let count = { (outcome: RuleTestResult.Outcome) in results.filter { $0.outcome == outcome }.count }
        let errors = count(.error)
        var text = "\(count(.passed)) passed, \(count(.failed)) failed" + (errors > 0 ? ", \(errors) error\(errors == 1 ? "" : "s")" : "")
        if count(.skipped) > 0 { text += ", \(count(.skipped)) skipped" }
        if count(.expectedFailure) > 0 { text += ", \(count(.expectedFailure)) expected failure\(count(.expectedFailure) == 1 ? "" : "s")" }
        if count(.unexpectedPass) > 0 { text += ", \(count(.unexpectedPass)) unexpectedly passed" }
        return text
    }

    /// The outcomes of marked tests in JSON: the count's name, the outcome.
    static let markedCounts: [(name: String, outcome: RuleTestResult.Outcome)] = [
        ("skipped", .skipped), ("expected_failures", .expectedFailure), ("unexpected_passes", .unexpectedPass),
    ]

    /// `{"directory": …, "passed": N, "failed": M, "errors": K, "tests": [{…}, …]}`.
    static func json(_ results: [RuleTestResult], directory: String) -> JSONValue {
        let count = { (outcome: RuleTestResult.Outcome) in JSONValue.int(results.filter { $0.outcome == outcome }.count) }
        let tests = results.map { result in
            var fields: [(String, JSONValue)] = [
                ("file", .string(result.file)), ("line", .int(result.line)), ("name", .string(result.name)),
                ("folder", .string(result.folder)), ("outcome", .string(result.outcome.rawValue.lowercased())),
                ("failure", .array(result.failure.map { .string($0) })), ("printed", .array(result.printed.map { .string($0) })),
                ("milliseconds", .double((result.milliseconds * 1000).rounded() / 1000)),
            ]
            if let cases = result.cases { fields.append(("cases", .int(cases))) }
            if let explanation = result.explanation { fields += explanation.jsonFields }
            if let mark = result.mark {
                fields += [("reason", .string(mark.reason)), ("marked_at", .string(mark.location))]
            }
            return JSONValue.object(fields)
        }
        // The counts of marked tests' outcomes are there when a test has one.
        let marked = markedCounts.filter { entry in results.contains { $0.outcome == entry.outcome } }.map { ($0.name, count($0.outcome)) }
        return .object(
            [("directory", .string(directory)), ("passed", count(.passed)), ("failed", count(.failed)), ("errors", count(.error))]
                + marked + [("tests", .array(tests))])
    }

    /// JUnit XML: one `testsuite` per test file, one `testcase` per test, with `failure` (a test
    /// that failed) or `error` (a file that did not load) and `system-out` (what it printed).
    static func junit(_ results: [RuleTestResult], directory: String) -> String {
        func seconds(_ results: [RuleTestResult]) -> String {
            String(format: "%.6f", results.reduce(0) { $0 + $1.milliseconds } / 1000)
        }
        func counts(_ results: [RuleTestResult]) -> String {
            let failures = results.filter { $0.outcome == .failed || $0.outcome == .unexpectedPass }.count
            let errors = results.filter { $0.outcome == .error }.count
            let skipped = results.filter { $0.outcome == .skipped || $0.outcome == .expectedFailure }.count
            let skips = skipped > 0 ? " skipped=\"\(skipped)\"" : ""
            return "tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\"\(skips) time=\"\(seconds(results))\""
        }
        var files: [String] = []
        for result in results where !files.contains(result.file) { files.append(result.file) }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(xml(directory, oneLine: true))\" \(counts(results))>\n"
        for file in files {
            let inFile = results.filter { $0.file == file }
            out += "  <testsuite name=\"\(xml(file, oneLine: true))\" \(counts(inFile))>\n"
            for result in inFile {
                out += "    <testcase classname=\"\(xml(file, oneLine: true))\" name=\"\(xml(result.name, oneLine: true))\" "
                out += "file=\"\(xml(file, oneLine: true))\" "
                out += "line=\"\(result.line)\" time=\"\(String(format: "%.6f", result.milliseconds / 1000))\""
                guard result.outcome != .passed || !result.printed.isEmpty else {
                    out += "/>\n"
                    continue
                }
                out += ">\n"
                if let mark = result.mark {
                    // A skipped test and an expected failure are `skipped`; an unexpected pass a `failure`.
                    let element = result.outcome == .unexpectedPass ? "failure" : "skipped"
                    let message = xml(markText(result, mark), oneLine: true)
                    if result.failure.isEmpty {
                        out += "      <\(element) message=\"\(message)\"/>\n"
                    } else {
                        out += "      <\(element) message=\"\(message)\">\(xml(result.failure.joined(separator: "\n")))</\(element)>\n"
                    }
                } else if result.outcome != .passed {
                    let element = result.outcome == .failed ? "failure" : "error"
                    let text = (result.failure + (result.explanation?.text ?? [])).joined(separator: "\n")
                    out += "      <\(element) message=\"\(xml(result.failure.first ?? "", oneLine: true))\">\(xml(text))</\(element)>\n"
                }
                if !result.printed.isEmpty {
                    out += "      <system-out>\(xml(result.printed.joined(separator: "\n")))</system-out>\n"
                }
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    /// Text as XML character data or an attribute value (`oneLine`: line feeds and tabs as `\n`,
    /// `\t`, which an attribute would turn into spaces): markup characters as entities, and every
    /// character XML 1.0 cannot hold, not even as a reference, made visible: control characters
    /// as `VisibleText` shows them (`\u{1B}`), the noncharacters U+FFFE and U+FFFF as `\u{FFFE}`.
    static func xml(_ text: String, oneLine: Bool = false) -> String {
        var out = ""
        for scalar in (oneLine ? VisibleText.oneLine(text) : VisibleText.escaping(text)).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\u{FFFE}", "\u{FFFF}": out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

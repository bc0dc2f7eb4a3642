import Foundation
import Testing

/// `rulesrun replay` of a scenario (a file of `rulesrun test`): its `expect` members are ignored, or
/// judged with `--check` by the code that judges scenarios, so that `--explain text` shows why a line fails.
extension ReplayCommandTests {
    static let scenario = CLI.packageRoot.appendingPathComponent("rules/tests/escalation-days.jsonl")

    /// The default rules' scenario, with line 9's expected tier made wrong (2 → 3).
    static func wrongScenario() throws -> String {
        CLI.edit(
            try String(contentsOf: scenario, encoding: .utf8),
            [(#""result": "NO", "expect": {"state.current_tier": 2}"#, #""result": "NO", "expect": {"state.current_tier": 3}"#)])
    }

    @Test func aScenarioReplaysAsTheSameFileWithoutItsExpectations() throws {
        let text = try String(contentsOf: Self.scenario, encoding: .utf8)
        let without = text.replacingOccurrences(of: #", "expect": \{[^{}]*\}"#, with: "", options: .regularExpression)
        #expect(without != text && !without.contains("expect\":"))
        let dir = try CLI.folder(["without.jsonl": without])
        defer { try? FileManager.default.removeItem(at: dir) }
        let with = try CLI.run(["replay", Self.scenario.path])
        let plain = try CLI.run(["replay", dir.appendingPathComponent("without.jsonl").path])
        #expect(with.status == 0, "\(with.stdout)\(with.stderr)")
        #expect(with.stderr.isEmpty)
        #expect(with.stdout.split(separator: "\n").count == 10)
        #expect(with.stdout == plain.stdout)
        #expect(plain.status == 0)
    }

    @Test func checkJudgesEachLineAsTestDoesAndExplainShowsWhyItFailed() throws {
        let dir = try CLI.folder([
            "extends": CLI.packageRoot.appendingPathComponent("rules").path + "\n", "tests/days.jsonl": try Self.wrongScenario(),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let failure = "tests/days.jsonl:9: state.current_tier: expected 3, found 2"
        // `rulesrun test`'s failure, which --check prints as it is.
        let test = try CLI.run(["test", dir.path, "--no-inherit", "--no-explain"])
        #expect(test.status == 1)
        #expect(test.stdout.contains("    \(failure)\n"), "\(test.stdout)")

        let checked = try CLI.run(["replay", "tests/days.jsonl", "--rules", ".", "--check"], in: dir)
        #expect(checked.status == 1, "\(checked.stderr)")
        #expect(checked.stderr == "\(failure)\ntests/days.jsonl: --check: 1 of 10 lines failed\n")
        // Every line is replayed and printed, as without --check.
        let plain = try CLI.run(["replay", "tests/days.jsonl", "--rules", "."], in: dir)
        #expect(plain.status == 0)
        #expect(plain.stderr.isEmpty)
        #expect(checked.stdout == plain.stdout)

        // With --explain text: line 9's rule calls, the transition that kept tier 2.
        let explained = try CLI.run(["replay", "tests/days.jsonl", "--rules", ".", "--check", "--explain", "text"], in: dir)
        #expect(explained.status == 1)
        #expect(explained.stderr == checked.stderr)
        let line9 = try #require(explained.stdout.range(of: #"{"line":9,"#))
        let calls = explained.stdout[line9.lowerBound...].split(separator: "\n").dropFirst().prefix(3).joined(separator: "\n")
        // (The file where the function is defined, as the variant names its base's: rules/escalation.lua.)
        #expect(calls.hasPrefix("  escalation.transition (rules/escalation.lua:"), "\(calls)")
        #expect(calls.contains(#"returned: {"consecutive_misses":2,"consecutive_successes":0,"current_tier":2}"#), "\(calls)")

        // The scenario as shipped meets every expectation.
        let good = try CLI.run(["replay", Self.scenario.path, "--check"])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stderr == "\(Self.scenario.path): --check: all 10 lines met what they expect\n")
    }

    @Test func checkFailsARefusalNoLineExpectsAndRefusesAnExpectationThatIsNotOne() throws {
        // The example week has two refusals, which are results for a replay but failures for a scenario.
        let week = try CLI.run(["replay", "examples/replay/escalation-week.jsonl", "--check"])
        #expect(week.status == 1)
        #expect(
            week.stderr.contains(
                #"examples/replay/escalation-week.jsonl:12: the event was refused ("ALREADY_CHECKED_IN": "line 12: 2026-03-06 is already YES; a check-in is final and irreversible"); a line that expects it says so, "expect": {"ok": false}"#
            ), "\(week.stderr)")
        #expect(week.stderr.hasSuffix("examples/replay/escalation-week.jsonl: --check: 2 of 13 lines failed\n"))

        let dir = try CLI.folder([
            "paths.jsonl":
                #"{"at": "2026-03-02T07:00:00+01:00", "type": "settings", "timezone": "Europe/Paris", "expect": {"state..tier": 1}}"#,
            "matcher.jsonl": #"{"at": "2026-03-02T07:00:00+01:00", "type": "tick", "expect": {"ok": {"$above": 0, "$abov": 1}}}"#,
            "number.jsonl": #"{"at": "2026-03-02T07:00:00+01:00", "type": "tick", "expect": 3}"#,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        // Ignored without --check, however it is written inside; read and refused, as `test` refuses it, with it (exit 2).
        let ignored = try CLI.run(["replay", "paths.jsonl"], in: dir)
        #expect(ignored.status == 0 && ignored.stderr.isEmpty, "\(ignored.stdout)\(ignored.stderr)")
        let path = try CLI.run(["replay", "paths.jsonl", "--check"], in: dir)
        #expect(path.status == 2)
        #expect(
            path.stderr.hasPrefix("paths.jsonl:1: expect: 'state..tier' is not a path (expected fields separated by dots"), "\(path.stderr)"
        )
        #expect(path.stderr.hasSuffix("paths.jsonl: --check: 1 line with an expect that cannot be read\n"))
        let matcher = try CLI.run(["replay", "matcher.jsonl", "--check"], in: dir)
        #expect(matcher.status == 2)
        #expect(matcher.stderr.contains("matcher.jsonl:1: expect: ok: unknown matcher '$abov' (did you mean $above?)"), "\(matcher.stderr)")
        // An expect that is not an object is not a line of a replay file (as the events schema says).
        let number = try CLI.run(["replay", "number.jsonl"], in: dir)
        #expect(number.status == 2)
        #expect(
            number.stdout.contains(
                #"line 1: expect: expected an object from paths to values ({\"state.current_tier\": 1}), found integer 3"#))
    }
}

import Foundation
import Testing

/// A scenario's `expect` values that are matchers (`{"$approx": …}`, `{"$prefix": […]}`, …), run
/// through `rulesrun test` as a rule author runs it (docs/testing-rules.md, "Matchers").
@Suite(.serialized) struct ScenarioMatcherTests {
    /// Two NO check-ins with the default rules: line 4's reminders are ["15:30", "21:00"], line 5's
    /// tier is 2. `EXPECT4` and `EXPECT5` are replaced by each case's `expect`.
    static let scenario = """
        {"at": "2026-03-02T07:00:00+01:00", "type": "settings", "timezone": "Europe/Paris"}
        {"at": "2026-03-02T08:15:00+01:00", "type": "commitment", "text": "Write"}
        {"at": "2026-03-02T18:40:00+01:00", "type": "check_in", "result": "NO"}
        {"at": "2026-03-03T08:00:00+01:00", "type": "commitment", "text": "Write", "expect": EXPECT4}
        {"at": "2026-03-03T19:00:00+01:00", "type": "check_in", "result": "NO", "expect": EXPECT5}
        """

    /// The folder extending the default rules that every case runs, its scenario written by each
    /// (the suite is serialized): its rules are proved once in the test process, not once per case.
    static let folder = Result { try TestCommandTests.variant([:]) }

    /// `rulesrun test` of a folder extending the default rules whose one scenario has these `expect`s.
    static func run(line4: String = "{}", line5: String = "{}") throws -> CLI.Result {
        func oneLine(_ s: String) -> String { s.replacingOccurrences(of: "\n", with: " ") }
        let text = scenario.replacingOccurrences(of: "EXPECT4", with: oneLine(line4)).replacingOccurrences(
            of: "EXPECT5", with: oneLine(line5))
        let dir = try folder.get()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("tests"), withIntermediateDirectories: true)
        try text.write(to: dir.appendingPathComponent("tests/m.jsonl"), atomically: true, encoding: .utf8)
        return try CLI.run(["test", dir.path, "--no-inherit"])
    }

    @Test func everyMatcherPassesOnWhatItDescribes() throws {
        let result = try Self.run(
            line4: """
                {"state.today.reminders": {"$prefix": ["15:30"], "$length": 2}, "state.today.reminders[2]": {"$equals": "21:00"},
                 "error": {"$absent": true}, "state": {"$absent": false}}
                """,
            line5: """
                {"state.current_tier": {"$approx": 2.0000004}, "state.consecutive_misses": {"$approx": 2.1, "$tolerance": 0.2},
                 "decisions.days[1]": {"tier_after": {"$above": 1, "$below": 3}, "no_such_field": {"$absent": true}, "tier_before": 1,
                 "day": {"$absent": false}, "result": "NO", "reason": "check_in", "current_streak": {"$below": 1},
                 "reminders_cancelled": {"$prefix": [], "$length": 1}}}
                """)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("1 passed, 0 failed\n"), "\(result.stdout)")
    }

    @Test(arguments: [
        (#"{"state.current_tier": {"$approx": 2.1}}"#, #"state.current_tier: expected {"$approx":2.1}, found 2"#),
        (
            #"{"state.current_tier": {"$approx": 2.5, "$tolerance": 0.4}}"#,
            #"state.current_tier: expected {"$approx":2.5,"$tolerance":0.4}, found 2"#
        ),
        (#"{"state.current_tier": {"$above": 2}}"#, #"state.current_tier: expected {"$above":2}, found 2"#),
        (#"{"state.current_tier": {"$below": 2}}"#, #"state.current_tier: expected {"$below":2}, found 2"#),
        (#"{"state.current_tier": {"$above": 1, "$below": 2}}"#, #"state.current_tier: expected {"$above":1,"$below":2}, found 2"#),
        (#"{"state.current_tier": {"$length": 2}}"#, #"state.current_tier: expected {"$length":2}, found 2"#),
        (#"{"state.current_tier": {"$absent": true}}"#, #"state.current_tier: expected {"$absent":true}, found 2"#),
        (#"{"state.no_such": {"$absent": false}}"#, #"state.no_such: expected {"$absent":false}, found nothing (no such field)"#),
        (#"{"state.current_tier": {"$equals": 3}}"#, #"state.current_tier: expected {"$equals":3}, found 2"#),
    ]) func eachMatcherFailsOnAnotherValue(expect: String, failure: String) throws {
        let result = try Self.run(line5: expect)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("    tests/m.jsonl:5: \(failure)\n"), "\(result.stdout)")
    }

    @Test(arguments: [
        (#"{"state.today.reminders": {"$prefix": ["15:30", "20:00"]}}"#, #"expected {"$prefix":["15:30","20:00"]}"#),
        (#"{"state.today.reminders": {"$prefix": ["15:30", "21:00", "21:30"]}}"#, #"expected {"$prefix":["15:30","21:00","21:30"]}"#),
        (#"{"state.today.reminders": {"$length": 3}}"#, #"expected {"$length":3}"#),
        (#"{"state.today.reminders": {"$prefix": ["15:30"], "$length": 3}}"#, #"expected {"$prefix":["15:30"],"$length":3}"#),
    ]) func listMatchersFailOnAnotherList(expect: String, failure: String) throws {
        let result = try Self.run(line4: expect)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(#"    tests/m.jsonl:4: state.today.reminders: \#(failure), found ["15:30","21:00"]"# + "\n"),
            "\(result.stdout)")
    }

    /// A matcher inside an expected object: the object's other members are still compared exactly,
    /// and a member expected absent must be missing.
    @Test func aMatcherInsideAnObject() throws {
        let wrong = try Self.run(line5: #"{"decisions.days[1]": {"tier_after": {"$above": 1}, "tier_before": {"$absent": true}}}"#)
        #expect(wrong.status == 1, "\(wrong.stdout)")
        #expect(
            wrong.stdout.contains(
                #"tests/m.jsonl:5: decisions.days[1]: expected {"tier_after":{"$above":1},"tier_before":{"$absent":true}}, found {"#))
    }

    @Test(arguments: [
        (
            #"{"state.current_tier": {"$aprox": 2}}"#,
            "expect: state.current_tier: unknown matcher '$aprox' (did you mean $approx?); the matchers are $approx, $tolerance, $above, $below, $prefix, $length, $absent, $equals"
        ),
        (
            #"{"state.current_tier": {"$approx": 2, "$tolerence": 0.1}}"#,
            "expect: state.current_tier: unknown matcher '$tolerence' (did you mean $tolerance?); the matchers are $approx, $tolerance, $above, $below, $prefix, $length, $absent, $equals"
        ),
        (
            #"{"state.current_tier": {"$tolerance": 0.1}}"#,
            #"expect: state.current_tier: $tolerance: goes with $approx ({"$approx": 0.5, "$tolerance": 1e-3})"#
        ),
        (#"{"state.current_tier": {"$approx": "2"}}"#, #"expect: state.current_tier: $approx: expected a number, found "2""#),
        (
            #"{"state.current_tier": {"$length": 1.5}}"#,
            "expect: state.current_tier: $length: expected a whole number ≥ 0 (of elements or members), found 1.5"
        ),
        (#"{"state.current_tier": {"$absent": true, "$above": 1}}"#, "expect: state.current_tier: $absent: stands alone in its matcher"),
        (
            #"{"state": {"current_tier": 2, "$above": 1}}"#,
            #"expect: state: '$above' is a matcher's name but the object has fields too (a matcher's keys all start with $; an object with such a key is written {"$equals": {…}})"#
        ),
        (
            #"{"state.x": [1, {"$prefx": [1]}]}"#,
            "expect: state.x[2]: unknown matcher '$prefx' (did you mean $prefix?); the matchers are $approx, $tolerance, $above, $below, $prefix, $length, $absent, $equals"
        ),
    ]) func anInvalidMatcherIsInvalidInput(expect: String, message: String) throws {
        let result = try Self.run(line5: expect)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("ERROR tests/m.jsonl:5 "), "\(result.stdout)")
        #expect(result.stdout.contains("    tests/m.jsonl:5: \(message)\n"), "\(result.stdout)")
    }
}

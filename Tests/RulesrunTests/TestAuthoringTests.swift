import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What a rule author expects of `rulesrun test` (Jest, pytest, `opa test`): inherited tests skipped
/// or expected to fail by name, knobs changed inside a test, table-driven tests, `--update`.
@Suite struct TestAuthoringTests {
    /// A rule folder of its own (the default rule files copied, no `extends`: no inherited tests)
    /// with `files` besides, and a folder extending it with `variant`.
    static func baseAndVariant(base: [String: String], variant: [String: String]) throws -> (base: URL, variant: URL) {
        var files = base
        for name in ["escalation.lua", "streaks.lua", "pricing.lua", "quests.lua", "modes.lua"] {
            files[name] = try String(contentsOfFile: CLI.packageRoot.appendingPathComponent("rules/\(name)").path, encoding: .utf8)
        }
        let baseDir = try CLI.folder(files)
        let variantDir = try CLI.folder(["extends": baseDir.path + "\n"].merging(variant) { $1 })
        return (baseDir, variantDir)
    }

    static let baseTests = """
        function test_cap_is_10()
          expect_eq(pricing.rollover_cap, 10)
        end

        function test_adds()
          expect_eq(1 + 1, 2)
        end

        function test_other()
          expect_eq(2, 2)
        end
        """

    static let settingsLine = #"{"at": "2026-03-02T07:00:00+01:00", "type": "settings", "timezone": "Europe/Paris"}"#

    static let cap20 = "local M = base\nM.rollover_cap = 20\nreturn M\n"

    static let marks = """
        skip("test_adds", "not about pricing")
        expect_failure("test_cap_is_10", "the cap is 20 here")
        expect_failure("test_other", "marked by mistake")
        skip("days", "no scenario here")

        function test_own()
          expect_eq(pricing.rollover_cap, 20)
        end
        """

    static func marked(_ marks: String = Self.marks) throws -> (base: URL, variant: URL) {
        try baseAndVariant(
            base: ["tests/base_test.lua": baseTests, "tests/days.jsonl": settingsLine + "\n"],
            variant: ["pricing.lua": cap20, "tests/marks_test.lua": marks])
    }

    @Test func inheritedTestsAreSkippedOrExpectedToFailByNameWithTheirReason() throws {
        let (base, variant) = try Self.marked()
        let result = try CLI.run(["test", variant.path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let label = base.lastPathComponent + "/tests/"
        func line(_ prefix: String) throws -> Int {
            try #require(lines.firstIndex { $0.hasPrefix(prefix) }, "\(prefix) in\n\(result.stdout)")
        }
        #expect(lines.contains { $0.hasPrefix("PASS  tests/marks_test.lua:6 test_own  (") })
        let skipped = try line("SKIP  \(label)base_test.lua:5 test_adds")
        #expect(lines[skipped] == "SKIP  \(label)base_test.lua:5 test_adds")
        #expect(lines[skipped + 1] == "    skipped by tests/marks_test.lua:1: not about pricing")
        let expected = try line("XFAIL \(label)base_test.lua:1 test_cap_is_10  (")
        #expect(lines[expected + 1] == "    expected to fail by tests/marks_test.lua:2: the cap is 20 here")
        #expect(lines[expected + 2] == "    \(label)base_test.lua:2: expect_eq: expected 10, found 20")
        let passing = try line("XPASS \(label)base_test.lua:9 test_other  (")
        #expect(
            lines[passing + 1]
                == "    expected to fail by tests/marks_test.lua:3: marked by mistake; it now passes: remove its expect_failure (tests/marks_test.lua:3)")
        #expect(lines.contains("SKIP  \(label)days.jsonl:1 days"))
        #expect(lines.last == "1 passed, 0 failed, 2 skipped, 1 expected failure, 1 unexpectedly passed")

        // Without the mistaken mark the run passes; --no-inherit runs the folder's own tests only.
        let (_, good) = try Self.marked(Self.marks.replacingOccurrences(of: "expect_failure(\"test_other\", \"marked by mistake\")\n", with: ""))
        let passed = try CLI.run(["test", good.path])
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        #expect(passed.stdout.hasSuffix("2 passed, 0 failed, 2 skipped, 1 expected failure\n"))
        let own = try CLI.run(["test", good.path, "--no-inherit"])
        #expect(own.status == 0)
        #expect(own.stdout.hasSuffix("1 passed, 0 failed\n"))
    }

    @Test func watchPrintsMarkedTestsAndCountsThemInItsCycle() throws {
        let (_, variant) = try Self.marked()
        let result = try CLI.run(["watch", variant.path, "--once"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("    skipped by tests/marks_test.lua:1: not about pricing\n"))
        #expect(result.stdout.contains("tests: 1 passed, 0 failed, 2 skipped, 1 expected failure, 1 unexpectedly passed\n"))
        #expect(result.stdout.contains("cycle 1: good, with failing tests, "))
        let (_, good) = try Self.marked(Self.marks.replacingOccurrences(of: "expect_failure(\"test_other\", \"marked by mistake\")\n", with: ""))
        let passed = try CLI.run(["watch", good.path, "--once"])
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        #expect(passed.stdout.contains("tests: 2 passed, 0 failed, 2 skipped, 1 expected failure\n"))
    }

    @Test func aMarkNamingNoInheritedTestIsAnErrorWithTheClosestName() throws {
        let (_, variant) = try Self.marked("function test_own() end\n\nskip(\"test_cap_is_1O\", \"typo\")\n")
        let result = try CLI.run(["test", variant.path])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let error = try #require(lines.firstIndex(of: "ERROR tests/marks_test.lua:3 (skip)"), "\(result.stdout)")
        #expect(
            lines[error + 1]
                == "    tests/marks_test.lua:3: skip: no test of the folders this one extends is named 'test_cap_is_1O'; the closest is 'test_cap_is_10'")
        // Inside a test, or without a reason, the helper says what it expects.
        let (_, inside) = try Self.marked("function test_own() skip(\"test_adds\", \"x\") end\nskip(\"test_other\")\n")
        let wrong = try CLI.run(["test", inside.path, "--no-inherit"])
        #expect(wrong.status == 2)
        #expect(wrong.stdout.contains("tests/marks_test.lua:2: skip: test_other: expected the reason (a string, printed with the test), found nil"))
    }

    @Test func markedOutcomesInJSONAndJUnit() throws {
        let (_, variant) = try Self.marked()
        let json = try CLI.run(["test", variant.path, "--format", "json"])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["passed"] as? Int == 1)
        #expect(object["skipped"] as? Int == 2)
        #expect(object["expected_failures"] as? Int == 1)
        #expect(object["unexpected_passes"] as? Int == 1)
        let tests = try #require(object["tests"] as? [[String: Any]])
        let adds = try #require(tests.first { $0["name"] as? String == "test_adds" })
        #expect(adds["outcome"] as? String == "skip")
        #expect(adds["reason"] as? String == "not about pricing")
        #expect(adds["marked_at"] as? String == "tests/marks_test.lua:1")
        #expect(tests.first { $0["name"] as? String == "test_cap_is_10" }?["outcome"] as? String == "xfail")
        #expect(tests.first { $0["name"] as? String == "test_other" }?["outcome"] as? String == "xpass")

        let junit = try CLI.run(["test", variant.path, "--format", "junit"])
        #expect(junit.status == 1)
        _ = try XMLDocument(data: Data(junit.stdout.utf8))
        #expect(junit.stdout.contains("failures=\"1\" errors=\"0\" skipped=\"3\""))
        #expect(junit.stdout.contains("<skipped message=\"skipped by tests/marks_test.lua:1: not about pricing\"/>"))
        #expect(junit.stdout.contains("<skipped message=\"expected to fail by tests/marks_test.lua:2: the cap is 20 here\">"))
        #expect(junit.stdout.contains("<failure message=\"expected to fail by tests/marks_test.lua:3: marked by mistake; it now passes"))
    }

    static let knobTests = """
        function test_knobs()
          expect_eq(pricing.carried_credits(30), 10)
          with_knobs({ ["pricing.rollover_cap"] = 3 }, function()
            expect_eq(pricing.rollover_cap, 3)
            expect_eq(pricing.carried_credits(30), 3)
          end)
          expect_eq(pricing.rollover_cap, 10)
          expect_eq(pricing.carried_credits(30), 10)
        end

        function test_raises_inside()
          with_knobs({ ["pricing.rollover_cap"] = 3 }, function() error("boom") end)
        end

        function test_no_leak_after_an_error()
          expect_eq(pricing.rollover_cap, 10)
          expect_eq(pricing.carried_credits(30), 10)
        end

        function test_budget_inside()
          with_knobs({ ["pricing.rollover_cap"] = 4 }, function() while true do end end)
        end

        function test_no_leak_after_the_budget()
          expect_eq(pricing.carried_credits(30), 10)
        end

        function test_unknown_knob()
          with_knobs({ ["pricing.rolover_cap"] = 3 }, function() end)
        end

        function test_invalid_value()
          with_knobs({ ["pricing.rollover_cap"] = -1 }, function() end)
        end

        function test_wrong_type()
          with_knobs({ ["pricing.rollover_cap"] = "3" }, function() end)
        end
        """

    @Test func knobsChangedInsideATestAreValidatedAndDoNotLeak() throws {
        let dir = try TestCommandTests.variant(["tests/knobs_test.lua": Self.knobTests])
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--no-explain"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func after(_ prefix: String) throws -> String {
            let index = try #require(lines.firstIndex { $0.hasPrefix(prefix) }, "\(prefix) in\n\(result.stdout)")
            return index + 1 < lines.count ? lines[index + 1] : ""
        }
        #expect(lines.contains { $0.hasPrefix("PASS  tests/knobs_test.lua:1 test_knobs  (") })
        #expect(try after("FAIL  tests/knobs_test.lua:11 test_raises_inside") == "    tests/knobs_test.lua:12: boom")
        #expect(lines.contains { $0.hasPrefix("PASS  tests/knobs_test.lua:15 test_no_leak_after_an_error  (") })
        #expect(try after("FAIL  tests/knobs_test.lua:20 test_budget_inside").contains("instruction budget exceeded"))
        #expect(lines.contains { $0.hasPrefix("PASS  tests/knobs_test.lua:24 test_no_leak_after_the_budget  (") })
        #expect(
            try after("FAIL  tests/knobs_test.lua:28 test_unknown_knob")
                == "    tests/knobs_test.lua:29: with_knobs: pricing.rolover_cap does not exist; did you mean 'rollover_cap'?")
        let invalid = try after("FAIL  tests/knobs_test.lua:32 test_invalid_value")
        #expect(invalid.hasPrefix("    tests/knobs_test.lua:33: with_knobs: the rule set does not validate with pricing.rollover_cap = -1: "))
        #expect(invalid.contains("rollover_cap"))
        #expect(try after("FAIL  tests/knobs_test.lua:36 test_wrong_type").hasPrefix("    tests/knobs_test.lua:37: with_knobs: pricing.rollover_cap is a"))
        #expect(lines.last == "3 passed, 5 failed")
    }

    @Test func aFailedTestInsideWithKnobsShowsTheCallsWithTheKnobsItRead() throws {
        let dir = try TestCommandTests.variant([
            "tests/knobs_test.lua": """
            function test_cap()
              with_knobs({ ["pricing.rollover_cap"] = 3 }, function()
                expect_eq(pricing.carried_credits(30), 4)
              end)
            end
            """
        ])
        let result = try CLI.run(["test", dir.path, "--no-inherit"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("    tests/knobs_test.lua:3: expect_eq: expected 4, found 3\n"))
        #expect(result.stdout.contains("      pricing.carried_credits ("))
        #expect(result.stdout.contains("knobs: pricing.rollover_cap = 3"))
    }

    static let tableTests = """
        table_test("carried by balance", {
          { name = "below", balance = 3, want = 3 },
          { name = "at the cap", balance = 10, want = 10 },
          { name = "wrong", balance = 30, want = 11 },
          { balance = 0, want = 0 },
        }, function(c)
          expect_eq(pricing.carried_credits(c.balance), c.want)
        end)

        function test_after()
          expect_true(true)
        end
        """

    @Test func eachCaseOfATableTestIsATestOfItsOwn() throws {
        let dir = try TestCommandTests.variant(["tests/table_test.lua": Self.tableTests])
        let result = try CLI.run(["test", dir.path, "--no-inherit"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("PASS  tests/table_test.lua:1 carried by balance[below]  (") })
        #expect(lines.contains { $0.hasPrefix("PASS  tests/table_test.lua:1 carried by balance[at the cap]  (") })
        #expect(lines.contains { $0.hasPrefix("PASS  tests/table_test.lua:1 carried by balance[4]  (") })
        let wrong = try #require(lines.firstIndex { $0.hasPrefix("FAIL  tests/table_test.lua:1 carried by balance[wrong]  (") })
        #expect(lines[wrong + 1] == "    tests/table_test.lua:7: expect_eq: expected 11, found 10")
        #expect(lines[wrong + 2] == "    rule calls of the test:")
        #expect(lines.contains { $0.hasPrefix("PASS  tests/table_test.lua:10 test_after  (") })
        #expect(lines.last == "4 passed, 1 failed")

        let one = try CLI.run(["test", dir.path, "--no-inherit", "--run", "below"])
        #expect(one.status == 0)
        #expect(one.stdout.hasSuffix("1 passed, 0 failed\n"))

        let json = try CLI.run(["test", dir.path, "--no-inherit", "--format", "json", "--run", "carried"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let names = (object["tests"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names == ["carried by balance[below]", "carried by balance[at the cap]", "carried by balance[wrong]", "carried by balance[4]"])
        let junit = try CLI.run(["test", dir.path, "--no-inherit", "--format", "junit", "--run", "carried"])
        #expect(junit.stdout.contains("<testcase classname=\"tests/table_test.lua\" name=\"carried by balance[wrong]\" file=\"tests/table_test.lua\" line=\"1\""))

        // A case name given twice is an error of the file, at the call's line.
        let twice = try TestCommandTests.variant([
            "tests/table_test.lua": "table_test(\"t\", { { name = \"a\" }, { name = \"a\" } }, function(c) end)\n"
        ])
        let error = try CLI.run(["test", twice.path, "--no-inherit"])
        #expect(error.status == 2)
        #expect(error.stdout.contains("tests/table_test.lua:1: table_test: t: cases 1 and 2 are both named 'a': give each case its own name"))
    }

    static let scenario = """
        # days
        \(settingsLine)
        {"at": "2026-03-02T08:15:00+01:00", "type": "commitment", "text": "Write",   "expect": {"state.today.status": "DONE", "state.today.reminders": ["15:30"]}}
        {"at": "2026-03-02T18:40:00+01:00", "type": "check_in", "result": "NO", "expect": {"state.consecutive_misses": 5, "state.current_streak": {"$above": 3}}}

        """

    @Test func updateWritesTheFoundValuesIntoExpectAndShowsTheDiff() throws {
        let (base, variant) = try Self.baseAndVariant(base: ["tests/days.jsonl": Self.scenario], variant: ["tests/own_test.lua": "function test_x() end\n"])
        let file = base.appendingPathComponent("tests/days.jsonl")
        // An inherited scenario is not written.
        let refused = try CLI.run(["test", variant.path, "--update", "--no-explain"])
        #expect(refused.stderr.contains("tests/days.jsonl: not updated: it is inherited from "), "\(refused.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == Self.scenario)

        let first = try CLI.run(["test", base.path, "--update", "--no-explain"])
        #expect(first.status == 1, "\(first.stdout)\(first.stderr)")  // the matcher still fails
        #expect(first.stdout.hasPrefix("""
            updated tests/days.jsonl:3: state.today.status: "DONE" → "PENDING"
            updated tests/days.jsonl:4: state.consecutive_misses: 5 → 1
            --update: 2 expected values updated in 1 file

            """))
        #expect(first.stderr.contains(#"tests/days.jsonl:4: state.current_streak: not updated: {"$above":3} is a matcher (write it by hand); found 0"#))
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(
            written
                == Self.scenario.replacingOccurrences(of: #""DONE""#, with: #""PENDING""#).replacingOccurrences(
                    of: #""state.consecutive_misses": 5"#, with: #""state.consecutive_misses": 1"#))
        #expect(first.stdout.contains("FAIL  tests/days.jsonl:4 days"))

        let second = try CLI.run(["test", base.path, "--update", "--no-explain"])
        #expect(second.stdout.hasPrefix("--update: no expected value changed\n"))
        #expect(try String(contentsOf: file, encoding: .utf8) == written)
    }
}

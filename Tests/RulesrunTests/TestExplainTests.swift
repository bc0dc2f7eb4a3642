import Foundation
import Testing

/// `rulesrun test`: a failed unit test or scenario shows the rule calls it made, as
/// `replay --explain text` shows them (a second run of the failed test on a host that explains).
@Suite struct TestExplainTests {
    static let unit = """
        local function state(tier, misses, successes)
          return { current_tier = tier, consecutive_misses = misses, consecutive_successes = successes }
        end

        function test_passes()
          expect_eq(escalation.transition(state(0, 0, 0), { result = "NO" }), state(1, 1, 0))
        end

        function test_one_yes_leaves_tier_2()
          expect_eq(escalation.transition(state(2, 2, 0), { result = "YES" }), state(0, 0, 0))
        end

        function test_twelve_misses()
          local s = state(0, 0, 0)
          for _ = 1, 12 do s = escalation.transition(s, { result = "NO" }) end
          expect_eq(s.current_tier, 2)
        end

        function test_rule_error()
          streaks.pressure.next({ current_streak = 0, longest_streak = 0 }, nil)
        end

        function test_forever()
          local s = state(0, 0, 0)
          while true do s = escalation.transition(s, { result = "YES" }) end
        end
        """

    static func lines(_ text: String) -> [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    @Test func aFailingExpectShowsTheRuleCallItRejected() throws {
        let dir = try TestCommandTests.variant(["tests/unit_test.lua": Self.unit])
        let result = try CLI.run(["test", dir.path, "--no-inherit"])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = Self.lines(result.stdout)
        let failed = try #require(lines.firstIndex { $0.hasPrefix("FAIL  tests/unit_test.lua:9 test_one_yes_leaves_tier_2  (") })
        #expect(lines[failed + 1] == "    tests/unit_test.lua:10: expect_eq: consecutive_successes: expected 0, found 1")
        #expect(lines[failed + 2] == "    rule calls of the test:")
        #expect(lines[failed + 3].hasPrefix("      escalation.transition (") && lines[failed + 3].hasSuffix("escalation.lua:65)"))
        #expect(
            lines[failed + 4]
                == "        arguments: {\"consecutive_misses\":2,\"consecutive_successes\":0,\"current_tier\":2}, {\"result\":\"YES\"}")
        #expect(lines[failed + 5] == "        returned: {\"consecutive_misses\":0,\"consecutive_successes\":1,\"current_tier\":2}")
        #expect(lines[failed + 6] == "        knobs: escalation.recover_after[2] = 2")
        #expect(lines[failed + 7].hasPrefix("        lines: 66-"))
        // The passing test shows nothing under it.
        let passed = try #require(lines.firstIndex { $0.hasPrefix("PASS  tests/unit_test.lua:5 test_passes  (") })
        #expect(!lines[passed + 1].hasPrefix(" "))
        // Only the last calls, the earlier ones counted.
        let many = try #require(lines.firstIndex { $0.hasPrefix("FAIL  tests/unit_test.lua:13 test_twelve_misses  (") })
        #expect(lines[many + 2] == "    the last 10 rule calls of the test, of 12:")
        #expect(lines[many + 3] == "      … 2 earlier calls")
        #expect(
            lines[many + 5]
                == "        arguments: {\"consecutive_misses\":2,\"consecutive_successes\":0,\"current_tier\":2}, {\"result\":\"NO\"}")
        // A rule that raises: the call with its error.
        let raised = try #require(lines.firstIndex { $0.hasPrefix("FAIL  tests/unit_test.lua:19 test_rule_error  (") })
        #expect(lines[raised + 3] == "    rule calls of the test:")
        #expect(lines[raised + 4].hasPrefix("      streaks.pressure.next ("))
        #expect(lines[raised + 5] == "        arguments: {\"current_streak\":0,\"longest_streak\":0}, null")
        #expect(lines[raised + 6].hasPrefix("        error: ") && lines[raised + 6].hasSuffix("attempt to index a nil value (local 'day')"))
        // A test that never ends runs out of its budget in the second run too (each call's
        // instructions are charged to it).
        #expect(lines.contains { $0.hasPrefix("FAIL  tests/unit_test.lua:23 test_forever  (") })
        #expect(lines.last { !$0.isEmpty } == "1 passed, 4 failed")

        let quiet = try CLI.run(["test", dir.path, "--no-inherit", "--no-explain"])
        #expect(quiet.status == 1)
        #expect(!quiet.stdout.contains("rule calls"))
        #expect(!quiet.stdout.contains("escalation.transition ("))
    }

    @Test func aFailingScenarioShowsTheCallsOfItsFailingLine() throws {
        let dir = try TestCommandTests.variant(["tests/two-misses.jsonl": TestCommandTests.scenario])
        let result = try CLI.run(["test", dir.path, "--no-inherit"])
        #expect(result.status == 1)
        let lines = Self.lines(result.stdout)
        let failed = try #require(lines.firstIndex { $0.hasPrefix("FAIL  tests/two-misses.jsonl:6 two-misses  (") })
        #expect(lines[failed + 1] == "    tests/two-misses.jsonl:6: state.current_tier: expected 3, found 2")
        #expect(lines[failed + 2] == "    rule calls of line 6:")
        #expect(lines[failed + 3].hasPrefix("      escalation.transition ("))
        #expect(
            lines[failed + 4]
                == "        arguments: {\"consecutive_misses\":1,\"consecutive_successes\":0,\"current_tier\":1}, {\"result\":\"NO\"}")
        #expect(lines[failed + 5] == "        returned: {\"consecutive_misses\":2,\"consecutive_successes\":0,\"current_tier\":2}")
        // Only that line's calls: none of the commitments' before it.
        #expect(!lines[(failed + 2)...].contains { $0.contains("reminder_times") })
    }

    @Test func jsonAndJUnitCarryTheCalls() throws {
        let dir = try TestCommandTests.variant([
            "tests/unit_test.lua": Self.unit, "tests/two-misses.jsonl": TestCommandTests.scenario,
        ])
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--format", "json", "--run", "^(test_passes|test_one|test_twelve|two)"])
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let tests = try #require(object["tests"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: tests.map { ($0["name"] as? String ?? "", $0) })
        #expect(byName["test_passes"]?["explain"] == nil)
        let explain = try #require(byName["test_one_yes_leaves_tier_2"]?["explain"] as? [[String: Any]])
        #expect(explain.count == 1)
        #expect(explain[0]["function"] as? String == "escalation.transition")
        #expect((explain[0]["returned"] as? [[String: Int]]) == [["consecutive_misses": 0, "consecutive_successes": 1, "current_tier": 2]])
        let knobs = try #require(explain[0]["knobs"] as? [[String: Any]])
        #expect(knobs.first?["name"] as? String == "escalation.recover_after[2]")
        #expect(knobs.first?["value"] as? Int == 2)
        #expect((explain[0]["lines"] as? [Int])?.first == 66)
        #expect(byName["test_twelve_misses"]?["explain_earlier_calls"] as? Int == 2)
        #expect((byName["test_twelve_misses"]?["explain"] as? [Any])?.count == 10)
        #expect((byName["two-misses"]?["explain"] as? [[String: Any]])?.first?["function"] as? String == "escalation.transition")

        let junit = try CLI.run(["test", dir.path, "--no-inherit", "--format", "junit", "--run", "^test_one"])
        #expect(junit.status == 1)
        #expect(junit.stdout.contains("found 1\nrule calls of the test:\n  escalation.transition ("))
    }

    /// A rule's notes show under its call in a failing test (text and json); a passing test, which
    /// is not explained, is not slowed by them.
    @Test func aFailingTestShowsTheNotesOfItsCalls() throws {
        let dir = try TestCommandTests.variant([
            "pricing.lua": ReplayExplainWhyTests.surcharge,
            "tests/price_test.lua": """
            function test_night_price()
              expect_eq(pricing.price(records.price_context { minutes = 5, hour = 23 }), 10)
            end

            function test_day_price()
              expect_eq(pricing.price(records.price_context { minutes = 5, hour = 8 }), 10)
            end
            """,
        ])
        let result = try CLI.run(["test", dir.path, "--no-inherit"])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = Self.lines(result.stdout)
        let failed = try #require(lines.firstIndex { $0.hasPrefix("FAIL  tests/price_test.lua:1 test_night_price  (") }, "\(result.stdout)")
        let calls = lines[failed...].prefix { !$0.hasPrefix("PASS") }
        #expect(calls.contains("      pricing.price (pricing.lua:5)"), "\(calls)")
        #expect(calls.contains("        returned: 15"))
        #expect(calls.contains("        note: night surcharge 50 %"))
        let json = try CLI.run(["test", dir.path, "--no-inherit", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let night = try #require((object["tests"] as? [[String: Any]])?.first { $0["name"] as? String == "test_night_price" })
        #expect((night["explain"] as? [[String: Any]])?.first?["notes"] as? [String] == ["night surcharge 50 %"])
    }
}

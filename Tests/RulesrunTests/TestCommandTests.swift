import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `rulesrun test`: Lua unit tests and scenario files, run as a rule author runs them.
@Suite struct TestCommandTests {
    static let rules = CLI.packageRoot.appendingPathComponent("rules").path

    /// A rule folder extending the default rules (only `files` of its own), with the given tests.
    static func variant(_ files: [String: String]) throws -> URL {
        try CLI.folder(["extends": rules + "\n"].merging(files) { $1 })
    }

    static let failingUnit = """
        function test_adds()
          expect_eq(1 + 1, 2)
        end

        function test_tables()
          print("checking", 2)
          expect_eq({ current = 1, best = { 2, 3 } }, { current = 1, best = { 2, 4 } }, "streak")
        end

        function test_rule_error()
          streaks.pressure.next({ current_streak = 0, longest_streak = 0 }, nil)
        end
        """

    /// With 20 cases per property (the 100 of their default run, 8 s of CPU, run when
    /// `BundleCommandTests` bundles the default rules, which passes only if they pass).
    @Test func theDefaultRulesPassTheirOwnTests() throws {
        let result = try CLI.run(["test", "--cases", "20"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("PASS  tests/escalation_test.lua:10 test_misses_escalate_one_tier_each  ("))
        #expect(result.stdout.contains("PASS  tests/escalation-days.jsonl:1 escalation-days  ("))
        #expect(result.stdout.hasSuffix("39 passed, 0 failed\n"))
    }

    @Test func aFailingExpectNamesItsLineAndTheFirstDifference() throws {
        let dir = try Self.variant(["tests/unit_test.lua": Self.failingUnit])
        let result = try CLI.run(["test", dir.path, "--no-inherit"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let tables = try #require(lines.firstIndex { $0.hasPrefix("FAIL  tests/unit_test.lua:5 test_tables  (") })
        #expect(lines[tables + 1] == "    tests/unit_test.lua:7: expect_eq: streak: best[2]: expected 4, found 3")
        #expect(lines[tables + 2] == "    print: checking\t2")
        #expect(lines.contains { $0.hasPrefix("PASS  tests/unit_test.lua:1 test_adds  (") })
        // A rule that fails: its own line, and where the test called it.
        let ruleError = try #require(lines.firstIndex { $0.hasPrefix("FAIL  tests/unit_test.lua:10 test_rule_error") })
        #expect(lines[ruleError + 1].hasPrefix("    rules/streaks.lua:"))  // inherited, named as validate names it
        #expect(lines[ruleError + 1].contains("attempt to index a nil value (local 'day')"))
        #expect(lines[ruleError + 2] == "    (called from tests/unit_test.lua:11)")
        #expect(lines.last { !$0.isEmpty } == "1 passed, 2 failed")
    }

    @Test func expectErrorAndExpectTrue() throws {
        let dir = try Self.variant([
            "tests/helpers_test.lua": """
            function test_raises()
              expect_error(function() pricing.price({ minutes = 7 }) end, "no unlock of 7 minutes")
            end

            function test_does_not_raise()
              expect_error(function() return pricing.carried_credits(3) end, "anything")
            end

            function test_true()
              expect_true(pricing.carried_credits(30) == 10)
              expect_true(pricing.carried_credits(3) == 10, "carried")
            end
            """
        ])
        let result = try CLI.run(["test", dir.path, "--no-inherit"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("PASS  tests/helpers_test.lua:1 test_raises"))
        #expect(result.stdout.contains("    tests/helpers_test.lua:6: expect_error: the function raised no error\n"))
        #expect(result.stdout.contains("    tests/helpers_test.lua:11: expect_true: carried: expected a true value, found false\n"))
    }

    /// The modules and the helpers are the host's: a test cannot change what the next one sees.
    @Test func theModulesAndHelpersAreReadOnly() throws {
        let dir = try Self.variant([
            "tests/w_test.lua": """
            function test_knob()
              pricing.rollover_cap = 3
            end

            function test_helper()
              expect_eq = nil
            end

            function test_after()
              expect_eq(pricing.rollover_cap, 10)
            end
            """
        ])
        let result = try CLI.run(["test", dir.path, "--no-inherit"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("    tests/w_test.lua:2: cannot set 'rollover_cap': the rule module 'pricing' is read-only\n"))
        #expect(result.stdout.contains("    tests/w_test.lua:6: cannot assign global 'expect_eq': it is provided by the host and read-only\n"))
        #expect(result.stdout.contains("PASS  tests/w_test.lua:9 test_after"))
    }

    static let scenario = """
        # Two NO check-ins: tier 2.
        {"at": "2026-03-02T07:00:00+01:00", "type": "settings", "timezone": "Europe/Paris"}
        {"at": "2026-03-02T08:15:00+01:00", "type": "commitment", "text": "Write"}
        {"at": "2026-03-02T18:40:00+01:00", "type": "check_in", "result": "NO", "expect": {"decisions.days[1].tier_after": 1}}
        {"at": "2026-03-03T08:00:00+01:00", "type": "commitment", "text": "Write", "expect": {"state.today.reminders": ["15:30", "21:00"]}}
        {"at": "2026-03-03T19:00:00+01:00", "type": "check_in", "result": "NO", "expect": {"state.current_tier": 3}}
        """

    @Test func aFailingScenarioNamesItsLinePathExpectedAndFound() throws {
        let dir = try Self.variant(["tests/two-misses.jsonl": Self.scenario])
        let result = try CLI.run(["test", dir.path, "--no-inherit"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL  tests/two-misses.jsonl:6 two-misses  ("))
        #expect(result.stdout.contains("    tests/two-misses.jsonl:6: state.current_tier: expected 3, found 2\n"))
        // Fixed, it passes: `expect` reached the engine as nothing (the event decoder refuses unknown keys).
        try Self.scenario.replacingOccurrences(of: "\"state.current_tier\": 3", with: "\"state.current_tier\": 2")
            .write(to: dir.appendingPathComponent("tests/two-misses.jsonl"), atomically: true, encoding: .utf8)
        let fixed = try CLI.run(["test", dir.path, "--no-inherit"])
        #expect(fixed.status == 0, "\(fixed.stdout)")
        #expect(fixed.stdout.contains("PASS  tests/two-misses.jsonl:1 two-misses  ("))
    }

    @Test func anUnexpectedRefusalFailsTheScenario() throws {
        let dir = try Self.variant([
            "tests/twice.jsonl": """
            {"at": "2026-03-02T08:15:00+01:00", "type": "commitment", "text": "Write"}
            {"at": "2026-03-02T18:40:00+01:00", "type": "check_in", "result": "YES"}
            {"at": "2026-03-02T18:50:00+01:00", "type": "check_in", "result": "NO"}
            """
        ])
        let result = try CLI.run(["test", dir.path, "--no-inherit"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("    tests/twice.jsonl:3: the event was refused (\"ALREADY_CHECKED_IN\": "))
    }

    @Test func runSelectsTestsByName() throws {
        let result = try CLI.run(["test", "--run", "^test_earned_(bonus|qualifies)$"])
        #expect(result.status == 0)
        let tests = result.stdout.split(separator: "\n").filter { $0.hasPrefix("PASS") || $0.hasPrefix("FAIL") }
        #expect(tests.count == 2)
        #expect(tests[0].contains("tests/streaks_test.lua:53 test_earned_qualifies"))
        #expect(tests[1].contains("test_earned_bonus"))
    }

    @Test func jsonHasEveryTest() throws {
        let dir = try Self.variant(["tests/unit_test.lua": Self.failingUnit])
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--format", "json"])
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["passed"] as? Int == 1)
        #expect(object["failed"] as? Int == 2)
        let tests = try #require(object["tests"] as? [[String: Any]])
        #expect(tests.map { $0["name"] as? String } == ["test_adds", "test_tables", "test_rule_error"])
        #expect(tests[1]["outcome"] as? String == "fail")
        #expect(tests[1]["line"] as? Int == 5)
        #expect(tests[1]["failure"] as? [String] == ["tests/unit_test.lua:7: expect_eq: streak: best[2]: expected 4, found 3"])
        #expect(tests[1]["printed"] as? [String] == ["checking\t2"])
    }

    @Test func junitIsWellFormedXML() throws {
        let dir = try Self.variant([
            "tests/unit_test.lua": Self.failingUnit + "\nfunction test_markup() expect_eq(\"<a & 'b'>\", \"\\27\") end\n",
            "tests/two-misses.jsonl": Self.scenario,
        ])
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--format", "junit"])
        #expect(result.status == 1)
        final class Counter: NSObject, XMLParserDelegate {
            var testcases = 0, failures = 0, suites: [String] = []
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                if name == "testcase" { testcases += 1 }
                if name == "failure" { failures += 1 }
                if name == "testsuite" { suites.append(attributes["name"] ?? "") }
            }
        }
        let counter = Counter()
        let parser = XMLParser(data: Data(result.stdout.utf8))
        parser.delegate = counter
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")\n\(result.stdout)")
        #expect(counter.testcases == 5)
        #expect(counter.failures == 4)
        #expect(counter.suites == ["tests/two-misses.jsonl", "tests/unit_test.lua"])
        #expect(result.stdout.contains("<testsuites name=\"\(dir.path)\" tests=\"5\" failures=\"4\" errors=\"0\""))
    }

    /// A variant that changes a knob runs the default's tests against itself: the one that
    /// expects the knob's value fails, and the output says it is inherited.
    @Test func anExtendingFolderRunsItsBasesTests() throws {
        let dir = try Self.variant([
            "escalation.lua": "local M = base\nM.recover_after = { 1, 3, 3 }\nreturn M\n",
            "tests/own_test.lua": "function test_tier_2_needs_3()\n  expect_eq(escalation.recover_after[2], 3)\nend\n",
        ])
        // In the package root: the base is named relative to the working folder.
        let result = try CLI.run(["test", dir.path, "--cases", "10"], in: CLI.packageRoot)  // (the default's properties: 10 cases each)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("# \(dir.path)\nPASS  tests/own_test.lua:1 test_tier_2_needs_3  ("))
        #expect(result.stdout.contains("\n# rules\n"))
        #expect(result.stdout.contains("FAIL  rules/tests/escalation_test.lua:23 test_recovery_goes_straight_to_tier_0  ("))
        #expect(result.stdout.contains("    rules/tests/escalation_test.lua:26: expect_eq: consecutive_successes: expected 0, found 2\n"))
        #expect(result.stdout.contains("FAIL  rules/tests/escalation-days.jsonl:13 escalation-days  ("))
        #expect(result.stdout.contains("    rules/tests/escalation-days.jsonl:13: state.current_tier: expected 0, found 2\n"))
        #expect(result.stdout.hasSuffix("38 passed, 2 failed\n"))
        let own = try CLI.run(["test", dir.path, "--no-inherit"])
        #expect(own.status == 0)
        #expect(own.stdout.hasSuffix("1 passed, 0 failed\n"))
    }

    @Test func invalidInputExitsTwo() throws {
        // A rule set that does not validate: its problems, as validate prints them, and no test run.
        let invalid = try Self.variant([
            "escalation.lua": "local M = base\nM.max_tier = 9\nreturn M\n", "tests/a_test.lua": "function test_a() end\n",
        ])
        let bad = try CLI.run(["test", invalid.path])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("escalation.lua:2: max_tier"))
        #expect(bad.stderr.contains("the rule set is not valid"))
        #expect(!bad.stdout.contains("PASS"))
        // A test file that does not load: ERROR, the others still run.
        let broken = try Self.variant(["tests/a_test.lua": "function test_a() end\n", "tests/b_test.lua": "function test_b(\n"])
        let load = try CLI.run(["test", broken.path, "--no-inherit"])
        #expect(load.status == 2)
        #expect(load.stdout.contains("PASS  tests/a_test.lua:1 test_a"))
        #expect(load.stdout.contains("ERROR tests/b_test.lua:2 (load)\n    tests/b_test.lua:2:"))
        #expect(load.stdout.hasSuffix("1 passed, 0 failed, 1 error\n"))
        // A bad pattern, and nothing to run.
        #expect(try CLI.run(["test", broken.path, "--run", "("]).status == 2)
        let none = try CLI.run(["test", "--run", "no_such_test"])
        #expect(none.status == 2)
        #expect(none.stderr == "no test matches --run 'no_such_test' in rules/tests\n")
        let empty = try Self.variant([:])
        let nothing = try CLI.run(["test", empty.path, "--no-inherit"])
        #expect(nothing.status == 2)
        #expect(nothing.stderr == "no tests found in \(empty.path)/tests (*.lua, *.jsonl)\n")
    }

    // MARK: Names chosen by the test files

    /// A test's name (or what it prints) with line feeds, a carriage return or an escape sequence
    /// cannot print a line of its own: not a `PASS` line, not a summary.
    @Test func testNamesAndPrintsCannotForgeTheReport() throws {
        let dir = try Self.variant([
            "tests/forge_test.lua": #"""
            _ENV["test_fake\nPASS  tests/fake.lua:1 test_all_good  (0.1 ms)\n99 passed, 0 failed"] = function() error("boom") end
            _ENV["test_cr\rPASS  tests/fake.lua:2 test_cr\27[2K"] = function() error("boom") end
            function test_prints() print("x\nPASS  tests/fake.lua:3 test_printed\n98 passed, 0 failed") end
            """#
        ])
        let result = try CLI.run(["test", dir.path, "--no-inherit"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // What the names and the print hold is on the test's own line, or indented under it.
        let unindented = lines.filter { !$0.hasPrefix(" ") }
        #expect(!unindented.contains { $0.contains("tests/fake.lua") && !$0.hasPrefix("FAIL  tests/forge_test.lua:") })
        #expect(unindented.filter { $0.first?.isNumber == true } == ["1 passed, 2 failed"], "\(result.stdout)")
        #expect(unindented.filter { $0.hasPrefix("PASS") }.count == 1)
        #expect(lines.contains { $0.hasPrefix("PASS  tests/forge_test.lua:3 test_prints  (") })
        #expect(
            lines.contains {
                $0.hasPrefix(#"FAIL  tests/forge_test.lua:1 test_fake\nPASS  tests/fake.lua:1 test_all_good  (0.1 ms)\n99 passed, 0 failed  ("#)
            }, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix(#"FAIL  tests/forge_test.lua:2 test_cr\rPASS  tests/fake.lua:2 test_cr\u{1B}[2K  ("#) })
        #expect(!UntrustedTextTests.hasControls(result.stdout))
    }

    /// A test whose name is not UTF-8 text, and a test file whose file name is not, cannot be
    /// shown or chosen by their names: each is an ERROR (exit 2), never left out silently.
    @Test func aTestOrFileWhoseNameIsNotUTF8IsReportedNotSkipped() throws {
        let dir = try Self.variant([
            "tests/names_test.lua": #"""
            _ENV["test_bad\xff"] = function() end
            _ENV["prop_bad\xfe"] = function() return false end
            function test_ok() end
            """#
        ])
        let name = Array(dir.appendingPathComponent("tests").path.utf8) + Array("/b".utf8) + [0xFF] + Array("_test.lua".utf8) + [0]
        let fd = name.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        #expect(fd >= 0)
        _ = "function test_in_b() end\n".withCString { write(fd, $0, strlen($0)) }
        close(fd)
        let result = try CLI.run(["test", dir.path, "--no-inherit"])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(#"ERROR tests/b\xFF_test.lua:1 (load)"#), "\(result.stdout)")
        #expect(result.stdout.contains(#"    tests/b\xFF_test.lua: the file's name is not UTF-8 text"#))
        #expect(result.stdout.contains(#"ERROR tests/names_test.lua:1 test_bad\xFF"#))
        #expect(result.stdout.contains(#"    tests/names_test.lua:1: the name test_bad\xFF is not UTF-8 text"#))
        #expect(result.stdout.contains(#"ERROR tests/names_test.lua:2 prop_bad\xFE"#))
        #expect(result.stdout.hasSuffix("1 passed, 0 failed, 3 errors\n"), "\(result.stdout)")
        let json = try CLI.run(["test", dir.path, "--no-inherit", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["errors"] as? Int == 3)
    }

    /// Names and output XML 1.0 cannot hold (C0 controls, NUL, U+FFFE, U+FFFF) or that are markup
    /// (`]]>`, quotes): the JUnit file stays readable by an XML parser, with every test in it.
    @Test func junitHoldsEveryNameAXMLParserCanRead() throws {
        let dir = try Self.variant([
            "tests/xml_test.lua": #"""
            _ENV["test_nonchar\u{FFFE}\u{FFFF}"] = function() error("bad \u{FFFF} \0 \27") end
            _ENV["test_nul\0esc\27[2J\r\n\t\x01"] = function() print("\u{FFFE}\0\1") end
            _ENV["test_markup]]><a b=\"c\" d='e'>&amp;"] = function() error("<x>\n]]>") end
            function test_plain() end
            """#
        ])
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--format", "junit"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        final class Names: NSObject, XMLParserDelegate {
            var testcases: [String] = []
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                if name == "testcase" { testcases.append(attributes["name"] ?? "?") }
            }
        }
        let names = Names()
        let parser = XMLParser(data: Data(result.stdout.utf8))
        parser.delegate = names
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")\n\(result.stdout)")
        #expect(
            names.testcases == [
                #"test_nonchar\u{FFFE}\u{FFFF}"#, #"test_nul\u{0}esc\u{1B}[2J\r\n\t\u{1}"#, #"test_markup]]><a b="c" d='e'>&amp;"#,
                "test_plain",
            ], "\(result.stdout)")
    }
}

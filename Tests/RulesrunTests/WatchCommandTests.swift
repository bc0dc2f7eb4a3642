import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import Testing

/// `rulesrun watch`: a real process on a copy of the default rules in a temporary folder, edited
/// as an editor would, its output read as it comes (each wait is for a line, with a timeout).
@Suite struct WatchCommandTests {
    /// Two days of Pressure: a NO (tier 1), then a YES, which leaves tier 1 after one YES by default.
    static let events = """
        {"at": "2026-03-02T07:00:00+01:00", "type": "settings", "timezone": "Europe/Paris"}
        {"at": "2026-03-02T08:00:00+01:00", "type": "commitment", "text": "Run 5 km"}
        {"at": "2026-03-02T20:00:00+01:00", "type": "check_in", "result": "NO"}
        {"at": "2026-03-03T08:00:00+01:00", "type": "commitment", "text": "Run 5 km"}
        {"at": "2026-03-03T20:00:00+01:00", "type": "check_in", "result": "YES"}

        """

    /// A test of the rule folder that the knob edited below makes fail.
    static let recoveryTest = """
        function test_one_yes_leaves_tier_1()
          local after = escalation.transition({ current_tier = 1, consecutive_misses = 1, consecutive_successes = 0 }, { result = "YES" })
          expect_eq(after.current_tier, 0)
        end

        """

    static let knob = (old: "M.recover_after = { 1, 2, 3 }", new: "M.recover_after = { 2, 2, 3 }")

    /// A property of the rule folder (`rulesrun test`'s), which a watch runs too.
    static let property = """
        cases = { prop_a_no_never_leaves_tier_0 = gen.int(0, 5) }
        function prop_a_no_never_leaves_tier_0(misses)
          local after = escalation.transition({ current_tier = 0, consecutive_misses = misses, consecutive_successes = 0 }, { result = "NO" })
          return after.current_tier >= 1
        end

        """

    /// A folder holding `rules/` (the default rule files, and `tests/` when given) and `events.jsonl`.
    static func fixture(tests: [String: String] = [:]) throws -> URL {
        var files = ["events.jsonl": events]
        for name in ["escalation.lua", "streaks.lua", "pricing.lua", "quests.lua", "modes.lua"] {
            files["rules/" + name] = try String(contentsOf: CLI.packageRoot.appendingPathComponent("rules/" + name), encoding: .utf8)
        }
        for (name, text) in tests { files["rules/tests/" + name] = text }
        return try CLI.folder(files)
    }

    /// Rewrites a file in place (open, truncate, write, close), as most editors save.
    static func save(_ text: String, to url: URL) throws {
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    @Test func aKnobEditShowsTheReplayLinesThatChangedTheFailingTestAndTheFiguresAndCtrlCEndsIt() throws {
        let dir = try Self.fixture(tests: ["recovery_test.lua": Self.recoveryTest])
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules")
        let watch = try WatchProcess([
            "watch", rules.path, "--replay", dir.appendingPathComponent("events.jsonl").path, "--simulate", "7d", "--users", "4",
            "--explain",
        ])
        let first = try watch.waitForLine(containing: "\ncycle 1: ")
        #expect(first.contains("cycle 1: \(rules.path) (first cycle)"))
        #expect(first.contains("\(rules.path): valid (escalation.lua, streaks.lua"))
        #expect(first.contains("tests: 1 passed, 0 failed"))
        #expect(first.contains("events.jsonl: 5 events (0 refused); the reference for the next cycles"))
        #expect(first.contains("simulate 7d, 4 users, seed 1 (the reference for the next cycles):"))
        #expect(first.contains("cycle 1: good, "))
        try watch.waitForLine(containing: "watching \(rules.path)")

        // Two files saved one after the other (a "save all"): one cycle, which names both.
        let escalation = rules.appendingPathComponent("escalation.lua"), streaks = rules.appendingPathComponent("streaks.lua")
        try Self.save(CLI.edit(try String(contentsOf: escalation, encoding: .utf8), [Self.knob]), to: escalation)
        try Self.save(try String(contentsOf: streaks, encoding: .utf8), to: streaks)
        let second = try watch.waitForLine(containing: "\ncycle 2: ")
        #expect(second.contains("cycle 2: \(escalation.path), \(streaks.path) changed\n"))
        #expect(second.contains("FAIL  tests/recovery_test.lua:1 test_one_yes_leaves_tier_1"))
        // The failed test explains itself as under `rulesrun test`: the call it made, with the knob edited.
        #expect(second.contains("    rule calls of the test:\n      escalation.transition (escalation.lua:"))
        #expect(second.contains("escalation.recover_after[1] = 2"))
        #expect(second.contains("tests: 0 passed, 1 failed"))
        // The YES of line 5 no longer leaves tier 1; lines 1 to 4 are as they were.
        #expect(second.contains("1 line differs from the last good version"))
        #expect(second.contains("  line 5: state.current_tier: 0 → 1"))
        #expect(!second.contains("  line 4:"))
        // --explain: the calls of line 5's check-in under the new rules, after its differences.
        let explained = try #require(
            second.range(of: "  line 5: state.consecutive_successes: 0 → 1\n  rule calls of line 5 under the new rules:\n"))
        #expect(second[explained.upperBound...].hasPrefix("    escalation.transition (escalation.lua:"))
        #expect(second.contains("simulate 7d, 4 users, seed 1 (changes since the last good version):"))
        #expect(second.contains("  YES rate                     54.2 %  (=)"))
        #expect(second.contains("  Pressure final streak p50    0  (-1)"))
        // The registry's labels, as compare and simulate --replicas print them.
        #expect(second.contains("  refused events ") && second.contains("  MIGA exits to focus "))
        #expect(second.contains("  user-days at tier 3 (count)  "))
        #expect(second.contains("cycle 2: good, with failing tests, "))
        try watch.waitForLine(containing: "watching")

        #expect(try watch.stop(SIGINT) == 0)
        #expect(watch.stdout.hasSuffix("watch: stopped by SIGINT after 2 cycles\n"))
    }

    @Test func aBadEditKeepsTheLastGoodVersionAndSaysWhyUntilAFixSavedThroughARename() throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules")
        let escalation = rules.appendingPathComponent("escalation.lua")
        let original = try String(contentsOf: escalation, encoding: .utf8)
        let watch = try WatchProcess(["watch", rules.path, "--no-tests", "--replay", dir.appendingPathComponent("events.jsonl").path])
        let first = try watch.waitForLine(containing: "\ncycle 1: ")
        #expect(first.contains("cycle 1: good, "))
        #expect(!first.contains("tests:"))
        try watch.waitForLine(containing: "watching")

        // A syntax error: the file's line and what the parser expected; version 1 stays.
        try Self.save(CLI.edit(original, [("M.max_tier = 3", "M.max_tier = = 3")]), to: escalation)
        let syntax = try watch.waitForLine(containing: "\ncycle 2: ")
        #expect(syntax.contains("escalation.lua:"))
        #expect(syntax.contains("unexpected symbol near '='"))
        #expect(syntax.contains("\(rules.path): 1 problem; the last good version (cycle 1, "))
        #expect(syntax.contains(") stays in force"))
        #expect(syntax.contains("cycle 2: rejected, "))
        #expect(!syntax.contains("replay "))
        try watch.waitForLine(containing: "watching")

        // A hard constraint broken: tier 2 plans 3 reminders a day.
        try Self.save(CLI.edit(original, [("M.max_reminders_per_day = 3", "M.max_reminders_per_day = 2")]), to: escalation)
        let constraint = try watch.waitForLine(containing: "\ncycle 3: ")
        #expect(constraint.contains("escalation.lua:34: reminders[2]: has 3 reminders, more than the 2 allowed a day"))
        #expect(constraint.contains("escalation.lua:35: reminders[3]: has 3 reminders, more than the 2 allowed a day"))
        #expect(constraint.contains("\(rules.path): 2 problems; the last good version (cycle 1, "))
        #expect(constraint.contains("cycle 3: rejected, "))
        try watch.waitForLine(containing: "watching")

        // The fix, written to a temporary file renamed over the rule file (as `sed -i` and vim do):
        // one cycle, for the rule file only; its replay is compared with version 1's.
        let temporary = rules.appendingPathComponent("sedX1b2Q9")
        try Self.save(CLI.edit(original, [Self.knob]), to: temporary)
        #expect(rename(temporary.path, escalation.path) == 0)
        let fixed = try watch.waitForLine(containing: "\ncycle 4: ")
        #expect(fixed.contains("cycle 4: \(escalation.path) changed\n"))
        #expect(fixed.contains("\(rules.path): valid ("))
        #expect(fixed.contains("  line 5: state.current_tier: 0 → 1"))
        #expect(fixed.contains("cycle 4: good, "))
        try watch.waitForLine(containing: "watching")

        #expect(try watch.stop(SIGTERM) == 0)
        #expect(watch.stdout.hasSuffix("watch: stopped by SIGTERM after 4 cycles\n"))
    }

    /// A history property (replayed through the engine) whose verdict depends on the knob edited below.
    static let historyProperty = """
        cases = { prop_one_yes_recovers_from_tier_1 = gen.history("pressure", { days = 7 }) }
        function prop_one_yes_recovers_from_tier_1(history)
          local tier = 0
          for i, step in ipairs(history) do
            if step.ok then
              if step.event.type == "check_in" and step.event.result == "YES" and tier == 1 then
                expect_eq(step.state.current_tier, 0, "event " .. i)
              end
              tier = step.state.current_tier
            end
          end
          return true
        end

        """

    /// One property runner serves every cycle: a history property runs against the rules of the
    /// cycle, not those of the first (the runner reloads a folder whose snapshot changed).
    @Test func aHistoryPropertyRunsAgainstTheEditedRules() throws {
        let dir = try Self.fixture(tests: ["recovery_test.lua": Self.historyProperty])
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules")
        let watch = try WatchProcess(["watch", rules.path, "--cases", "20", "--no-explain"], in: dir)
        let first = try watch.waitForLine(containing: "\ncycle 1: ")
        #expect(first.contains("tests: 1 passed, 0 failed"), "\(first)")
        try watch.waitForLine(containing: "watching")

        let escalation = rules.appendingPathComponent("escalation.lua")
        try Self.save(CLI.edit(try String(contentsOf: escalation, encoding: .utf8), [Self.knob]), to: escalation)
        let second = try watch.waitForLine(containing: "\ncycle 2: ")
        #expect(second.contains("FAIL  tests/recovery_test.lua:2 prop_one_yes_recovers_from_tier_1"), "\(second)")
        #expect(second.contains("tests/recovery_test.lua:7: expect_eq: event "))
        #expect(second.contains("tests: 0 passed, 1 failed"))
        #expect(second.contains("cycle 2: good, with failing tests, "))
        try watch.waitForLine(containing: "watching")
        #expect(try watch.stop(SIGINT) == 0)
    }

    @Test func aFolderThatExtendsAnotherSeesTheSavesOfItsBase() throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let variant = dir.appendingPathComponent("variant")
        try FileManager.default.createDirectory(at: variant, withIntermediateDirectories: true)
        try "../rules\n".write(to: variant.appendingPathComponent("extends"), atomically: true, encoding: .utf8)
        let watch = try WatchProcess([
            "watch", variant.path + "/", "--no-tests", "--replay", dir.appendingPathComponent("events.jsonl").path,
        ])
        let first = try watch.waitForLine(containing: "\ncycle 1: ")
        #expect(first.contains("cycle 1: good, "))
        try watch.waitForLine(containing: "watching")

        let base = dir.appendingPathComponent("rules/escalation.lua")
        try Self.save(CLI.edit(try String(contentsOf: base, encoding: .utf8), [Self.knob]), to: base)
        let second = try watch.waitForLine(containing: "\ncycle 2: ")
        #expect(second.contains("cycle 2: \(base.path) changed\n"))
        #expect(second.contains("valid (rules/escalation.lua, rules/streaks.lua"))
        #expect(second.contains("  line 5: state.current_tier: 0 → 1"))
        #expect(try watch.stop() == 0)
    }

    @Test func pollSeesASaveThroughARenameToo() throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules")
        let watch = try WatchProcess([
            "watch", rules.path, "--poll", "--no-tests", "--replay", dir.appendingPathComponent("events.jsonl").path,
        ])
        let first = try watch.waitForLine(containing: "\ncycle 1: ")
        #expect(first.contains("cycle 1: good, "))
        try watch.waitForLine(containing: "watching \(rules.path), comparing its files every 200 ms (Ctrl-C to stop)")

        let escalation = rules.appendingPathComponent("escalation.lua")
        let temporary = rules.appendingPathComponent(".escalation.lua.swp")
        try Self.save(CLI.edit(try String(contentsOf: escalation, encoding: .utf8), [Self.knob]), to: temporary)
        #expect(rename(temporary.path, escalation.path) == 0)
        let second = try watch.waitForLine(containing: "\ncycle 2: ")
        #expect(second.contains("cycle 2: \(escalation.path) changed\n"))
        #expect(second.contains("  line 5: state.current_tier: 0 → 1"))
        #expect(try watch.stop() == 0)
        #expect(watch.stdout.hasSuffix("watch: stopped by SIGINT after 2 cycles\n"))
    }

    @Test func aSecondCtrlCEndsALongCycleAtOnce() throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules")
        // A simulation of a year for 3000 users: minutes on this machine, which the first Ctrl-C would wait for.
        let watch = try WatchProcess(["watch", rules.path, "--no-tests", "--simulate", "1y", "--users", "3000"])
        // The simulation's header is written out as it starts: a signal from then on comes during it
        // (one sent after the validation's line could come before the check that follows it).
        try watch.waitForLine(containing: "simulate 1y, 3000 users, seed 1 (")
        #expect(try watch.stop(SIGINT, repeating: true) == 130)
        #expect(!watch.stdout.contains("watch: stopped"))
    }

    @Test func onceRunsOneCycleAndSaysByItsStatusWhetherTheSetIsGood() throws {
        let dir = try Self.fixture(tests: ["recovery_test.lua": Self.recoveryTest, "properties_test.lua": Self.property])
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules")
        let good = try CLI.run(["watch", rules.path, "--once", "--cases", "5"])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        // The property runs as under `rulesrun test` (it is not an ERROR for want of a runner).
        #expect(good.stdout.contains("tests: 2 passed, 0 failed\n"))
        #expect(good.stdout.contains("cycle 1: good, "))
        #expect(!good.stdout.contains("watching"))

        let escalation = rules.appendingPathComponent("escalation.lua")
        let original = try String(contentsOf: escalation, encoding: .utf8)
        try Self.save(CLI.edit(original, [Self.knob]), to: escalation)
        let failing = try CLI.run(["watch", rules.path, "--once", "--cases", "5"])
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("cycle 1: good, with failing tests, "))
        #expect(failing.stdout.contains("    rule calls of the test:"))
        let unexplained = try CLI.run(["watch", rules.path, "--once", "--cases", "5", "--no-explain"])
        #expect(unexplained.status == 1)
        #expect(unexplained.stdout.contains("FAIL  tests/recovery_test.lua:1 test_one_yes_leaves_tier_1"))
        #expect(!unexplained.stdout.contains("rule calls"))

        try Self.save(original + "\nlocal = 1\n", to: escalation)
        let bad = try CLI.run(["watch", rules.path, "--once"])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("1 problem; no good version yet: waiting for a fix"))
        #expect(bad.stdout.contains("cycle 1: rejected, "))
    }

    /// A simulation that fails inside a cycle (here: the rule folder's own `steady` persona, found
    /// before the built-in one, returns a probability of 2 from its `day()`, and so do the other personas of the default mix) makes the cycle fail,
    /// and `--once` exit 1; it was called good.
    @Test func aCycleWhoseSimulationFailsFails() throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules")
        let personas = rules.appendingPathComponent("personas")
        try FileManager.default.createDirectory(at: personas, withIntermediateDirectories: true)
        try """
        return {
          description = "Its day function returns a probability of 2",
          commit = 0.5,
          answer = { yes = 0.5, no = 0.1 },
          day = function(d) return { commit = 2 } end,
        }
        """.write(to: personas.appendingPathComponent("steady.lua"), atomically: true, encoding: .utf8)
        // Every persona of the default mix, whichever the two users get.
        for name in ["struggling", "lapsing-then-recovering", "weekend-skipper"] {
            try FileManager.default.copyItem(
                at: personas.appendingPathComponent("steady.lua"), to: personas.appendingPathComponent("\(name).lua"))
        }
        let result = try CLI.run(["watch", rules.path, "--once", "--no-tests", "--simulate", "3d", "--users", "2"], in: dir)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("simulate: "), "\(result.stdout)")
        #expect(result.stdout.contains("cycle 1: failed: the simulation did not run, "), "\(result.stdout)")
        #expect(result.stdout.contains("day() returned commit: expected a probability between 0 and 1, found 2.0"), "\(result.stdout)")
        #expect(!result.stdout.contains("cycle 1: good"))
    }

    @Test func invalidArgumentsExitTwoBeforeAnyCycle() throws {
        let missing = try CLI.run(["watch", "no-such-folder", "--once"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no-such-folder: no such rule folder"))
        let users = try CLI.run(["watch", "--once", "--users", "5"])
        #expect(users.status == 2)
        #expect(users.stderr.contains("--users is the size of --simulate's cohort"))
        let replay = try CLI.run(["watch", "--once", "--replay", "no-such.jsonl"])
        #expect(replay.status == 2)
        #expect(replay.stderr.contains("--replay no-such.jsonl: no such file"))
        let duration = try CLI.run(["watch", "--once", "--simulate", "30x"])
        #expect(duration.status == 2)
        #expect(duration.stderr.contains("--simulate: "))
        let explain = try CLI.run(["watch", "--once", "--explain"])
        #expect(explain.status == 2)
        #expect(explain.stderr.contains("--explain explains the lines of --replay that changed; add --replay FILE"))
        let both = try CLI.run(["watch", "--once", "--replay", "examples/replay/escalation-week.jsonl", "--explain", "--no-explain"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("--explain and --no-explain: choose one"))
        #expect(missing.stdout.isEmpty && users.stdout.isEmpty && replay.stdout.isEmpty && duration.stdout.isEmpty)
        #expect(explain.stdout.isEmpty && both.stdout.isEmpty)
    }
}

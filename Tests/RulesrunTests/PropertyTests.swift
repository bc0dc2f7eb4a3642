import Foundation
import Testing

/// Properties: `prop_*` functions of test files (`rulesrun test`), `compare --property FILE`, and
/// `compare --expect` over the economy's and the habit tracker's fields.
@Suite struct PropertyTests {
    static let rules = CLI.packageRoot.appendingPathComponent("rules").path

    /// A rule folder extending the default rules, with one test file.
    static func variant(_ test: String) throws -> URL {
        try CLI.folder(["extends": rules + "\n", "tests/props_test.lua": test])
    }

    static let properties = """
        cases = {
          prop_small_numbers = gen.record { n = gen.int(0, 100), flag = gen.bool() },
          prop_holds = gen.list(gen.one_of { "YES", "NO", "MISSED" }, 5),
          prop_streak_stays_below_3 = gen.history("pressure", { days = 10 }),
        }

        function prop_small_numbers(c)
          return c.n < 37
        end

        function prop_holds(results)
          local state = { current_tier = 0, consecutive_misses = 0, consecutive_successes = 0 }
          for _, result in ipairs(results) do
            state = escalation.transition(state, { result = result })
            expect_true(state.current_tier <= 3)
          end
          return true
        end

        function prop_streak_stays_below_3(history)
          for _, step in ipairs(history) do
            if step.ok then expect_true(step.state.current_streak < 3, "streak after " .. step.event.type) end
          end
          return true
        end
        """

    /// The output without its times (`  (1.2 ms)`), which alone may differ between two runs.
    static func withoutTimes(_ text: String) -> String {
        text.replacing(#/ {2}\([0-9.]+ ms\)/#, with: "")
    }

    @Test func aValuePropertyIsShrunkToItsMinimalCase() throws {
        let dir = try Self.variant(Self.properties)
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--run", "prop_small|prop_holds", "--cases", "50"], in: dir)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("PASS  tests/props_test.lua:11 prop_holds (50 cases)  (") })
        let fail = try #require(lines.firstIndex { $0.hasPrefix("FAIL  tests/props_test.lua:7 prop_small_numbers (") })
        #expect(lines[fail + 1] == "    tests/props_test.lua:7: the property returned false")
        #expect(lines[fail + 2].hasPrefix("    falsified by case "))
        // The smallest n that breaks it, and the first value of gen.bool().
        #expect(lines[fail + 3].hasPrefix("    minimal case ("))
        #expect(lines[fail + 3].hasSuffix("): {flag = false, n = 37}"))
        #expect(lines[fail + 4] == "    reproduce: rulesrun test \(dir.path) --run '^prop_small_numbers$' --seed 1 --cases 50")
        #expect(lines.last == "1 passed, 1 failed")
    }

    @Test func aHistoryPropertyWritesAReplayFileThatShowsTheBreak() throws {
        let dir = try Self.variant(Self.properties)
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--run", "prop_streak", "--cases", "20"], in: dir)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("    tests/props_test.lua:22: expect_true: streak after check_in: expected a true value, found false\n"))
        let file = dir.appendingPathComponent(".rulesrun/test/prop_streak_stays_below_3.jsonl")
        #expect(result.stdout.contains("shrunk to 8 events: .rulesrun/test/prop_streak_stays_below_3.jsonl\n"))
        let text = try String(contentsOf: file, encoding: .utf8)
        let events = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        // The set-up (settings, subscription), then three days of a commitment and a YES.
        #expect(events.count == 8)
        #expect(events.filter { $0.contains("\"result\": \"YES\"") }.count == 3)
        let replay = try CLI.run(["replay", file.path, "--rules", dir.path], in: dir)
        #expect(replay.status == 0, "\(replay.stderr)")
        let outputs = replay.stdout.split(separator: "\n")
        #expect(outputs.count == 8)
        #expect(outputs.last?.contains("\"current_streak\":3") == true)
        #expect(outputs.dropLast().allSatisfy { !$0.contains("\"current_streak\":3") })
    }

    @Test func theSameSeedGivesTheSameCasesAndAnotherSeedOthers() throws {
        let dir = try Self.variant(Self.properties)
        func run(_ seed: String) throws -> String {
            let result = try CLI.run(["test", dir.path, "--no-inherit", "--run", "prop_small", "--seed", seed], in: dir)
            #expect(result.status == 1)
            return Self.withoutTimes(result.stdout)
        }
        let first = try run("7"), again = try run("7"), other = try run("8")
        #expect(first == again)
        let falsified = { (text: String) in text.split(separator: "\n").first { $0.contains("falsified by case") } }
        #expect(falsified(first) != nil)
        #expect(falsified(first) != falsified(other))
    }

    @Test func aPropertyWithoutAGeneratorIsAnError() throws {
        let dir = try Self.variant(
            """
            cases = { prop_b = gen.int(5, 1) }
            function prop_a(x) return true end
            function prop_b(x) return true end
            """)
        let result = try CLI.run(["test", dir.path, "--no-inherit"], in: dir)
        #expect(result.status == 2)
        #expect(
            result.stdout.contains(
                "    tests/props_test.lua: cases.prop_a: no generator for prop_a (e.g. cases = { prop_a = gen.int(0, 10) } or gen.history(\"earned\"))"
            ))
        #expect(
            result.stdout.contains(
                "    tests/props_test.lua: cases.prop_b: gen.int(MIN, MAX): expected two integers, MIN <= MAX, found integer 5, integer 1"))
    }

    @Test func theEconomysGeneratorsDrawWhatTheProofsCoverAndTheDefaultRulesHoldOverThem() throws {
        let result = try CLI.run([
            "test", Self.rules, "--run", "prop_prices|prop_focus|prop_quest_gate|prop_emergency", "--cases", "300",
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for (line, name) in [
            (70, "prop_prices_strictly_increase_with_the_length"), (86, "prop_focus_credits_only_for_qualifying_sessions"),
            (104, "prop_quest_gate_answers_nil_or_an_unlock_denied_reason"), (112, "prop_emergency_unlocks_stop_at_the_daily_limit"),
        ] {
            #expect(result.stdout.contains("PASS  tests/properties_test.lua:\(line) \(name) (300 cases)  ("), "\(result.stdout)")
        }
        #expect(result.stdout.hasSuffix("4 passed, 0 failed\n"))
    }

    @Test func aBrokenPropertyOverAGeneratedRecordShrinksToTheSimplestRecordTheEngineWouldPass() throws {
        let dir = try Self.variant(
            """
            cases = {
              prop_late_and_rich = gen.price_context(),
              prop_quests_always_allowed = gen.quest_gate(),
            }
            function prop_late_and_rich(ctx)
              return not (ctx.hour >= 22 and ctx.balance >= 100)
            end
            function prop_quests_always_allowed(gate)
              return gate.strictness == "HARD" or quests.quest_blocked(gate) == nil
            end
            """)
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--cases", "500"], in: dir)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let minimal = result.stdout.split(separator: "\n").filter { $0.hasPrefix("    minimal case (") }
        #expect(minimal.count == 2, "\(result.stdout)")
        // A situation as the gate passes it to price (PriceContext's encoding: no mode, params
        // empty, minutes 0 for the property to set), the first of the proof's that breaks it.
        #expect(
            minimal.first?.hasSuffix(
                "): {app = \"android:com.example.app\", balance = 1000, hour = 22, minute = 0, minutes = 0, params = {}, streak = 7, strictness = \"GENTLE\", unlocks_today = 0, unlocks_today_app = 0, weekday = 1}"
            ) == true)
        // Every field at its plainest but the one that blocks: 0 minutes since the last quest unlock (the cooldown).
        #expect(
            minimal.last?.hasSuffix(
                "): {minutes_since_last_quest_unlock = 0, qr_key_set = false, quest_type = \"BREATHING\", quest_unlocks_today = 0, strictness = \"GENTLE\"}"
            ) == true)
        #expect(result.stdout.hasSuffix("0 passed, 2 failed\n"))
    }

    /// The streak functions' and the economy's last proof domains: each breaks at the plainest input that breaks it.
    @Test func theRuleFunctionsProofDomainsAreGeneratorsAndShrinkToTheirPlainestInput() throws {
        let dir = try Self.variant(
            """
            cases = {
              prop_pressure = gen.record { streak = gen.pressure_streak(), day = gen.pressure_day() },
              prop_day_end = gen.earned_day_end(),
              prop_qualifies = gen.earned_day(),
              prop_bonus = gen.earned_streak(),
              prop_miga = gen.miga_days(),
              prop_habit = gen.habit_streak(),
              prop_carried = gen.carried_balance(),
              prop_award = gen.habit_award(),
            }
            function prop_pressure(c) return streaks.pressure.next(c.streak, c.day).current_streak < 3 end
            function prop_day_end(d) return streaks.earned.day_ends(d).streak_count < 5 end
            function prop_qualifies(d) return streaks.earned.qualifies(d) ~= "FOCUS" end
            function prop_bonus(n) return streaks.earned.bonus(n) >= 0 and n < 3 end
            function prop_miga(days) return streaks.miga.current_streak(days) < 2 end
            function prop_habit(c) return streaks.habit.streak(c.periods, c.task, c.user).current < 2 end
            function prop_carried(balance) return pricing.carried_credits(balance) < 10 end
            function prop_award(a) return pricing.habit_award(a).credits == 0 end
            """)
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--no-explain", "--cases", "300"], in: dir)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let minimal = result.stdout.split(separator: "\n").filter { $0.hasPrefix("    minimal case (") }.map {
            String($0.split(separator: "): ", maxSplits: 1).last ?? "")
        }
        #expect(
            minimal.prefix(5) == [
                // A YES on the proof's Monday after the plainest streak it extends to 3.
                "{day = {committed = true, date = \"2026-01-05\", result = \"YES\", shield_used = false, weekday = 1}, streak = {current_streak = 2, longest_streak = 2}}",
                "{date = \"2026-01-05\", freezes = 0, qualified = \"FOCUS\", streak_count = 5, weekday = 1}",
                "{focus_minutes = 20, habit_completions = 0}",
                "3",
                "{{exits = 1}, {exits = 1}}",
            ], "\(result.stdout)")
        #expect(minimal.count == 8)
        // The economy's: the first balance the rollover cap (10) carries in full, the smallest reward.
        #expect(minimal.suffix(2) == ["10", "{completions_in_window = 0, reward_credits = 1}"], "\(result.stdout)")
        // A habit case is the proof's periods, task and user, as the engine passes them: today running
        // (the proof's last day, the 1st of March after a leap day), then two days done.
        let habit = try #require(
            result.stdout.split(separator: "\n").first { $0.hasPrefix("    minimal case (") && $0.contains("periods") })
        #expect(habit.contains("{periods = {{completions = 0, end_date = \"2032-03-01\", "), "\(habit)")
        #expect(habit.contains("status = \"open\""), "\(habit)")
        #expect(result.stdout.hasSuffix("0 passed, 8 failed\n"))
    }

    /// The mode functions' proof domains: a window of the proof's masks and bounds at one of its
    /// instants, a list of up to two of its modes; each shrinks field by field to the plainest input that breaks.
    @Test func theModeFunctionsProofDomainsAreGeneratorsAndShrinkToTheirPlainestInput() throws {
        let dir = try Self.variant(
            """
            cases = { prop_window = gen.window_active(), prop_mode = gen.effective_mode() }
            function prop_window(c) return c.window.days_mask ~= 85 or not modes.window_active(c.window, c.now) end
            function prop_mode(c)
              local i = modes.effective_mode(c.modes, c.now)
              return i == nil or c.modes[i].priority == 0
            end
            """)
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--no-explain", "--cases", "300"], in: dir)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let minimal = result.stdout.split(separator: "\n").filter { $0.hasPrefix("    minimal case (") }.map {
            String($0.split(separator: "): ", maxSplits: 1).last ?? "")
        }
        #expect(minimal.count == 2, "\(result.stdout)")
        // Every other day (Monday first), a window of equal bounds (the whole day), on Monday at 00:00.
        #expect(
            minimal.first
                == "{now = {minutes = 0, weekday = 1}, window = {days_mask = 85, end_minutes = 0, start_minutes = 0}}",
            "\(result.stdout)")
        // One mode of priority 1 in force through its always-open window, at the proof's Monday 10:00.
        #expect(
            minimal.last?.hasPrefix(
                "{modes = {{manual_state = \"AUTO\", override_in_force = false, priority = 1, strictness = \"GENTLE\", windows = {{days_mask = 127, end_minutes = 0, start_minutes = 0}}}}, now = {minutes = 600, weekday = 1"
            ) == true, "\(result.stdout)")
        #expect(result.stdout.hasSuffix("0 passed, 2 failed\n"))
    }

    /// gen.habit_streak() draws under the params of the rule set under test (loop-habits declares calendar_weeks).
    @Test func theHabitStreakGeneratorUsesTheParamsOfTheRulesUnderTest() throws {
        let test = """
            cases = { prop_no_params = gen.habit_streak() }
            function prop_no_params(c)
              expect_eq(c.user.timezone, "UTC")
              expect_true(next(c.task.params) == nil, "calendar_weeks " .. tostring(c.task.params.calendar_weeks))
              return true
            end
            """
        let plain = try Self.variant(test)
        let holds = try CLI.run(["test", plain.path, "--no-inherit", "--cases", "50"], in: plain)
        #expect(holds.status == 0, "\(holds.stdout)\(holds.stderr)")
        let loop = try CLI.folder([
            "extends": CLI.packageRoot.appendingPathComponent("examples/loop-habits").path + "\n", "tests/props_test.lua": test,
        ])
        let broken = try CLI.run(["test", loop.path, "--no-inherit", "--no-explain", "--cases", "50"], in: loop)
        #expect(broken.status == 1, "\(broken.stdout)\(broken.stderr)")
        #expect(broken.stdout.contains("expect_true: calendar_weeks false: expected a true value, found false"), "\(broken.stdout)")
    }

    @Test func aFailedPropertyShowsTheRuleCallsOfItsMinimalCase() throws {
        let dir = try Self.variant(
            """
            cases = {
              prop_pressure = gen.record { streak = gen.pressure_streak(), day = gen.pressure_day() },
              prop_streak_stays_below_2 = gen.history("pressure", { days = 6 }),
            }
            function prop_pressure(c) return streaks.pressure.next(c.streak, c.day).current_streak < 3 end
            function prop_streak_stays_below_2(history)
              for _, step in ipairs(history) do
                if step.ok then expect_true(step.state.current_streak < 2, step.event.type) end
              end
              return true
            end
            """)
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--cases", "50"], in: dir)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let value = try #require(lines.firstIndex(of: "    rule calls of the minimal case:"), "\(result.stdout)")
        #expect(lines[value + 1] == "      streaks.pressure.next (rules/streaks.lua:24)")
        #expect(
            lines[value + 2]
                == "        arguments: {\"current_streak\":2,\"longest_streak\":2}, {\"committed\":true,\"date\":\"2026-01-05\",\"result\":\"YES\",\"shield_used\":false,\"weekday\":1}"
        )
        #expect(lines[value + 3] == "        returned: {\"current_streak\":3,\"longest_streak\":3}")
        // The history's: its replay, the last call the one that made the streak 2.
        let history = try #require(lines.firstIndex { $0.contains("rule calls of the minimal history") }, "\(result.stdout)")
        let last = try #require(lines[history...].lastIndex { $0.hasPrefix("      streaks.pressure.next (") })
        #expect(lines[last + 2] == "        returned: {\"current_streak\":2,\"longest_streak\":2}", "\(result.stdout)")
        let json = try CLI.run(["test", dir.path, "--no-inherit", "--cases", "50", "--format", "json"], in: dir)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tests = try #require(report["tests"] as? [[String: Any]])
        #expect(tests.allSatisfy { ($0["explain"] as? [Any])?.isEmpty == false }, "\(json.stdout)")
        let quiet = try CLI.run(["test", dir.path, "--no-inherit", "--cases", "50", "--no-explain"], in: dir)
        #expect(quiet.status == 1)
        #expect(!quiet.stdout.contains("rule calls"))
    }

    static let compareQuick = ["--runs", "1", "--economy-runs", "0", "--habit-runs", "0", "--population-users", "0"]

    @Test func comparePropertyHoldsOrBreaksAndWritesTheBrokenOnesReplayFile() throws {
        let out = try CLI.folder([:])
        let result = try CLI.run(
            [
                "compare", "rules", "examples/graduated-recovery", "--property", "examples/properties/graduated-recovery.lua",
                "--property-runs", "10", "--out", out.path,
            ] + Self.compareQuick)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "prop_b_never_recovers_faster (graduated-recovery.lua:12) on 10 Pressure histories of 21 days: holds after every event of every history\n"
            ))
        #expect(
            result.stdout.contains(
                "prop_b_decides_the_same_tiers (graduated-recovery.lua:22) on 10 Pressure histories of 21 days: BROKEN in "))
        #expect(result.stdout.contains("  why: graduated-recovery.lua:24: expect_eq: event "))
        // The rule calls of the minimal history under each set, the last ones those of its last event.
        #expect(result.stdout.contains("\n  the last 10 rule calls of the minimal history under A (rules), of "), "\(result.stdout)")
        #expect(result.stdout.contains("\n  the last 10 rule calls of the minimal history under B (examples/graduated-recovery), of "))
        #expect(result.stdout.hasSuffix("exit 1: 1 of 2 properties broke\n"))
        let file = out.appendingPathComponent("property-prop_b_decides_the_same_tiers.jsonl")
        let last = { (rules: String) throws -> String in
            let replay = try CLI.run(["replay", file.path, "--rules", rules])
            return String(replay.stdout.split(separator: "\n").last ?? "")
        }
        // The minimal history ends on the event where the two readings' tiers part.
        #expect(try last("rules").contains("\"current_tier\":0"))
        #expect(try last("examples/graduated-recovery").contains("\"current_tier\":1"))

        let holding = try CLI.folder([
            "holds.lua": """
            cases = { prop_same_streaks = gen.history("habits", { days = 5 }) }
            function prop_same_streaks(a, b)
              for i, step in ipairs(a) do expect_eq(b[i].state, step.state) end
              return true
            end
            """
        ])
        let same = try CLI.run(
            ["compare", Self.rules, Self.rules, "--property", holding.appendingPathComponent("holds.lua").path, "--property-runs", "3"]
                + Self.compareQuick, in: holding)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(
            same.stdout.contains(
                "prop_same_streaks (holds.lua:2) on 3 habit histories of 5 days: holds after every event of every history\n"))
        #expect(same.stdout.hasSuffix("exit 0: every property held\n"))
    }

    /// compare's properties relate two sets' histories: a value generator (gen.habit_streak draws
    /// under one set's params) is refused before anything runs, saying where it belongs, and a bad
    /// history is named once.
    @Test func comparePropertyRefusesAValueGeneratorAndSaysWhereItBelongs() throws {
        let dir = try CLI.folder([
            "values.lua": "cases = { prop_habit = gen.habit_streak() }\nfunction prop_habit(c) return true end\n",
            "bad.lua": "cases = { prop_h = gen.history(\"nope\") }\nfunction prop_h(a, b) return true end\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let values = try CLI.run(["compare", Self.rules, Self.rules, "--property", "values.lua"] + Self.compareQuick, in: dir)
        #expect(values.status == 2)
        #expect(
            values.stderr.contains(
                "values.lua: cases.prop_habit: compare checks properties on histories: expected gen.history(\"pressure\"|\"earned\"|\"habits\" [, {days = N}]); gen.habit_streak draws values (arguments of one set's rule functions), not histories: a property of it belongs in a test file (rulesrun test)"
            ), "\(values.stderr)")
        #expect(!values.stderr.contains("values.lua: values.lua: values.lua"), "\(values.stderr)")
        let bad = try CLI.run(["compare", Self.rules, Self.rules, "--property", "bad.lua"] + Self.compareQuick, in: dir)
        #expect(bad.status == 2)
        #expect(
            bad.stderr.contains("bad.lua: cases.prop_h: gen.history(APP): APP is one of pressure, earned, habits, found string \"nope\""))
        #expect(!bad.stderr.contains("bad.lua: bad.lua: bad.lua"), "\(bad.stderr)")
    }

    // MARK: Names chosen by the test file

    /// Properties named to break out of the printed command (a quote, `$(…)`, a line feed, a
    /// pattern that matches every name), in a rule folder and an `--out` folder named likewise: each
    /// printed reproduce command, run by a real shell, runs nothing else and reruns exactly its
    /// property (`rulesrun test`) or replays its history (`rulesrun replay`).
    @Test func everyReproduceLineRunsInAShellAsItReads() throws {
        let root = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = "r'; touch INJECTED_1; echo '\u{1B}x", out = "o$(touch INJECTED_2)\n`touch INJECTED_3`"
        try FileManager.default.createDirectory(at: root.appendingPathComponent(folder + "/tests"), withIntermediateDirectories: true)
        try (Self.rules + "\n").write(to: root.appendingPathComponent(folder + "/extends"), atomically: true, encoding: .utf8)
        try #"""
        local names = {
          "prop_x'; touch INJECTED_4; echo '", "prop_$(touch INJECTED_5)", "prop_a\nb", "prop_.*", "prop_\27[2Jc\r",
        }
        cases = { prop_holds = gen.int(0, 3), ["prop_h'`touch INJECTED_6`"] = gen.history("earned", { days = 2 }) }
        for _, name in ipairs(names) do cases[name] = gen.int(0, 3) end
        for name in pairs(cases) do _ENV[name] = function() return name == "prop_holds" end end
        """#.write(to: root.appendingPathComponent(folder + "/tests/names_test.lua"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["test", folder, "--no-inherit", "--out", out], in: root)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let commands = result.stdout.split(separator: "\n").compactMap { line in
            line.range(of: "reproduce: ").map { line[$0.upperBound...].components(separatedBy: "   or   ") }
        }.flatMap { $0 }
        #expect(commands.filter { $0.hasPrefix("rulesrun test ") }.count == 6, "\(result.stdout)")
        #expect(commands.filter { $0.hasPrefix("rulesrun replay ") }.count == 1, "\(result.stdout)")
        for command in commands {
            let rerun = try PastedCommand.run(command, in: root)
            if command.hasPrefix("rulesrun test ") {
                let lines = rerun.stdout.split(separator: "\n")
                #expect(rerun.status == 1 && lines.filter { $0.hasPrefix("FAIL ") }.count == 1, "\(command)\n\(rerun.stdout)\(rerun.stderr)")
                #expect(lines.last == "0 passed, 1 failed", "\(command)\n\(rerun.stdout)")
            } else {
                #expect(rerun.status == 0 && rerun.stdout.contains("\"ok\":true"), "\(command)\n\(rerun.stdout)\(rerun.stderr)")
            }
        }
        #expect(PastedCommand.injected(under: root).isEmpty, "\(PastedCommand.injected(under: root))")
    }

    /// compare's replay commands, with rule folders and an `--out` named to break out of them (a
    /// leading `-`, a quote, `$(…)`, a line feed), run by a real shell as they read; the replay
    /// files' headers stay comment lines.
    @Test func compareReplayCommandsRunInAShellAsTheyRead() throws {
        let root = try CLI.folder([
            "props.lua": """
            cases = { ["prop_'$(touch INJECTED_4)\\n"] = gen.history("pressure", { days = 3 }) }
            _ENV["prop_'$(touch INJECTED_4)\\n"] = function() return false end
            """
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let a = "-a'; touch INJECTED_1; echo '", b = "b\n$(touch INJECTED_2)\u{1B}", out = "o'`touch INJECTED_3`"
        for (folder, base) in [(a, Self.rules), (b, CLI.packageRoot.appendingPathComponent("examples/graduated-recovery").path)] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            try (base + "\n").write(to: root.appendingPathComponent(folder + "/extends"), atomically: true, encoding: .utf8)
        }
        let result = try CLI.run(
            ["compare", "--property", "props.lua", "--property-runs", "2", "--runs", "20", "--economy-runs", "0", "--habit-runs", "0"]
                + ["--population-users", "0", "--out", out, "--", a, b], in: root)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let commands = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("rulesrun replay ") }
        #expect(commands.count >= 4, "\(result.stdout)")
        for command in commands {
            let replay = try PastedCommand.run(command, in: root)
            #expect(replay.status == 0 && replay.stdout.contains("\"ok\":true"), "\(command)\n\(replay.stdout)\(replay.stderr)")
        }
        for file in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(out).path) {
            let lines = try String(contentsOf: root.appendingPathComponent(out + "/" + file), encoding: .utf8).split(separator: "\n")
            #expect(lines.prefix { !$0.hasPrefix("{") }.allSatisfy { $0.hasPrefix("# ") }, "\(file): \(lines.prefix(6))")
        }
        #expect(PastedCommand.injected(under: root).isEmpty, "\(PastedCommand.injected(under: root))")
    }

    /// A property's name cannot put its replay file outside `--out` (`../`, a NUL, 300 bytes), and
    /// two names never share a file, not even two that differ only in case, two that are made the
    /// same file name, or one name in two test files; likewise compare's `--out`.
    @Test func aPropertysNameMakesOneFileOfItsOwnInsideOut() throws {
        let names = [
            "prop_x/../../escaped", "prop_A", "prop_a", "prop_a/b", "prop_a_b", "prop_nul\\0x", "prop_" + String(repeating: "x", count: 300),
        ]
        let body = """
            local names = { \(names.map { "\"\($0)\"" }.joined(separator: ", ")) }
            cases = {}
            for _, name in ipairs(names) do
              cases[name] = gen.history("earned", { days = 2 })
              _ENV[name] = function() return false end
            end
            """
        let root = try CLI.folder(["rules/extends": Self.rules + "\n", "rules/tests/a_test.lua": body, "rules/tests/b_test.lua": body])
        defer { try? FileManager.default.removeItem(at: root) }
        // Folders a name with `../` could climb out of.
        for made in ["out/prop_x", "compared/property-prop_x"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(made), withIntermediateDirectories: true)
        }
        let result = try CLI.run(["test", "rules", "--no-inherit", "--out", "out"], in: root)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("out").path).filter { $0 != "prop_x" }
        #expect(written.count == 2 * names.count, "\(written)")
        #expect(Set(written.map { $0.lowercased() }).count == written.count)
        #expect(written.allSatisfy { $0.utf8.count <= 255 && $0.hasSuffix(".jsonl") })
        #expect(!result.stdout.contains("cannot write"), "\(result.stdout)")
        for name in written {
            let header = try String(contentsOf: root.appendingPathComponent("out/\(name)"), encoding: .utf8).prefix { $0 != "\n" }
            #expect(header.hasPrefix("# rulesrun test rules: prop_"), "\(header)")
        }

        try body.write(to: root.appendingPathComponent("props.lua"), atomically: true, encoding: .utf8)
        let compare = try CLI.run(
            ["compare", Self.rules, Self.rules, "--property", "props.lua", "--property-runs", "1", "--out", "compared"] + Self.compareQuick,
            in: root)
        #expect(compare.status == 1, "\(compare.stdout)\(compare.stderr)")
        let compared = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("compared").path)
            .filter { $0 != "property-prop_x" }
        #expect(compared.count == names.count, "\(compared)")
        #expect(Set(compared.map { $0.lowercased() }).count == compared.count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["compared", "out", "props.lua", "rules"])
    }

    @Test func expectOnAnEarnedField() throws {
        let out = try CLI.folder([:])
        let result = try CLI.run(
            [
                "compare", "rules", "examples/gentle-pricing", "--runs", "1", "--economy-runs", "5", "--economy-days", "3", "--habit-runs", "0",
                "--population-users", "0", "--out", out.path, "--expect", "B.cost_credits <= A.cost_credits",
                "--expect", "B.credit_balance <= A.credit_balance",
            ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "expect B.cost_credits <= A.cost_credits (--expect) on 5 Earned histories of 3 days: holds after every event of every history\n"
            ))
        #expect(
            result.stdout.contains("expect B.credit_balance <= A.credit_balance (--expect) on 5 Earned histories of 3 days: BROKEN in "))
        #expect(result.stdout.contains(": B.credit_balance <= A.credit_balance broke\n"))
        #expect(result.stdout.hasSuffix("exit 1: 1 of 2 expectations broke\n"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("expectation-earned-2.jsonl").path))
    }

    @Test func expectOnAHabitField() throws {
        let quick = ["--runs", "1", "--economy-runs", "0", "--habit-runs", "3", "--habit-days", "5", "--population-users", "0"]
        let same = try CLI.run(["compare", "rules", "rules", "--expect", "B.habit_streak == A.habit_streak"] + quick)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(
            same.stdout.contains(
                "expect B.habit_streak == A.habit_streak (--expect) on 3 habit histories of 5 days: holds after every event"))
        let out = try CLI.folder([:])
        let loop = try CLI.run(
            ["compare", "rules", "examples/loop-habits", "--out", out.path, "--expect", "B.habit_streak >= A.habit_streak"] + quick)
        #expect(loop.status == 1, "\(loop.stdout)\(loop.stderr)")
        let why = try #require(loop.stdout.split(separator: "\n").first { $0.hasPrefix("  why: event ") })
        #expect(why.hasSuffix(": B.habit_streak >= A.habit_streak broke"))
        #expect(why.contains("B.habit_streak["))  // task by task
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("expectation-habits-1.jsonl").path))
    }

    @Test func expectOnARecordByEqualityAndOnTheLongestBestStreak() throws {
        let out = try CLI.folder([:])
        let earned = try CLI.run(
            [
                "compare", "rules", "examples/gentle-pricing", "--runs", "1", "--economy-runs", "5", "--economy-days", "3", "--habit-runs", "0",
                "--population-users", "0", "--out", out.path, "--expect", "B.gate_options == A.gate_options", "--expect",
                "B.quest == A.quest",
            ])
        #expect(earned.status == 1, "\(earned.stdout)\(earned.stderr)")
        #expect(earned.stdout.contains("expect B.quest == A.quest (--expect) on 5 Earned histories of 3 days: holds after every event"))
        // gentle-pricing's cheaper unlocks show in the gate's options: the first leaf that differs.
        #expect(
            earned.stdout.contains(
                "  why: event 3 (unlock_open): B.gate_options → A.gate_options  available_options.options[1].durations[1].cost_credits: 5 → 10 (and 2 more): B.gate_options == A.gate_options broke\n"
            ))
        let habits = ["--runs", "1", "--economy-runs", "0", "--habit-runs", "5", "--habit-days", "10", "--population-users", "0"]
        let same = try CLI.run(
            [
                "compare", "examples/loop-habits", "examples/loop-habits", "--out", out.path, "--expect",
                "B.habit_best_streak == A.habit_best_streak",
            ] + habits)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        let other = try CLI.run(
            [
                "compare", "examples/loop-habits", "examples/habitica-dailies", "--out", out.path, "--expect",
                "B.habit_best_streak >= A.habit_best_streak",
            ] + habits)
        #expect(other.status == 1, "\(other.stdout)\(other.stderr)")
        #expect(
            other.stdout.contains(
                "  why: event 2 (habit_freeze): B.habit_best_streak[walk] = 0, A.habit_best_streak[walk] = 1: B.habit_best_streak >= A.habit_best_streak broke\n"
            ))
    }

    /// Every field of every app: Pressure's that are not numbers, and the refusals and best streaks of the others, by == and !=.
    @Test func expectTakesEveryFieldOfEveryApp() throws {
        let quick = [
            "--runs", "20", "--days", "7", "--economy-runs", "3", "--habit-runs", "3", "--habit-days", "5", "--population-users", "0",
        ]
        var same = ["compare", "rules", "rules"] + quick
        for field in ["reminders", "persistent_badge", "shield", "error", "earned_error", "habit_error", "habit_best_streaks"] {
            same += ["--expect", "B.\(field) == A.\(field)"]
        }
        let held = try CLI.run(same)
        #expect(held.status == 0, "\(held.stdout)\(held.stderr)")
        #expect(held.stdout.contains("expect B.reminders == A.reminders: holds on every day of every history"))
        #expect(
            held.stdout.contains("expect B.habit_error == A.habit_error (--expect) on 3 habit histories of 5 days: holds after every event")
        )
        #expect(held.stdout.hasSuffix("exit 0: every expectation held\n"), "\(held.stdout)")
        // graduated-recovery recovers tier by tier: its reminders differ, and the engine shows it.
        let out = try CLI.folder([:])
        let broken = try CLI.run(
            [
                "compare", "rules", "examples/graduated-recovery", "--out", out.path, "--json", "--expect", "B.reminders == A.reminders",
                "--expect", "B.reminders != A.reminders",
            ] + quick)
        #expect(broken.status == 1, "\(broken.stdout)\(broken.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(broken.stdout.utf8)) as? [String: Any])
        let expectations = try #require(report["expectations"] as? [[String: Any]])
        #expect(expectations.map { $0["holds"] as? Bool } == [false, false])
        let counterexample = try #require(expectations.first?["counterexample"] as? [String: Any])
        #expect(counterexample["reproduced_by_engine"] as? Bool == true, "\(counterexample)")
    }

    @Test func whatExpectCannotCompareIsRefusedWithTheReason() throws {
        for (expect, message) in [
            ("B.gate_options <= A.gate_options", "gate_options is a record, compared by == or != only (it has no order)"),
            ("B.gate_options == A.unlock", "gate_options is a record: compare it with itself (B.gate_options == A.gate_options)"),
            ("B.reminders <= A.reminders", "reminders is not a number: compared by == or != only (it has no order)"),
            ("B.shield == A.error", "shield is not a number: compare it with itself (B.shield == A.shield)"),
            (
                "B.current_tier == A.persistent_badge",
                "persistent_badge is not a number: compare it with itself (B.persistent_badge == A.persistent_badge)"
            ),
        ] {
            let result = try CLI.run(["compare", "rules", "examples/gentle-pricing", "--expect", expect])
            #expect(result.status == 2)
            #expect(result.stderr.contains("--expect \"\(expect)\": \(message)"), "\(result.stderr)")
        }
    }

    @Test func anExpectationOfTwoAppsOrAnUnknownFieldIsRefused() throws {
        let mixed = try CLI.run(["compare", "rules", "rules", "--expect", "B.credit_balance >= A.current_tier"])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("--expect \"B.credit_balance >= A.current_tier\": both sides must be fields of one app"))
        let unknown = try CLI.run(["compare", "rules", "rules", "--expect", "B.balance >= A.balance"])
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr.contains(
                "\"balance\" is not a field (current_tier, consecutive_misses, consecutive_successes, current_streak, longest_streak, restart_shields_remaining (pressure); reminders, persistent_badge, shield, error (pressure, by == or !=); "
            ), "\(unknown.stderr)")
        #expect(
            unknown.stderr.contains(
                "credit_balance, streak_count, cost_credits, credits_earned, gate_options, unlock, quest, rollover, earned_error (earned); habit_streak, habit_score, habit_best_streak, habit_decision, habit_best_streaks, habit_error (habits))"
            ))
    }
}

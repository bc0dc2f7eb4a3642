import Foundation
import Testing

/// `replay`'s output paired with its input (`line` first on every output line, the unchanged state
/// after a refused event) and `replay --explain` (the rule calls of each event).
@Suite struct ReplayExplainTests {
    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").filter { $0.hasPrefix("{") }.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// The text lines under the output line answering input line `number` (up to the next output line).
    static func explanation(_ text: String, line number: Int) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("{\"line\":\(number),") }) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.hasPrefix("{") && !$0.isEmpty })
    }

    @Test func everyOutputLineStartsWithTheNumberOfTheLineItAnswers() throws {
        let dir = try CLI.folder([
            "events.jsonl": """
            # a comment

            {"at": "2026-03-02T08:00:00Z", "type": "commitment", "text": "ok"}
            not json
            {"at": "2026-03-02T12:00:00Z", "type": "check_in", "result": "YES"}
            {"at": "2026-03-02T12:01:00Z", "type": "check_in", "result": "NO"}
            {"at": "2026-03-02T12:02:00Z", "user": "u2", "type": "tick"}
            """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["replay", dir.appendingPathComponent("events.jsonl").path])
        #expect(result.status == 2, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 5)
        for (line, number) in zip(lines, [3, 4, 5, 6, 7]) { #expect(line.hasPrefix("{\"line\":\(number),"), "\(line)") }
        #expect(lines[0].hasPrefix(#"{"line":3,"at":"2026-03-02T08:00:00Z","user":"u1","type":"commitment","ok":true,"decisions":"#))
        #expect(lines[1].hasPrefix(#"{"line":4,"ok":false,"error":{"code":"INVALID_EVENT""#))
    }

    @Test func aRefusedEventPrintsTheStateItLeftUnchanged() throws {
        let dir = try CLI.folder([
            "events.jsonl": """
            {"at": "2026-03-02T08:00:00Z", "type": "commitment", "text": "ok"}
            {"at": "2026-03-02T12:00:00Z", "type": "check_in", "result": "YES"}
            {"at": "2026-03-02T12:01:00Z", "type": "check_in", "result": "NO"}
            {"at": "2026-03-03T10:00:00Z", "type": "commitment", "text": "late"}
            {"at": "2026-03-02T12:00:00Z", "user": "u2", "type": "shield"}
            """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["replay", dir.appendingPathComponent("events.jsonl").path])
        #expect(result.status == 0, "\(result.stderr)")
        let out = try Self.objects(result.stdout)
        #expect(
            out.map { ($0["error"] as? [String: Any])?["code"] as? String } == [
                nil, nil, "ALREADY_CHECKED_IN", "DEADLINE_PASSED", "SHIELD_NOT_AVAILABLE",
            ])
        let applied = try #require(out[1]["state"] as? NSDictionary)
        // The state as the last applied event left it: the refused events changed nothing, not
        // even the day (the time a refused event would have let pass did not pass).
        #expect(out[2]["state"] as? NSDictionary == applied)
        #expect(out[3]["state"] as? NSDictionary == applied)
        #expect((applied["today"] as? [String: Any])?["day"] as? String == "2026-03-02")
        // A user no event created has no state.
        #expect(out[4]["state"] == nil)
        #expect(
            result.stdout.split(separator: "\n")[2].hasSuffix(
                #""ok":false,"error":{"code":"ALREADY_CHECKED_IN","message":"line 3: 2026-03-02 is already YES; a check-in is final and irreversible"},"state":{"current_tier":0,"consecutive_misses":0,"consecutive_successes":1,"current_streak":1,"longest_streak":1,"restart_shields_remaining":0,"subscription_tier":"FREE","persistent_badge":false,"today":{"day":"2026-03-02","status":"YES","commitment":"ok","deadline":"09:00","window_close":"22:00","reminders":["15:30"]}}}"#
            ))
    }

    @Test func explainTextShowsAnEscalationEventsCallsInOrderWithTheKnobsTheyRead() throws {
        let result = try CLI.run(["replay", "examples/replay/escalation-week.jsonl", "--explain", "text"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            Self.explanation(result.stdout, line: 6) == [
                "  escalation.transition (escalation.lua:65)",
                #"    arguments: {"consecutive_misses":0,"consecutive_successes":1,"current_tier":0}, {"result":"NO"}"#,
                #"    returned: {"consecutive_misses":1,"consecutive_successes":0,"current_tier":1}"#,
                "    knobs: escalation.tier_for_misses[3] = 3, escalation.tier_for_misses[2] = 2, escalation.tier_for_misses[1] = 1, escalation.max_tier = 3",
                "    lines: 66-70, 79-84, 88",
                "  streaks.pressure.next (streaks.lua:24)",
                #"    arguments: {"current_streak":1,"longest_streak":1}, {"committed":true,"date":"2026-03-03","result":"NO","shield_used":false,"weekday":2}"#,
                #"    returned: {"current_streak":0,"longest_streak":1}"#,
                #"    knobs: streaks.pressure.extends[1] = "YES", streaks.pressure.extends[2] = null"#,
                "    lines: 25-30, 33",
            ])
        // The reminders of tier 1, read through the list of the tier.
        #expect(
            Self.explanation(result.stdout, line: 7).first { $0.hasPrefix("    knobs: escalation.reminders") }
                == #"    knobs: escalation.reminders[1][1] = "mid", escalation.reminders[1][2] = "close-60", escalation.reminders[1][3] = null"#
        )
        // A line that calls no rule says so.
        #expect(Self.explanation(result.stdout, line: 2) == ["  (no rule calls)"])
    }

    @Test func explainJSONAddsTheCallsToEachLine() throws {
        let result = try CLI.run(["replay", "examples/replay/escalation-week.jsonl", "--explain", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let out = try Self.objects(result.stdout)
        #expect(out.allSatisfy { $0["explain"] is [Any] })
        let calls = try #require(out.first { $0["line"] as? Int == 6 }?["explain"] as? [[String: Any]])
        #expect(calls.map { $0["function"] as? String } == ["escalation.transition", "streaks.pressure.next"])
        let transition = calls[0]
        #expect(transition["defined"] as? String == "escalation.lua:65")
        #expect(
            transition["arguments"] as? NSArray == [
                ["current_tier": 0, "consecutive_misses": 0, "consecutive_successes": 1], ["result": "NO"],
            ])
        #expect(transition["returned"] as? NSArray == [["current_tier": 1, "consecutive_misses": 1, "consecutive_successes": 0]])
        #expect(transition["error"] == nil)
        // The lines of escalation.lua a NO ran: the set-up, the else arm's loop down to tier 1, the return.
        #expect(transition["lines"] as? [Int] == [66, 67, 68, 69, 70, 79, 80, 81, 82, 83, 84, 88])
        let knobs = try #require(transition["knobs"] as? [[String: Any]])
        #expect(
            knobs.map { $0["name"] as? String } == [
                "escalation.tier_for_misses[3]", "escalation.tier_for_misses[2]", "escalation.tier_for_misses[1]", "escalation.max_tier",
            ])
        #expect(knobs.map { $0["value"] as? Int } == [3, 2, 1, 3])
        // "explain" is the last key: the line without it is the line replay prints without --explain.
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("{\"line\":6,") })
        #expect(
            line.hasSuffix("]}")
                && line.contains(#"}},"explain":[{"function":"escalation.transition","defined":"escalation.lua:65","arguments":["#))
    }

    @Test func aHabitStreakCallShowsItsPeriodsTaskUserAndKnobs() throws {
        let result = try CLI.run(["replay", "examples/replay/habits-and-miga.jsonl", "--explain", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let out = try Self.objects(result.stdout)
        let calls = try #require(out.first { $0["line"] as? Int == 5 }?["explain"] as? [[String: Any]])
        let run = try #require(calls.first)
        #expect(run["function"] as? String == "streaks.habit.streak")
        let arguments = try #require(run["arguments"] as? [Any])
        #expect(arguments.count == 3)
        let periods = try #require(arguments[0] as? [[String: Any]])
        #expect(periods.count == 1 && periods[0]["status"] as? String == "done" && periods[0]["completions"] as? Int == 1)
        #expect((arguments[1] as? [String: Any])?["name"] as? String == "run")
        #expect(run["returned"] as? NSArray == [["current": 1]])
        #expect((run["knobs"] as? [[String: Any]])?.first?["name"] as? String == "streaks.habit.min_completions")
        // A long list is cut, saying how much it left out: 9 days of periods on 2026-03-10 show 6.
        let cut = try CLI.folder([
            "events.jsonl": """
            {"at": "2026-03-02T07:05:00Z", "type": "habit_task", "task": "run"}
            {"at": "2026-03-10T07:30:00Z", "type": "habit_completion", "task": "run"}
            """
        ])
        defer { try? FileManager.default.removeItem(at: cut) }
        let long = try CLI.run(["replay", cut.appendingPathComponent("events.jsonl").path, "--explain", "json"])
        let first = try #require((try Self.objects(long.stdout)).last?["explain"] as? [[String: Any]]).first
        let shown = try #require((first?["arguments"] as? [Any])?.first as? [Any])
        #expect(shown.count == 7 && shown.last as? String == "… 3 more", "\(shown)")
    }

    @Test func aPricingCallShowsTheContextThePriceAndTheCostsItRead() throws {
        let result = try CLI.run(["replay", "examples/replay/earned-economy.jsonl", "--explain", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let out = try Self.objects(result.stdout)
        let calls = try #require(out.first { $0["line"] as? Int == 8 }?["explain"] as? [[String: Any]])
        let prices = calls.filter { $0["function"] as? String == "pricing.price" }
        #expect(prices.count == 3)
        let first = try #require(prices.first)
        let context = try #require((first["arguments"] as? [Any])?.first as? [String: Any])
        #expect(context["minutes"] as? Int == 5 && context["balance"] as? Int == 5 && context["strictness"] as? String == "STRICT")
        #expect(first["returned"] as? NSArray == [10])
        #expect(
            (first["knobs"] as? [[String: Any]])?.map { "\($0["name"] ?? "") = \($0["value"] ?? "")" }
                == ["pricing.credit_costs[1].minutes = 5", "pricing.credit_costs[1].credits = 10"])
    }

    @Test func aRefusedEventAndAFailingRuleAreExplained() throws {
        let dir = try CLI.folder([
            "rules/extends": CLI.packageRoot.appendingPathComponent("rules").path + "\n",
            "rules/escalation.lua": RuntimeFailure.error,
            "events.jsonl": """
            {"at": "2026-03-02T08:00:00Z", "type": "commitment", "text": "x"}
            {"at": "2026-03-02T08:01:00Z", "type": "check_in", "result": "YES"}
            {"at": "2026-03-28T08:00:00Z", "type": "tick"}
            """,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let arguments = ["replay", "events.jsonl", "--rules", "rules"]
        let result = try CLI.run(arguments + ["--explain", "json"], in: dir)
        #expect(result.status == 1, "\(result.stderr)")
        let out = try Self.objects(result.stdout)
        // Refused (the window is not open): the calls made before the refusal, then rolled back.
        #expect((out[1]["error"] as? [String: Any])?["code"] as? String == "WINDOW_NOT_OPEN")
        #expect(out[1]["explain"] is [Any])
        // The rule error: 19 transitions, then the one that raised, with its error and no returned.
        #expect((out[2]["error"] as? [String: Any])?["code"] as? String == "RULE_ERROR")
        let transitions = try #require(out[2]["explain"] as? [[String: Any]]).filter {
            $0["function"] as? String == "escalation.transition"
        }
        #expect(transitions.count == 20)
        #expect(transitions.dropLast().allSatisfy { $0["returned"] != nil && $0["error"] == nil })
        let failed = try #require(transitions.last)
        #expect(failed["returned"] == nil)
        #expect((failed["error"] as? String)?.hasPrefix("escalation.lua:8: boom on day 20") == true, "\(failed)")
        #expect(failed["defined"] as? String == "escalation.lua:3")
        let text = try CLI.run(arguments + ["--explain", "text"], in: dir)
        #expect(
            Self.explanation(text.stdout, line: 3).contains("    error: escalation.lua:8: boom on day 20"), "\(text.stdout.suffix(2000))")
    }

    /// Explaining changes nothing of what replay prints: every example, in both forms.
    @Test func theOutputIsTheSameWithAndWithoutExplain() throws {
        for file in ["escalation-week", "habits-and-miga", "habit-marks", "earned-economy"] {
            let path = "examples/replay/\(file).jsonl"
            let plain = try CLI.run(["replay", path])
            let text = try CLI.run(["replay", path, "--explain", "text"])
            let json = try CLI.run(["replay", path, "--explain", "json"])
            #expect(plain.status == text.status && plain.status == json.status)
            let lines = plain.stdout.split(separator: "\n")
            #expect(text.stdout.split(separator: "\n").filter { $0.hasPrefix("{") } == lines, "\(file)")
            let jsonLines = json.stdout.split(separator: "\n")
            #expect(jsonLines.count == lines.count)
            for (explained, line) in zip(jsonLines, lines) {
                #expect(explained.hasPrefix(line.dropLast()) && explained.dropFirst(line.count - 1).hasPrefix(#","explain":["#), "\(file)")
            }
        }
    }
}

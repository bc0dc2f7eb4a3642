import Foundation
import Testing

/// A habit task's `params` through `rulesrun replay` against a real rule folder whose streaks.lua
/// declares `grace_days` and whose streak depends on it (docs/rules.md, "params").
@Suite struct TaskParamsReplayTests {
    /// The default rules with `M.params.grace_days` (0…3, default 1): a task at 0 has no streak.
    static func rules() throws -> URL {
        let root = CLI.packageRoot.appendingPathComponent("rules")
        var files: [String: String] = [:]
        for name in ["escalation.lua", "streaks.lua", "pricing.lua", "quests.lua", "modes.lua"] {
            files[name] = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
        }
        let streaks = try #require(files["streaks.lua"])
        #expect(streaks.contains("  return { current = streak }\n"))
        files["streaks.lua"] =
            streaks
            .replacingOccurrences(
                of: "  return { current = streak }\n",
                with: "  return { current = task.params.grace_days == 0 and 0 or streak }\n"
            )
            .replacingOccurrences(
                of: "\nreturn M",
                with: """

                    M.params = { grace_days = { type = "integer", min = 0, max = 3, default = 1 } }

                    return M
                    """)
        return try CLI.folder(files)
    }

    func replay(_ events: String, rules: URL) throws -> [[String: Any]] {
        let dir = try CLI.folder(["events.jsonl": events])
        let result = try CLI.run(["replay", dir.appendingPathComponent("events.jsonl").path, "--rules", rules.path])
        return try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(result.stderr)")
        }
    }

    @Test func theStreakReadsEachTasksResolvedParams() throws {
        let rules = try Self.rules()
        let lines = try replay(
            """
            {"at":"2026-03-02T07:00:00Z","type":"habit_task","task":"strict","params":{"grace_days":0}}
            {"at":"2026-03-02T07:01:00Z","type":"habit_task","task":"usual"}
            {"at":"2026-03-02T08:00:00Z","type":"habit_completion","task":"strict"}
            {"at":"2026-03-02T08:01:00Z","type":"habit_completion","task":"usual"}
            {"at":"2026-03-02T08:02:00Z","type":"habit_task","task":"strict","params":{"grace_dys":2}}
            {"at":"2026-03-02T08:03:00Z","type":"habit_task","task":"strict","params":{"grace_days":7}}
            {"at":"2026-03-02T08:04:00Z","type":"habit_completion","task":"strict"}
            """, rules: rules)
        #expect(lines.count == 7)
        func streak(_ i: Int) -> Int? {
            ((lines[i]["decisions"] as? [String: Any])?["habit_completion"] as? [String: Any])?["current_streak"] as? Int
        }
        #expect(streak(2) == 0, "\(lines[2])")
        #expect(streak(3) == 1, "\(lines[3])")
        let errors = lines.map { ($0["error"] as? [String: Any]).map { "\($0["code"] ?? ""): \($0["message"] ?? "")" } ?? "ok" }
        #expect(errors[4] == "INVALID_EVENT: line 5: params.grace_dys: unknown param (did you mean 'grace_days'?)", "\(lines[4])")
        #expect(errors[5] == "INVALID_EVENT: line 6: params.grace_days: expected an integer between 0 and 3, found 7", "\(lines[5])")
        // Nothing was stored by the refusals: the task still has grace_days 0.
        #expect(streak(6) == 0, "\(lines[6])")
    }

    /// The default rules with `file` edited: `replacing` replaced, `params` declared before `return M`.
    static func rules(_ file: String, replacing old: String, with new: String, params: String) throws -> URL {
        let root = CLI.packageRoot.appendingPathComponent("rules")
        var files: [String: String] = [:]
        for name in ["escalation.lua", "streaks.lua", "pricing.lua", "quests.lua", "modes.lua"] {
            files[name] = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
        }
        let text = try #require(files[file])
        #expect(text.contains(old))
        files[file] = text.replacingOccurrences(of: old, with: new)
            .replacingOccurrences(of: "\nreturn M", with: "\nM.params = \(params)\n\nreturn M")
        return try CLI.folder(files)
    }

    @Test func theStreakProofNamesTheParamValueThatBreaksIt() throws {
        let rules = try Self.rules(
            "streaks.lua", replacing: "  return { current = streak }\n",
            with: "  return { current = task.params.grace_days == 3 and -1 or streak }\n",
            params: #"{ grace_days = { type = "integer", min = 0, max = 3, default = 1 } }"#)
        let result = try CLI.run(["validate", rules.path])
        #expect(
            result.stdout.contains(
                "streaks.lua:65: habit.streak([], daily task, times_per_day 1, params grace_days = 3) returned current -1"),
            "\(result.stdout)")
    }

    @Test func priceReadsCtxParams() throws {
        let old = "    if cost.minutes == ctx.minutes then return cost.credits end"
        let rules = try Self.rules(
            "pricing.lua", replacing: old,
            with: "    if cost.minutes == ctx.minutes then return ctx.params.factor == 2 and -cost.credits or cost.credits end",
            params: #"{ factor = { type = "integer", min = 1, max = 2, default = 1 } }"#)
        let result = try CLI.run(["validate", rules.path])
        #expect(result.stdout.contains("price returned -10 credits for 5 minutes, outside 0…10000 ("), "\(result.stdout)")
        #expect(result.stdout.contains("balance 0, params factor = 2)"), "\(result.stdout)")
    }

    @Test func aStoredValueTheNewRulesRefuseRefusesThatTasksEventsUntilItIsRedefined() throws {
        let streak = "  return { current = task.params.grace_days == 0 and 0 or streak }\n"
        let before = try Self.rules(
            "streaks.lua", replacing: "  return { current = streak }\n", with: streak,
            params: #"{ grace_days = { type = "integer", min = 0, max = 3, default = 1 } }"#)
        let after = try Self.rules(
            "streaks.lua", replacing: "  return { current = streak }\n", with: streak,
            params: #"{ grace_days = { type = "integer", min = 1, max = 3, default = 1 } }"#)
        let dir = try CLI.folder([
            "1.jsonl": #"{"at":"2026-03-02T07:00:00Z","type":"habit_task","task":"t","params":{"grace_days":0}}"# + "\n",
            "2.jsonl": """
            {"at":"2026-03-02T08:01:00Z","type":"habit_completion","task":"t"}
            {"at":"2026-03-02T08:01:30Z","type":"habit_task","task":"u"}
            {"at":"2026-03-02T08:02:00Z","type":"habit_task","task":"t","params":{"grace_days":2}}
            {"at":"2026-03-02T08:03:00Z","type":"habit_completion","task":"t"}
            """,
        ])
        let db = dir.appendingPathComponent("x.sqlite").path
        #expect(try CLI.run(["replay", dir.appendingPathComponent("1.jsonl").path, "--rules", before.path, "--db", db]).status == 0)
        let result = try CLI.run(["replay", dir.appendingPathComponent("2.jsonl").path, "--rules", after.path, "--db", db])
        let lines = try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(result.stderr)")
        }
        #expect(lines.count == 4)
        let error = lines.first?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "RULE_VIOLATION")
        #expect(
            error?["message"] as? String == #"line 1: habit task "t" stores a value streaks.lua's params no longer accept: "#
                + "params.grace_days: expected an integer between 1 and 3, found 0 (redefine the task with a habit_task that sets an accepted value)"
        )
        // Another task's event goes on: the state leaves "t" out and says why.
        #expect(lines[1]["ok"] as? Bool == true, "\(result.stdout)")
        let state = lines[1]["state"] as? [String: Any]
        #expect((state?["habit_streaks"] as? [String: Any])?.keys.sorted() == ["u"], "\(result.stdout)")
        let why = (state?["habit_streak_errors"] as? [String: Any])?["t"] as? String
        #expect(why?.hasPrefix(#"habit task "t" stores a value streaks.lua's params no longer accept: params.grace_days"#) == true)
        // Redefined with an accepted value, the task's completion counts (the refused one stored nothing).
        let last = ((lines.last?["decisions"] as? [String: Any])?["habit_completion"] as? [String: Any])
        #expect(last?["current_streak"] as? Int == 1 && last?["completions_in_period"] as? Int == 1, "\(result.stdout)")
    }
}

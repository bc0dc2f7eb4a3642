import Foundation
import Testing

/// What issue 18 asks of `validate` for authors and tools: every problem in one run, a JSON
/// report, a rule's print() silent while proving (and shown by replay), and `--version`.
@Suite struct ValidateReportTests {
    /// A folder extending the default rules whose streaks.lua writes `lines` (one a line, after `local M = base`).
    func extending(_ lines: [String]) throws -> URL {
        try CLI.folder([
            "extends": CLI.packageRoot.appendingPathComponent("rules").path,
            "streaks.lua": (["local M = base"] + lines + ["return M"]).joined(separator: "\n") + "\n",
        ])
    }

    static let threeWrongKnobs = [
        "M.habit.min_completions = -1", "M.habit.day_starts_at = \"25:00\"", "M.miga.current_day_grace = 3",
        "M.earned.habits_to_qualify = 0",
    ]

    @Test func everyWrongKnobOfAFileIsReportedAtItsLine() throws {
        let dir = try extending(Self.threeWrongKnobs)
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["validate", dir.path])
        #expect(result.status == 1)
        // A range, a decoding problem (no `LocalTime.` prefix), a type, another range: each at its own line, in the file's order.
        #expect(
            result.stdout.split(separator: "\n") == [
                "streaks.lua:2: habit.min_completions: must be at least 1, found -1",
                "streaks.lua:3: habit.day_starts_at: expected a time of day HH:MM (00:00–23:59), found \"25:00\"",
                "streaks.lua:4: miga.current_day_grace: expected a boolean, found integer 3",
                "streaks.lua:5: earned.habits_to_qualify: must be at least 1, found 0",
            ], "\(result.stdout)")
        #expect(result.stderr == "\(dir.path): 4 problems\n")
    }

    /// A bad field deep in a nested table hides neither its siblings nor the next section.
    @Test func aProblemInANestedTableDoesNotHideItsSiblings() throws {
        let dir = try extending([
            "M.earned.bonus_every_days = \"3\"", "M.earned.freeze_max = 1.5", "M.pressure.shield_resets_streak = 0",
            "M.earned.freeze_every_dayz = 2",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["validate", dir.path])
        #expect(result.status == 1)
        #expect(
            result.stdout.split(separator: "\n") == [
                "streaks.lua:2: earned.bonus_every_days: expected an integer, found string \"3\"",
                "streaks.lua:3: earned.freeze_max: expected an integer, found number 1.5",
                "streaks.lua:4: pressure.shield_resets_streak: expected a boolean, found integer 0",
                "streaks.lua:5: earned.freeze_every_dayz: unknown field (did you mean 'freeze_every_days'?)",
            ], "\(result.stdout)")
    }

    @Test func jsonGivesEachProblemsFileLineFieldAndMessage() throws {
        let dir = try extending(Self.threeWrongKnobs)
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["validate", dir.path, "--format", "json"])
        #expect(result.status == 1)
        #expect(result.stderr == "")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["folder"] as? String == dir.path)
        #expect(report["ok"] as? Bool == false)
        #expect(report["summary"] as? String == "4 problems")
        #expect((report["params"] as? [Any])?.isEmpty == true)
        #expect((report["unproved"] as? [Any])?.isEmpty == true)
        let problems = try #require(report["problems"] as? [[String: Any]])
        #expect(problems.count == 4)
        let first = try #require(problems.first)
        #expect(first["file"] as? String == "streaks.lua")
        #expect(first["line"] as? Int == 2)
        #expect(first["field"] as? String == "habit.min_completions")
        #expect(first["message"] as? String == "must be at least 1, found -1")
        #expect(first["severity"] as? String == "error")
        #expect(problems.map { $0["line"] as? Int } == [2, 3, 4, 5])
        // The members in the documented order.
        #expect(result.stdout.hasPrefix("{\"folder\":"))
        #expect(
            result.stdout.contains(
                "\"problems\":[{\"file\":\"streaks.lua\",\"line\":2,\"field\":\"habit.min_completions\",\"message\":\"must be at least 1, found -1\",\"severity\":\"error\"}"
            ))
    }

    @Test func jsonOfAValidSetHasItsSummaryParamsAndWhatWasNotProved() throws {
        let result = try CLI.run(["validate", "examples/loop-habits", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["ok"] as? Bool == true)
        #expect((report["problems"] as? [Any])?.isEmpty == true)
        let text = try CLI.run(["validate", "examples/loop-habits", "--all"]).stdout.split(separator: "\n").map(String.init)
        #expect(report["summary"] as? String == text[0].replacingOccurrences(of: "examples/loop-habits: ", with: ""))
        let params = try #require(report["params"] as? [[String: Any]])
        #expect(params.map { $0["name"] as? String } == ["calendar_weeks", "first_weekday"])
        #expect(params.first?["file"] as? String == "streaks.lua")
        #expect(params.first?["type"] as? String == "boolean")
        #expect(params.first?["default"] as? Bool == false)
        // The same lines as the text output's with --all (every file's), after the params line.
        #expect(report["unproved"] as? [String] == text.dropFirst(2).map { String($0.dropFirst(2)) })
    }

    /// A rule that prints is called thousands of times by the proofs: validate stays quiet; replay
    /// shows each print on standard error at its file and line, apart from the decisions.
    @Test func printIsSilentWhileValidatingAndShownByReplay() throws {
        let dir = try extending([
            "local bonus = M.earned.bonus", "M.earned.bonus = function(n)", "  print(\"bonus for\", n)", "  return bonus(n)", "end",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let validated = try CLI.run(["validate", dir.path])
        #expect(validated.status == 0, "\(validated.stderr)")
        #expect(!validated.stdout.contains("bonus for") && !validated.stderr.contains("bonus for"), "\(validated.stderr.prefix(300))")
        let replayed = try CLI.run(["replay", "examples/replay/earned-economy.jsonl", "--rules", dir.path])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stderr == "streaks.lua:4: print: bonus for\t1\n", "\(replayed.stderr)")
        #expect(!replayed.stdout.contains("bonus for"))
        // The decisions are the default rules' (the rule only printed).
        let plain = try CLI.run(["replay", "examples/replay/earned-economy.jsonl"])
        #expect(replayed.stdout == plain.stdout)
    }

    @Test func versionNamesThePackageAndTheLuaItEmbeds() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("rulesrun 0.18.0 (Lua 5.4."), "\(result.stdout)")
        #expect(result.stdout.hasSuffix(")\n"))
    }
}

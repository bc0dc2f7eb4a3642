import Foundation
import Testing

/// `replay --explain` narrowed: `--line N` (an event), `--line FILE:N` (the calls that ran a rule
/// line), `--only FUNCTION`, `--type EVENT`; and `--full`. Every output line is still printed.
@Suite struct ReplayExplainFilterTests {
    static let earned = "examples/replay/earned-economy.jsonl"

    /// The input lines whose output line has explanation lines under it (text), or an `explain` key (json).
    static func explained(_ stdout: String, json: Bool = false) throws -> [Int] {
        if json {
            return try ReplayExplainTests.objects(stdout).filter { $0["explain"] != nil }.compactMap { $0["line"] as? Int }
        }
        let lines = stdout.split(separator: "\n").map(String.init)
        return lines.indices.compactMap { i in
            guard i + 1 < lines.count, lines[i].hasPrefix("{"), !lines[i + 1].hasPrefix("{") else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(lines[i].utf8)) as? [String: Any])?["line"] as? Int
        }
    }

    static func functions(_ stdout: String, line: Int) -> [String] {
        ReplayExplainTests.explanation(stdout, line: line).filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.map {
            String($0.dropFirst(2).prefix { $0 != " " })
        }
    }

    @Test func lineAndTypeExplainOnlyTheirEventsAndPrintEveryLine() throws {
        let plain = try CLI.run(["replay", Self.earned])
        let byLine = try CLI.run(["replay", Self.earned, "--explain", "text", "--line", "8", "--line", "12"])
        #expect(byLine.status == 0, "\(byLine.stderr)")
        #expect(try Self.explained(byLine.stdout) == [8, 12])
        #expect(byLine.stdout.split(separator: "\n").filter { $0.hasPrefix("{") } == plain.stdout.split(separator: "\n"))
        let byType = try CLI.run(["replay", Self.earned, "--explain", "json", "--type", "unlock_choose"])
        let out = try ReplayExplainTests.objects(byType.stdout)
        #expect(out.count == plain.stdout.split(separator: "\n").count)
        #expect(
            try Self.explained(byType.stdout, json: true)
                == out.filter { $0["type"] as? String == "unlock_choose" }.compactMap { $0["line"] as? Int })
        // A line not explained is the line replay prints without --explain.
        let line1 = try #require(byType.stdout.split(separator: "\n").first)
        #expect(line1 == plain.stdout.split(separator: "\n").first)
        // Both: the unlock_choose events among lines 8 to 12.
        let both = try CLI.run(["replay", Self.earned, "--explain", "text", "--type", "unlock_choose", "--line", "8", "--line", "12"])
        #expect(try Self.explained(both.stdout) == [12])
    }

    @Test func onlyShowsTheCallsOfAFunctionAndTheEventsThatMadeThem() throws {
        let result = try CLI.run(["replay", Self.earned, "--explain", "text", "--only", "pricing.price"])
        #expect(result.status == 0, "\(result.stderr)")
        // The gates price; the credit unlock of line 12 shows its charge, from the gate's price.
        let explained = try Self.explained(result.stdout)
        #expect(explained.contains(8) && explained.contains(11) && explained.contains(12) && !explained.contains(6), "\(explained)")
        #expect(Set(Self.functions(result.stdout, line: 11)) == ["pricing.price"])
        #expect(ReplayExplainTests.explanation(result.stdout, line: 12).first?.hasPrefix("  charged 10 credits") == true)
        // Two functions.
        let two = try CLI.run(["replay", Self.earned, "--explain", "text", "--only", "pricing.price", "--only", "quests.quest_blocked"])
        #expect(Set(Self.functions(two.stdout, line: 11)) == ["pricing.price", "quests.quest_blocked"])
    }

    @Test func aRuleLineShowsTheCallsThatRanIt() throws {
        // quests.lua:70 (the QR key's check): the quest calls that got past the cooldown, not the others.
        let result = try CLI.run(["replay", Self.earned, "--explain", "json", "--line", "quests.lua:70"])
        #expect(result.status == 0, "\(result.stderr)")
        let all = try CLI.run(["replay", Self.earned, "--explain", "json"])
        func calls(_ stdout: String) throws -> [[String: Any]] {
            Array(try ReplayExplainTests.objects(stdout).compactMap { $0["explain"] as? [[String: Any]] }.joined())
        }
        let ran = try calls(all.stdout).filter {
            $0["function"] as? String == "quests.quest_blocked" && ($0["lines"] as? [Int])?.contains(70) == true
        }
        let shown = try calls(result.stdout)
        #expect(!ran.isEmpty && shown.count == ran.count)
        #expect(
            shown.map { ($0["arguments"] as? [[String: Any]])?.first?["quest_type"] as? String }
                == ran.map {
                    ($0["arguments"] as? [[String: Any]])?.first?["quest_type"] as? String
                })
        // Some quest calls stopped before it (a cooldown): they are left out.
        #expect(try calls(all.stdout).contains { $0["function"] as? String == "quests.quest_blocked" && $0["return_line"] as? Int == 69 })
        #expect(shown.allSatisfy { $0["return_line"] as? Int != 69 })
    }

    @Test func unknownNamesAreRefusedNamingTheOptionAndTheKnownNames() throws {
        let function = try CLI.run(["replay", Self.earned, "--explain", "text", "--only", "pricing.prise"])
        #expect(function.status == 2)
        #expect(
            function.stderr.contains(
                "--only: no rule function 'pricing.prise' (did you mean 'pricing.price'?); expected one of: escalation.transition,"))
        let type = try CLI.run(["replay", Self.earned, "--explain", "text", "--type", "chek_in"])
        #expect(type.status == 2)
        #expect(type.stderr.contains("--type: no event type 'chek_in' (did you mean 'check_in'?); expected one of: settings,"))
        let file = try CLI.run(["replay", Self.earned, "--explain", "text", "--line", "price.lua:3"])
        #expect(file.stderr.contains("--line: no rule file 'price.lua'") && file.stderr.contains("pricing.lua"), "\(file.stderr)")
        let malformed = try CLI.run(["replay", Self.earned, "--explain", "text", "--line", "0"])
        #expect(malformed.status == 2 && malformed.stderr.contains("expected N (a line of the events file, from 1) or FILE:N"))
        // A filter narrows --explain: alone it is refused.
        let alone = try CLI.run(["replay", Self.earned, "--only", "pricing.price"])
        #expect(alone.status == 2 && alone.stderr.contains("--only narrows --explain: add --explain text or --explain json"))
        #expect(alone.stdout.isEmpty)
    }

    @Test func fullShowsLongArgumentsWhole() throws {
        // 9 days of periods on 2026-03-10: 6 shown and "… 3 more", or all 9 with --full.
        let dir = try CLI.folder([
            "events.jsonl": """
            {"at": "2026-03-02T07:05:00Z", "type": "habit_task", "task": "run"}
            {"at": "2026-03-10T07:30:00Z", "type": "habit_completion", "task": "run"}
            """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        func periods(_ extra: [String]) throws -> [Any] {
            let result = try CLI.run(["replay", dir.appendingPathComponent("events.jsonl").path, "--explain", "json"] + extra)
            let first = try #require((try ReplayExplainTests.objects(result.stdout)).last?["explain"] as? [[String: Any]]).first
            return try #require((first?["arguments"] as? [Any])?.first as? [Any])
        }
        #expect(try periods([]).count == 7)
        let whole = try periods(["--full"])
        #expect(whole.count == 9 && whole.allSatisfy { $0 is [String: Any] }, "\(whole)")
    }
}

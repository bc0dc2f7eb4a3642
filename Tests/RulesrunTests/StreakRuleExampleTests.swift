import Foundation
import Testing

/// docs/rules.md's worked example: a streak policy written from scratch in under 40 lines
/// (`examples/weekly-streak/`: a week counts when done on 3 days or more, best streaks returned),
/// replayed through the CLI.
@Suite struct StreakRuleExampleTests {
    func decisions(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").compactMap { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["decisions"] as? [String: Any])?["habit_completion"] as? [String: Any]
        }
    }

    @Test func aWeeklyStreakWrittenFromScratchIsReplayed() throws {
        let source = try String(contentsOf: CLI.packageRoot.appendingPathComponent("examples/weekly-streak/streaks.lua"), encoding: .utf8)
        #expect(source.split(separator: "\n", omittingEmptySubsequences: false).count < 40)
        let run = try CLI.run(["replay", "examples/weekly-streak/weeks.jsonl", "--rules", "examples/weekly-streak"])
        #expect(run.status == 0, "\(run.stderr)")
        let completions = try decisions(run.stdout)
        // Weeks of 2026-01-05 (3 days: counts), 01-12 (2: breaks), 01-19 (4), 01-26 (3), then 02-02 running.
        #expect(completions.map { $0["current_streak"] as? Int } == [0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 2, 2])
        #expect(completions.map { $0["best_streak"] as? Int } == [0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2])
        let last = try #require(run.stdout.split(separator: "\n").last)
        #expect(
            last.contains(
                #""habit_best_streaks":{"read":[{"first":"2026-01-19","last":"2026-02-01","length":2},{"first":"2026-01-05","last":"2026-01-11","length":1}]}"#
            ), "\(last)")
    }

    /// The default rules return the current streak only: no best streak nor score in the output.
    @Test func theDefaultRulesPrintNoBestStreakNorScore() throws {
        let run = try CLI.run(["replay", "examples/weekly-streak/weeks.jsonl"])
        #expect(run.status == 0, "\(run.stderr)")
        let completions = try decisions(run.stdout)
        #expect(completions.map { $0["current_streak"] as? Int } == [1, 2, 3, 1, 1, 1, 2, 3, 4, 1, 2, 3, 1])
        #expect(!run.stdout.contains("best_streak") && !run.stdout.contains("habit_scores"))
    }
}

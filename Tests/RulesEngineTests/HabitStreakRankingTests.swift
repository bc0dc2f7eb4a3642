import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// A rule returns its best streaks in any order; the state shows the 10 longest, longest first,
/// the most recent first among equals (docs/rules.md).
@Suite struct HabitStreakRankingTests {
    func interval(_ first: String, _ last: String, _ length: Int) throws -> HabitStreak.Interval {
        HabitStreak.Interval(first: try DayID(first), last: try DayID(last), length: length)
    }

    /// 12 runs of lengths 1…3, oldest first, as a rule walking the history forwards builds them.
    func twelveRuns() throws -> [HabitStreak.Interval] {
        try (0..<12).map { k in
            let first = try DayID("2026-01-01").adding(days: 10 * k)!
            let length = k % 3 + 1
            return HabitStreak.Interval(first: first, last: first.adding(days: length - 1)!, length: length)
        }
    }

    @Test func rankingKeepsTheTenLongestMostRecentFirstAmongEquals() throws {
        let runs = try twelveRuns()
        let ranked = HabitStreak(current: 0, best: runs).ranked().best!
        #expect(ranked.count == HabitStreak.maxBest)
        #expect(ranked.map(\.length) == [3, 3, 3, 3, 2, 2, 2, 2, 1, 1])
        // Among equals the most recent first: the two oldest 1-day runs are the ones dropped.
        #expect(ranked.prefix(4).map(\.last) == [runs[11].last, runs[8].last, runs[5].last, runs[2].last])
        #expect(ranked.suffix(2).map(\.first) == [runs[9].first, runs[6].first])
        #expect(HabitStreak(current: 0, best: runs).violation(periods: 200) == nil)
        // A bounded list: more than maxReturnedBest is refused.
        let many = Array(repeating: try interval("2026-01-01", "2026-01-01", 1), count: HabitStreak.maxReturnedBest + 1)
        #expect(HabitStreak(current: 0, best: many).violation(periods: 10) == "4001 best streaks, at most 4000")
    }

    /// `habit.best_order = "newest"` keeps the same 10 runs and lists them newest first (by last
    /// day); the longest's length is the same either way.
    @Test func newestFirstKeepsTheSameRuns() throws {
        let runs = try twelveRuns()
        let longest = HabitStreak(current: 0, best: runs).ranked()
        let newest = HabitStreak(current: 0, best: runs).ranked(.newest)
        #expect(Set(newest.best!.map(\.first)) == Set(longest.best!.map(\.first)))
        #expect(newest.best!.map(\.last) == longest.best!.map(\.last).sorted(by: >))
        #expect(newest.best!.first?.first == runs[11].first)
        #expect(newest.longestBest == 3 && longest.longestBest == 3)
        #expect(HabitStreak(current: 0).longestBest == nil && HabitStreak(current: 0, best: []).longestBest == 0)
    }

    /// Through the engine: a rule returning every day as its own run, oldest first, shows the 10
    /// most recent days in the state.
    @Test func theStateShowsTheRankedBestStreaks() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ranking-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try RuleFixture.rulesFolder.path.write(to: dir.appendingPathComponent("extends"), atomically: true, encoding: .utf8)
        try """
        local M = base
        function M.habit.streak(periods, task, user)
          local runs = {}
          for i = #periods, 1, -1 do
            local p = periods[i]
            if p.completions > 0 then runs[#runs + 1] = { first = p.start_date, last = p.end_date, length = 1 } end
          end
          return { current = #runs > 0 and 1 or 0, best = runs }
        end
        return M
        """.write(to: dir.appendingPathComponent("streaks.lua"), atomically: true, encoding: .utf8)
        let replay = Replay(engine: Engine(store: try Store.inMemory(), rules: try RuleSet.load(dir.path, proving: false)))
        var lines = [#"{"at": "2026-03-01T08:00:00Z", "type": "habit_task", "task": "read"}"#]
        for d in 1...12 { lines.append(#"{"at": "2026-03-\#(String(format: "%02d", d))T09:00:00Z", "type": "habit_completion", "task": "read"}"#) }
        var last = JSONValue.null
        for (i, line) in lines.enumerated() {
            last = replay.output(forLine: line, number: i + 1)
            #expect(last["ok"] == .bool(true), "\(last)")
        }
        let best = try #require(last["state"]?["habit_best_streaks"]?["read"])
        let days = (3...12).reversed().map { String(format: "2026-03-%02d", $0) }
        #expect(best.description == "[" + days.map { #"{"first":"\#($0)","last":"\#($0)","length":1}"# }.joined(separator: ",") + "]")
    }
}

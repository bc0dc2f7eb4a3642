import Foundation
import GRDB
import Testing

/// `simulate` with a persona that skips, equips and uses streak freezes and completes days late
/// (examples/personas/streak-keeper.lua), on a rule set that returns best streaks: the report
/// counts what the database holds, and the same seed gives the same report whatever the jobs.
@Suite struct StreakPersonaSimulateTests {
    static let run = [
        "simulate", "14d", "--users", "24", "--seed", "7", "--rules", "examples/duolingo-streak", "--persona", "streak-keeper",
        "--no-responses",  // every user every day (nobody leaves): the counts are the point
        "--format", "json",
    ]

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func theReportCountsTheSkipsFreezesAndLateCompletionsTheDatabaseHolds() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("a.sqlite").path
        let one = try CLI.run(Self.run + ["--jobs", "1", "--db", db])
        #expect(one.status == 0, "\(one.stderr)")
        let two = try CLI.run(Self.run + ["--jobs", "2", "--db", dir.appendingPathComponent("b.sqlite").path])
        #expect(two.status == 0, "\(two.stderr)")
        #expect(one.stdout == two.stdout)

        let report = try object(one.stdout)
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["refused_events"] as? Int == 0)  // duolingo-streak allows a day back (late)
        let marks = try #require(summary["habit_marks"] as? [String: Int], "\(summary.keys.sorted())")
        let (skips, equipped, used, late) = (
            marks["skips"] ?? 0, marks["freezes_equipped"] ?? 0, marks["freezes_used"] ?? 0, marks["late"] ?? 0
        )
        #expect(skips > 0 && equipped > 0 && used > 0 && late > 0, "\(marks)")
        #expect(used <= equipped)
        // Each of the 24 users' 3 tasks has a longest best streak on the last day (the rule returns them).
        let best = try #require(summary["habit_best_streaks"] as? [String: Any])
        #expect(best["tasks"] as? Int == 72)
        #expect((best["max"] as? Int ?? 0) >= 2 && (best["mean"] as? Double ?? 0) > 0, "\(best)")
        #expect(summary["habit_score"] == nil)  // duolingo-streak returns no score
        let days = try #require(report["days"] as? [[String: Any]])
        #expect(days.reduce(0) { $0 + ($1["habit_skips"] as? Int ?? 0) } == skips)
        #expect(days.allSatisfy { ($0["best_streak_histogram"] as? [Int])?.reduce(0, +) == 72 })

        let queue = try DatabaseQueue(path: db)
        defer { try? queue.close() }
        let rows = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT kind, count(*) AS n FROM tracker_day_mark GROUP BY kind").map {
                ($0["kind"] as String, $0["n"] as Int)
            }
        }
        let counts = Dictionary(uniqueKeysWithValues: rows)
        #expect(counts["skip"] == skips)
        #expect(counts["freezeEquipped"] == equipped)
        #expect(counts["freezeUsed"] == used)
        let completions = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM tracker_completion") ?? -1 }
        let done = days.reduce(0) { $0 + ($1["habit_done"] as? Int ?? 0) }
        #expect(completions == done + late)
        // The runs log their distance (3–8 km, to 0.1); the other tasks have no goal, no value.
        let values = try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT t.title, c.value FROM tracker_completion c JOIN tracker_task t ON t.task_key = c.task_key
                    """
            ).map { ($0["title"] as String, $0["value"] as Double?) }
        }
        let runs = values.filter { $0.0 == "run" }.compactMap(\.1)
        #expect(!runs.isEmpty && runs.count == values.filter { $0.0 == "run" }.count)
        #expect(runs.allSatisfy { (3...8).contains($0) && ($0 * 10).rounded() == $0 * 10 }, "\(runs)")
        #expect(values.filter { $0.0 != "run" }.allSatisfy { $0.1 == nil })
    }

    @Test func shardReportsWithSkipsFreezesAndBestStreaksMergeIntoTheWholeReport() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let small = Array(Self.run.dropLast(2)) + ["--no-db"]
        let whole = try CLI.run(small)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdout.contains("habit skips and freezes") && whole.stdout.contains("habit best streaks"), "\(whole.stdout)")
        var parts: [String] = []
        for i in 1...2 {
            let path = dir.appendingPathComponent("part\(i).json").path
            let shard = try CLI.run(small + ["--shard", "\(i)/2", "--format", "json", "--out", path])
            #expect(shard.status == 0, "\(shard.stderr)")
            parts.append(path)
        }
        let merged = try CLI.run(["merge"] + parts)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
    }

    @Test func aFreezeEveryThreeDaysIsEquippedOnTheFirstDayAndEveryThirdAfterUpToMax() throws {
        let dir = try CLI.folder([
            "saver.lua": """
            return {
              description = "Never misses, equips a freeze every 3 days, holds at most 2",
              commit = 0.5,
              answer = { yes = 0.5, no = 0.2 },
              habits = { { task = "read", rate = 1, freeze = { every = 3, max = 2 } } },
            }
            """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run([
            "simulate", "9d", "--users", "4", "--no-db", "--no-responses", "--persona", dir.appendingPathComponent("saver.lua").path,
            "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let days = try #require(try object(result.stdout)["days"] as? [[String: Any]])
        // Days 1, 4 (then it holds 2: day 7 equips none), none used (it never misses).
        #expect(days.map { $0["freezes_equipped"] as? Int } == [4, 0, 0, 4, 0, 0, 0, 0, 0])
        #expect(days.allSatisfy { $0["freezes_used"] as? Int == 0 && $0["habit_skips"] as? Int == 0 })
    }

    @Test func theDefaultRulesReportSkipsAndFreezesButNoBestStreaks() throws {
        let result = try CLI.run(["simulate", "7d", "--users", "8", "--no-db", "--persona", "streak-keeper"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  habit skips and freezes     "), "\(result.stdout)")
        #expect(!result.stdout.contains("habit best streaks"))
        // rules/ allows no completion of a past day: the late ones are refused, as the engine says.
        #expect(!result.stdout.contains(" 0 refused)"), "\(result.stdout)")
    }
}

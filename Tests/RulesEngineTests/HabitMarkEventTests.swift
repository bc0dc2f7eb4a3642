import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// Issue 17's habit events in the engine: how far back `habit.max_backfill_days` lets events
/// reach, a user's own `day_starts_at` (kept with the engine's state), and refusals that change nothing.
@Suite struct HabitMarkEventTests {
    func line(_ at: String, _ fields: String) -> String { #"{"at": "\#(at)", \#(fields)}"# }

    func decision(_ out: JSONValue, _ type: String, _ field: String) -> JSONValue? { out["decisions"]?[type]?[field] }

    @Test func completionsUnchecksAndSkipsReachBackAsFarAsTheKnob() throws {
        let source = try RuleFixture.edited([("max_backfill_days = 0,", "max_backfill_days = 2,")], in: "streaks.lua")
        let folder = try RuleFixture.folder(replacing: "streaks.lua", with: source)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Store.inMemory()
        let replay = Replay(engine: try Engine(store: store, ruleFolder: folder.path))
        let harness = [
            line("2026-03-02T08:00:00Z", #""type": "habit_task", "task": "read""#),
            line("2026-03-05T08:00:00Z", #""type": "habit_completion", "task": "read", "for_day": "2026-03-03""#),
            line("2026-03-05T08:01:00Z", #""type": "habit_completion", "task": "read", "for_day": "2026-03-04""#),
            line("2026-03-05T08:02:00Z", #""type": "habit_completion", "task": "read""#),
        ].enumerated().map { replay.output(forLine: $1, number: $0 + 1) }
        #expect(harness.allSatisfy { $0["ok"] == .bool(true) }, "\(harness)")
        #expect(decision(harness[3], "habit_completion", "current_streak") == .int(3))
        let user = try #require(try store.users().first)
        let task = try #require(try store.read { try $0.tasks(user) }.first)
        #expect(
            try store.completions(user, taskID: task.id, from: 0, to: .max).map(\.completedAt)
                == [
                    try DayID("2026-03-04").utcStartMillis - 1, try DayID("2026-03-05").utcStartMillis - 1,
                    try DayID("2026-03-05").utcStartMillis + 8 * 3_600_000 + 120_000,
                ])

        let tooFar = replay.output(
            forLine: line("2026-03-05T09:00:00Z", #""type": "habit_completion", "task": "read", "for_day": "2026-03-02""#), number: 5)
        #expect(
            tooFar["error"]?["message"]
                == .string(
                    "line 5: for_day: expected a day from 2026-03-03 to 2026-03-05 (habit.max_backfill_days is 2; the task starts 2026-03-02), found 2026-03-02"
                ))
        let uncheck = replay.output(
            forLine: line("2026-03-05T09:01:00Z", #""type": "habit_uncheck", "task": "read", "day": "2026-03-03""#), number: 6)
        #expect(decision(uncheck, "habit_uncheck", "current_streak") == .int(2), "\(uncheck)")
        #expect(decision(uncheck, "habit_uncheck", "completions_on_day") == .int(0))
        #expect(try store.completions(user, taskID: task.id, from: 0, to: .max).count == 2)
        let skip = replay.output(
            forLine: line("2026-03-05T09:02:00Z", #""type": "habit_skip", "task": "read", "day": "2026-03-03""#), number: 7)
        #expect(skip["ok"] == .bool(true), "\(skip)")
        #expect(try store.dayMarks(user, taskID: task.id, fromDay: DayID("2026-03-01"), toDay: DayID("2026-03-31")).map(\.kind) == [.skip])
    }

    @Test func theKnobIsCheckedWhenTheRulesLoad() throws {
        let found = try RuleFixture.problems("max_backfill_days = 0,", "max_backfill_days = 400,", in: "streaks.lua")
        #expect(
            found.map(\.description) == [
                "streaks.lua:\(try RuleFixture.line(of: "max_backfill_days = 0,", in: "streaks.lua")): habit.max_backfill_days: must be between 0 and 365 days, found 400"
            ])
    }

    @Test func aUsersDayStartIsKeptWithTheEnginesStateAndMovesItsHabitDays() throws {
        let store = try Store.inMemory()
        let first = StoreReplay(engine: try Engine(store: store, ruleFolder: RuleFixture.rulesFolder.path))
        first.run([
            line("2026-03-02T07:00:00Z", #""type": "settings", "timezone": "UTC", "day_starts_at": "04:00""#),
            line("2026-03-02T07:01:00Z", #""type": "habit_task", "task": "read""#),
        ])
        // Another engine on the same database reads the user's day start from engine_state.
        let second = StoreReplay(engine: try Engine(store: store, ruleFolder: RuleFixture.rulesFolder.path))
        let late = second.run([
            line("2026-03-03T02:30:00Z", #""type": "habit_completion", "task": "read""#),
            line("2026-03-03T04:30:00Z", #""type": "habit_completion", "task": "read""#),
        ])
        #expect(decision(late[0], "habit_completion", "period") == .string("2026-03-02"))
        #expect(decision(late[1], "habit_completion", "period") == .string("2026-03-03"))
        #expect(decision(late[1], "habit_completion", "current_streak") == .int(2))
    }

    @Test func aRefusedMarkChangesNothing() throws {
        let store = try Store.inMemory()
        let harness = StoreReplay(engine: try Engine(store: store, ruleFolder: RuleFixture.rulesFolder.path))
        harness.run([
            line("2026-03-02T07:00:00Z", #""type": "habit_task", "task": "read""#),
            line("2026-03-02T07:01:00Z", #""type": "habit_freeze", "task": "read", "action": "use""#),
            line("2026-03-02T07:02:00Z", #""type": "habit_freeze", "task": "read", "action": "equip""#),
            line("2026-03-02T07:03:00Z", #""type": "habit_freeze", "task": "read", "action": "equip""#),
        ])
        let before = try store.dump()
        let again = harness.one(line("2026-03-02T07:04:00Z", #""type": "habit_freeze", "task": "read", "action": "use""#))
        #expect(again["error"]?["code"] == .string("INVALID_EVENT"))
        #expect(
            again["error"]?["message"]
                == .string(#"line 1: day: expected a day without a used freeze of habit task "read", found 2026-03-02, which has one"#))
        #expect(try store.dump() == before)
        let user = try #require(try store.users().first)
        #expect(
            try store.dayMarks(user, taskID: nil, fromDay: DayID("2026-03-02"), toDay: DayID("2026-03-02")).map(\.kind)
                == [.freezeUsed, .freezeEquipped, .freezeEquipped])
    }
}

/// Replays lines on an engine of a given store, every line expected to be accepted.
private struct StoreReplay {
    let replay: Replay
    init(engine: Engine) { replay = Replay(engine: engine) }

    @discardableResult
    func run(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) -> [JSONValue] {
        lines.enumerated().map { i, line in
            let out = replay.output(forLine: line, number: i + 1)
            if out["ok"] != .bool(true) { Issue.record("line \(i + 1) was refused: \(out)", sourceLocation: sourceLocation) }
            return out
        }
    }

    func one(_ line: String) -> JSONValue { replay.output(forLine: line, number: 1) }
}

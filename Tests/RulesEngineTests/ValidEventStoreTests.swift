import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// Valid events the store used to refuse (`STORE_ERROR`), each through an engine on an SQLite file:
/// a task that starts later, a task created before the habit day starts, a QR key of white space
/// only, a goal dropped from a task whose completions have values.
@Suite struct ValidEventStoreTests {
    func line(_ at: String, _ fields: String) -> String { #"{"at": "\#(at)", \#(fields)}"# }

    /// Replays `lines` on an engine of a new database file (with `rules`, the default rule set
    /// when nil) and returns the outputs and the store.
    func replay(_ lines: [String], rules: URL? = nil) throws -> ([JSONValue], Store) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("valid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store.open(path: directory.appendingPathComponent("events.sqlite").path)
        let replay = Replay(engine: try Engine(store: store, ruleFolder: (rules ?? RuleFixture.rulesFolder).path))
        return (lines.enumerated().map { replay.output(forLine: $1, number: $0 + 1) }, store)
    }

    func code(_ out: JSONValue) -> String? { out["error"]?["code"]?.string }
    func message(_ out: JSONValue) -> String? { out["error"]?["message"]?.string }

    /// A task whose `start_date` is after the user's current day is a task scheduled to start
    /// later (Habitica's daily with a future start date): applied, no periods until its start, so
    /// a streak of 0; a completion before it starts names the day it was for; from its start on
    /// it counts like any other.
    @Test func aTaskMayStartOnALaterDay() throws {
        let (outs, store) = try replay([
            line("2026-03-02T07:00:00Z", #""type": "habit_task", "task": "run", "start_date": "2026-03-04""#),
            line("2026-03-02T07:01:00Z", #""type": "habit_task", "task": "read", "measurement": "weekly", "start_date": "2026-03-06""#),
            line("2026-03-02T08:00:00Z", #""type": "habit_completion", "task": "run""#),
            line("2026-03-02T08:01:00Z", #""type": "habit_skip", "task": "run""#),
            line("2026-03-02T08:02:00Z", #""type": "habit_skip", "task": "run", "day": "2026-03-05""#),
            line("2026-03-02T08:03:00Z", #""type": "habit_freeze", "task": "run", "action": "equip""#),
            line("2026-03-02T08:04:00Z", #""type": "habit_uncheck", "task": "run""#),
            line("2026-03-04T08:00:00Z", #""type": "habit_completion", "task": "run""#),
            line("2026-03-06T08:00:00Z", #""type": "habit_completion", "task": "run""#),
        ])
        #expect(outs[0]["ok"] == .bool(true), "\(outs[0])")
        #expect(outs[0]["decisions"]?["habit_task"]?["start_date"] == .string("2026-03-04"))
        #expect(outs[0]["state"]?["habit_streaks"] == .object([("run", .int(0))]))
        #expect(outs[1]["state"]?["habit_streaks"] == .object([("read", .int(0)), ("run", .int(0))]), "\(outs[1])")
        #expect(code(outs[2]) == "INVALID_EVENT")
        #expect(
            message(outs[2])
                == #"line 3: for_day: expected a day from the task's start, 2026-03-04, up to today, 2026-03-02, found 2026-03-02 (today, as none was given): habit task "run" has not started yet"#
        )
        #expect(
            message(outs[3])
                == #"line 4: day: expected a day from the task's start, 2026-03-04, to 2027-03-03, found 2026-03-02 (today, as none was given): habit task "run" has not started yet"#
        )
        #expect(outs[4]["ok"] == .bool(true), "a skip planned on a day after the start: \(outs[4])")
        #expect(code(outs[5]) == "INVALID_EVENT" && code(outs[6]) == "INVALID_EVENT", "\(outs[5]) \(outs[6])")
        #expect(outs[7]["decisions"]?["habit_completion"]?["current_streak"] == .int(1), "\(outs[7])")
        // 2026-03-05 is skipped, which the default rule does not count: the streak starts again.
        #expect(outs[8]["decisions"]?["habit_completion"]?["current_streak"] == .int(1), "\(outs[8])")
        #expect(try store.checkInvariants().isEmpty)
    }

    /// At 00:30 with habit days that start at 03:00 the habit day is still the day before: a task
    /// created then counts from that day, and one given the calendar date as its start date starts
    /// at 03:00 — both applied.
    @Test func aTaskCreatedBeforeTheHabitDayStartsIsApplied() throws {
        let (outs, store) = try replay([
            line("2026-03-02T20:00:00+01:00", #""type": "settings", "timezone": "Europe/Paris", "day_starts_at": "03:00""#),
            line("2026-03-03T00:30:00+01:00", #""type": "habit_task", "task": "run""#),
            line("2026-03-03T00:31:00+01:00", #""type": "habit_task", "task": "read", "start_date": "2026-03-03""#),
            line("2026-03-03T00:40:00+01:00", #""type": "habit_completion", "task": "run""#),
            line("2026-03-03T00:41:00+01:00", #""type": "settings", "day_starts_at": "00:00""#),
            line("2026-03-03T00:42:00+01:00", #""type": "settings", "day_starts_at": "03:00""#),
            line("2026-03-03T03:00:00+01:00", #""type": "habit_completion", "task": "read""#),
        ])
        #expect(outs.allSatisfy { $0["ok"] == .bool(true) }, "\(outs)")
        #expect(outs[3]["decisions"]?["habit_completion"]?["period"] == .string("2026-03-02"))
        #expect(outs[6]["decisions"]?["habit_completion"]?["period"] == .string("2026-03-03"))
        #expect(outs[6]["state"]?["habit_streaks"] == .object([("read", .int(1)), ("run", .int(1))]), "\(outs[6])")
        #expect(try store.checkInvariants().isEmpty)
    }

    /// The QR key is text a person types or scans: white space only, or a control character, is
    /// an input error naming `value`, as its length is.
    @Test func aQRKeyOfWhiteSpaceIsAnInputError() throws {
        let (outs, _) = try replay([
            line("2026-03-02T08:00:00Z", #""type": "qr_key", "value": " ""#),
            line("2026-03-02T08:01:00Z", #""type": "qr_key", "value": "a\u0001""#),
            line("2026-03-02T08:02:00Z", #""type": "qr_key", "value": " key ""#),
        ])
        #expect(message(outs[0]) == #"line 1: value: expected not only white space, found " ""#)
        #expect(message(outs[1]) == "line 2: value: expected no control characters, found U+1")
        #expect(outs[2]["ok"] == .bool(true), "\(outs[2])")
    }

    /// A completion keeps the value it was recorded with, and a task without a goal has none
    /// (habit-tracker-data-model.md §2): a task whose completions have values keeps a goal.
    @Test func aGoalIsKeptWhileCompletionsHaveValues() throws {
        let (outs, store) = try replay([
            line(
                "2026-03-02T08:00:00Z", #""type": "habit_task", "task": "water", "goal_type": "cups", "goal_value": 8, "goal_unit": "cups""#
            ),
            line("2026-03-02T08:01:00Z", #""type": "habit_completion", "task": "water", "value": 2"#),
            line("2026-03-02T08:02:00Z", #""type": "habit_task", "task": "water", "goal_type": "none""#),
            line(
                "2026-03-02T08:03:00Z",
                #""type": "habit_task", "task": "water", "goal_type": "capacity", "goal_value": 2, "goal_unit": "L""#),
            line(
                "2026-03-02T08:04:00Z", #""type": "habit_task", "task": "tea", "goal_type": "cups", "goal_value": 8, "goal_unit": "cups""#),
            line("2026-03-02T08:05:00Z", #""type": "habit_completion", "task": "tea""#),
            line("2026-03-02T08:06:00Z", #""type": "habit_task", "task": "tea", "goal_type": "none""#),
        ])
        #expect(code(outs[2]) == "INVALID_EVENT")
        #expect(
            message(outs[2])
                == #"line 3: goal_type: expected a goal for habit task "water", whose completions have values (1 of them), found "none""#)
        #expect(outs[3]["ok"] == .bool(true), "another goal: \(outs[3])")
        #expect(outs[6]["ok"] == .bool(true), "completions without values: \(outs[6])")
        #expect(try store.checkInvariants().isEmpty)
    }

    /// A task's name may have 200 characters (the schema's limit for a name); its title, when
    /// none is given, is the name's first 100 characters (a title's limit), not a refusal.
    @Test func aTaskOfALongNameTakesItsFirstCharactersAsTitle() throws {
        let name = String(repeating: "é", count: 200)
        let (outs, store) = try replay([
            line("2026-03-02T07:00:00Z", #""type": "habit_task", "task": "\#(name)""#),
            line("2026-03-02T08:00:00Z", #""type": "habit_completion", "task": "\#(name)""#),
        ])
        #expect(outs[0]["ok"] == .bool(true), "\(outs[0])")
        #expect(outs[1]["ok"] == .bool(true), "\(outs[1])")
        #expect(try store.checkInvariants().isEmpty)
    }
}

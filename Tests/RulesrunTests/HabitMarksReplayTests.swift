import Foundation
import Testing

/// Issue 17's habit events through `rulesrun replay`: the example file, and every new field
/// refused with its line, its name as the file spells it, what was expected and what was found.
@Suite struct HabitMarksReplayTests {
    @Test func theExampleReplaysTheNewHabitEvents() throws {
        let result = try CLI.run(["replay", "examples/replay/habit-marks.jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.count == 15 && objects.allSatisfy { $0["ok"] as? Bool == true }, "\(result.stdout)")
        func decision(_ type: String, at: String) -> [String: Any]? {
            let object = objects.first { $0["type"] as? String == type && $0["at"] as? String == at }
            return (object?["decisions"] as? [String: Any])?[type] as? [String: Any]
        }
        let gym = try #require(decision("habit_task", at: "2026-03-02T07:01:00+01:00"))
        #expect(gym["frequency"] as? String == "times_in_days" && gym["times"] as? Int == 3 && gym["days"] as? Int == 7)
        #expect(gym["start_date"] as? String == "2026-03-02")
        #expect(decision("habit_task", at: "2026-03-02T07:03:00+01:00")?["goal_direction"] as? String == "at_most")
        #expect(decision("habit_task", at: "2026-03-02T07:05:00+01:00")?["days_of_month"] as? [Int] == [1, 31])
        // Unchecking removes the later of water's two completions of the day.
        #expect(decision("habit_uncheck", at: "2026-03-02T09:00:00+01:00")?["completions_on_day"] as? Int == 1)
        #expect(decision("habit_uncheck", at: "2026-03-02T09:05:00+01:00")?["current_streak"] as? Int == 0)
        // Habit days start at 04:00 for this user: 02:30 on the 3rd is still the 2nd.
        #expect(decision("habit_completion", at: "2026-03-03T02:30:00+01:00")?["period"] as? String == "2026-03-02")
        #expect(decision("habit_skip", at: "2026-03-03T10:05:00+01:00")?["day"] as? String == "2026-03-07")
        let freeze = try #require(decision("habit_freeze", at: "2026-03-03T10:11:00+01:00"))
        #expect(freeze["action"] as? String == "use" && freeze["day"] as? String == "2026-03-03" && freeze["freezes_equipped"] as? Int == 1)
    }

    @Test func newFieldsAreRefusedNamingTheLineTheFieldAndWhatWasExpected() throws {
        let dir = try CLI.folder([
            "events.jsonl": """
            {"at":"2026-03-02T07:00:00Z","type":"habit_task","task":"t","frequency":"times_in_days","times":9,"days":7}
            {"at":"2026-03-02T07:01:00Z","type":"habit_task","task":"t","frequency":"weekly"}
            {"at":"2026-03-02T07:02:00Z","type":"habit_task","task":"t","frequency":"every_n_days","every":1}
            {"at":"2026-03-02T07:03:00Z","type":"habit_task","task":"t","frequency":"days_of_month","days_of_month":[0]}
            {"at":"2026-03-02T07:04:00Z","type":"habit_task","task":"t","goal_direction":"most"}
            {"at":"2026-03-02T07:05:00Z","type":"habit_task","task":"t","goal_direction":"at_most"}
            {"at":"2026-03-02T07:06:00Z","type":"habit_task","task":"t","start_date":"2026-02-30"}
            {"at":"2026-03-02T07:07:00Z","type":"habit_task","task":"t","params":{"Freeze":1}}
            {"at":"2026-03-02T07:08:00Z","type":"habit_task","task":"t","params":{"x":[1]}}
            {"at":"2026-03-02T07:09:00Z","type":"habit_task","task":"t","times":3}
            {"at":"2026-03-02T07:10:00Z","type":"habit_task","task":"t"}
            {"at":"2026-03-02T07:11:00Z","type":"habit_freeze","task":"t","action":"thaw"}
            {"at":"2026-03-02T07:12:00Z","type":"habit_skip","task":"t","day":"2026-03-01"}
            {"at":"2026-03-02T07:13:00Z","type":"habit_uncheck","task":"t"}
            {"at":"2026-03-02T07:14:00Z","type":"habit_completion","task":"t","for_day":"2026-03-01"}
            {"at":"2026-03-02T07:15:00Z","type":"settings","day_starts_at":"25:00"}
            {"at":"2026-03-02T07:16:00Z","type":"habit_skip","task":"t"}
            {"at":"2026-03-02T07:17:00Z","type":"habit_skip","task":"t"}
            """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["replay", dir.appendingPathComponent("events.jsonl").path])
        #expect(result.status == 2)
        let messages = try result.stdout.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return ((object["error"] as? [String: Any])?["message"] as? String) ?? "ok"
        }
        #expect(
            messages == [
                "line 1: times: expected between 1 and 7, found 9",
                #"line 2: frequency: expected one of "daily", "specificDays", "times_in_days", "every_n_days", "days_of_month", found "weekly""#,
                "line 3: every: expected between 2 and 365, found 1",
                "line 4: days_of_month: expected between 1 and 31, found 0",
                #"line 5: goal_direction: expected one of "at_least", "at_most", found "most""#,
                #"line 6: goal_value: expected a value when goal_direction is "at_most" (a ceiling), found none"#,
                #"line 7: start_date: expected a calendar date YYYY-MM-DD, found "2026-02-30""#,
                #"line 8: params: expected names of [a-z][a-z0-9_]*, at most 40 bytes, found "Freeze""#,
                "line 9: params.x: expected a boolean, a number or a string, found a table",
                #"line 10: times: expected only with frequency "times_in_days", found frequency "daily""#,
                "ok",
                #"line 12: action: expected one of "use", "equip", found string "thaw""#,
                "line 13: day: expected today or a later day, up to 2027-03-03, found 2026-03-01",
                #"line 14: day: expected a day with a completion of habit task "t" to remove, found none on 2026-03-02"#,
                "line 15: for_day: expected today (2026-03-02; habit.max_backfill_days is 0), found 2026-03-01",
                #"line 16: day_starts_at: expected a time of day HH:MM (00:00–23:59), found "25:00""#,
                "ok",
                #"line 18: day: expected a day without a skip of habit task "t", found 2026-03-02, which has one"#,
            ], "\(result.stdout)")
    }

    /// A task that starts on a later day, and one created at 00:30 under habit days that start at
    /// 03:00 with the calendar date as its start (the habit day is still the day before): applied
    /// alike in memory and with `--db`, exit 0; the completion before the start names `for_day`.
    @Test func aTaskThatStartsLaterReplaysWithAndWithoutADatabase() throws {
        let dir = try CLI.folder([
            "events.jsonl": """
            {"at":"2026-03-02T07:00:00Z","type":"habit_task","task":"run","start_date":"2026-03-05"}
            {"at":"2026-03-02T20:00:00+01:00","user":"night","type":"settings","timezone":"Europe/Paris","day_starts_at":"03:00"}
            {"at":"2026-03-03T00:30:00+01:00","user":"night","type":"habit_task","task":"read","start_date":"2026-03-03"}
            {"at":"2026-03-03T00:31:00+01:00","user":"night","type":"habit_task","task":"walk"}
            {"at":"2026-03-03T00:40:00+01:00","user":"night","type":"habit_completion","task":"walk"}
            {"at":"2026-03-04T08:00:00Z","type":"habit_completion","task":"run"}
            {"at":"2026-03-05T08:00:00Z","type":"habit_completion","task":"run"}
            """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = dir.appendingPathComponent("events.jsonl").path
        let memory = try CLI.run(["replay", events])
        let file = try CLI.run(["replay", events, "--db", dir.appendingPathComponent("events.sqlite").path])
        #expect(memory.stdout == file.stdout && file.status == memory.status, "\(memory.stdout)\n\(file.stdout)\n\(file.stderr)")
        #expect(memory.status == 2, "line 6 is an input error: \(memory.stdout)")
        let objects = try memory.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["ok"] as? Bool } == [true, true, true, true, true, false, true], "\(memory.stdout)")
        #expect(
            (objects[5]["error"] as? [String: Any])?["message"] as? String
                == #"line 6: for_day: expected a day from the task's start, 2026-03-05, up to today, 2026-03-04, found 2026-03-04 (today, as none was given): habit task "run" has not started yet"#
        )
        #expect(((objects[6]["state"] as? [String: Any])?["habit_streaks"] as? [String: Int]) == ["run": 1])
    }
}

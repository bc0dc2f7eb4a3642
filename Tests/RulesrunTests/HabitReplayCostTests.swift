import Foundation
import Testing

/// What a habit event costs in `rulesrun replay` (docs/replay.md, "What a habit event costs"),
/// told by the tool itself: which `habit.streak` calls it makes (a rule that prints the task it
/// is asked about), how many periods a call is given, and the refusal of a user's 201st task.
@Suite(.timeLimit(.minutes(5))) struct HabitReplayCostTests {
    /// A folder extending the default rules whose `habit.streak` is `body` (periods, task, user).
    func rules(_ body: String) throws -> URL {
        try CLI.folder([
            "rules/extends": CLI.packageRoot.appendingPathComponent("rules").path,
            "rules/streaks.lua": "local M = base\nlocal streak = M.habit.streak\nM.habit.streak = function(periods, task, user)\n\(body)\nend\nreturn M\n",
        ])
    }

    func event(_ user: String, _ at: String, _ fields: String) -> String {
        #"{"user": "\#(user)", "at": "\#(at)", \#(fields)}"#
    }

    /// An event asks `habit.streak` about the task it changes only; the state's other streaks are
    /// the answers kept from earlier events, across another user's events and a refused event's
    /// state; the first event of a new habit day asks once about each task. (Each event used to
    /// ask about every task of the user, each over every day since its start.)
    @Test func aHabitEventAsksTheRuleOnlyAboutTheTaskItChanges() throws {
        let dir = try rules("  print(task.name)\n  return streak(periods, task, user)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tasks = 30
        var lines: [String] = []
        for i in 0..<tasks { lines.append(event("u1", "2026-03-02T07:00:\(10 + i)Z", #""type": "habit_task", "task": "t\#(i)""#)) }
        lines.append(event("u2", "2026-03-02T07:01:00Z", #""type": "habit_task", "task": "other""#))
        for i in 0..<tasks {
            lines.append(event("u1", "2026-03-02T08:00:\(10 + i)Z", #""type": "habit_completion", "task": "t\#(i)""#))
            // Another user's event between: u1's answers stay kept.
            if i % 10 == 0 { lines.append(event("u2", "2026-03-02T08:00:\(10 + i)Z", #""type": "habit_completion", "task": "other""#)) }
        }
        lines.append(event("u1", "2026-03-02T09:00:00Z", #""type": "habit_uncheck", "task": "t0""#))
        // Refused (t0 has no completion left today): the state printed with it asks nothing.
        for second in 1...4 { lines.append(event("u1", "2026-03-02T09:00:0\(second)Z", #""type": "habit_uncheck", "task": "t0""#)) }
        lines.append(event("u1", "2026-03-03T08:00:00Z", #""type": "habit_completion", "task": "t1""#))
        let events = dir.appendingPathComponent("events.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: events, atomically: true, encoding: .utf8)

        let result = try CLI.run(["replay", events.path, "--rules", dir.appendingPathComponent("rules").path])
        #expect(result.status == 2, "\(result.stderr.suffix(500))")  // the refused unchecks are invalid input
        let outputs = result.stdout.split(separator: "\n")
        #expect(outputs.count == lines.count)
        #expect(outputs.filter { $0.contains(#""ok":false"#) }.count == 4)
        let asked = result.stderr.split(separator: "\n").map { $0.split(separator: " ").last.map(String.init) ?? "" }
        // u1: one call per habit_task (the new task), per completion and for the uncheck (the
        // decision; the state's other streaks are kept), none for the refused unchecks; on the
        // 3rd, t1's completion and then each of the other 29 once. u2: one per event.
        let expected = tasks + tasks + 1 + tasks + 1 + 3
        #expect(asked.count == expected, "\(asked.count) calls: \(asked.prefix(80))")
        #expect(asked.filter { $0 == "t5" }.count == 3)  // its task, its completion, the new day
        #expect(asked.filter { $0 == "other" }.count == 4)
        // The state of the last line still holds every task's streak.
        let last = try #require(try JSONSerialization.jsonObject(with: Data(outputs.last!.utf8)) as? [String: Any])
        let streaks = try #require((last["state"] as? [String: Any])?["habit_streaks"] as? [String: Int])
        #expect(streaks.count == tasks && streaks["t1"] == 2 && streaks["t0"] == 0 && streaks["t2"] == 1, "\(streaks)")
    }

    /// `habit.streak` is given at most 3,660 periods, the most recent: a task started in 2000 is
    /// asked about its last 3,660 days, one started in 2021 about all of its days.
    @Test func aStreakIsAskedAboutAtMost3660Periods() throws {
        let dir = try rules("  return { current = #periods }")
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = dir.appendingPathComponent("events.jsonl")
        try [
            event("u1", "2026-03-02T07:00:00Z", #""type": "habit_task", "task": "old", "start_date": "2000-01-01""#),
            event("u1", "2026-03-02T07:00:01Z", #""type": "habit_task", "task": "recent", "start_date": "2021-03-02""#),
            event("u1", "2026-03-02T08:00:00Z", #""type": "habit_completion", "task": "old""#),
        ].joined(separator: "\n").write(to: events, atomically: true, encoding: .utf8)
        let result = try CLI.run(["replay", events.path, "--rules", dir.appendingPathComponent("rules").path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let last = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.split(separator: "\n").last!.utf8)) as? [String: Any])
        let decision = (last["decisions"] as? [String: Any])?["habit_completion"] as? [String: Any]
        #expect(decision?["current_streak"] as? Int == 3660)
        let streaks = (last["state"] as? [String: Any])?["habit_streaks"] as? [String: Int]
        #expect(streaks == ["old": 3660, "recent": 1827], "\(String(describing: streaks))")
    }

    /// A user has at most 200 habit tasks: the 201st `habit_task` is refused, naming the limit;
    /// redefining one of the 200 is accepted.
    @Test func aUserHasAtMost200HabitTasks() throws {
        var lines = (0...200).map { i in
            event("u1", "2026-03-02T07:\(String(format: "%02d:%02d", i / 60, i % 60))Z", #""type": "habit_task", "task": "t\#(i)""#)
        }
        lines.append(event("u1", "2026-03-02T08:00:00Z", #""type": "habit_task", "task": "t7", "title": "Seven""#))
        let dir = try CLI.folder(["events.jsonl": lines.joined(separator: "\n")])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["replay", dir.appendingPathComponent("events.jsonl").path])
        #expect(result.status == 2)
        let outputs = try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(outputs.count == 202)
        #expect(outputs.prefix(200).allSatisfy { $0["ok"] as? Bool == true })
        let refused = try #require(outputs[200]["error"] as? [String: Any])
        #expect(refused["code"] as? String == "INVALID_EVENT")
        #expect(
            refused["message"] as? String
                == #"line 201: task: expected one of the user's 200 habit tasks, found a new one, "t200" (a user has at most 200 habit tasks)"#)
        #expect(outputs[201]["ok"] as? Bool == true)
    }
}

import Foundation
import Testing

@Suite struct ReplayCommandTests {
    @Test func theExampleFilesReplayAndRefusedEventsSayWhy() throws {
        let result = try CLI.run(["replay", "examples/replay/escalation-week.jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 13)
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(
            objects.filter { $0["ok"] as? Bool == false }.compactMap { ($0["error"] as? [String: Any])?["code"] as? String }
                == ["ALREADY_CHECKED_IN", "DEADLINE_PASSED"])
        let last = try #require(objects.last?["state"] as? [String: Any])
        #expect(last["current_tier"] as? Int == 2)
        #expect(try CLI.run(["replay", "examples/replay/habits-and-miga.jsonl"]).status == 0)
    }

    @Test func malformedLinesNameTheLineAndTheFieldAndTheReplayGoesOn() throws {
        let dir = try CLI.folder([
            "events.jsonl": """
            {"at": "2026-03-02T08:00:00Z", "type": "commitment", "text": "ok"}
            {"at": "2026-03-02T12:00:00Z", "type": "check_in", "reslt": "YES"}
            not json
            {"at": "yesterday", "type": "tick"}
            {"at": "2026-03-02T12:00:00Z", "type": "chek_in", "result": "YES"}
            {"at": "2026-03-02T12:01:00Z", "type": "check_in", "result": "YES"}
            """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["replay", dir.appendingPathComponent("events.jsonl").path])
        #expect(result.status == 2)  // invalid lines: every line is still replayed and printed
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[1].contains("\"line\":2") && lines[1].contains("reslt: unknown field (did you mean 'result'?)"))
        #expect(lines[2].contains("line 3: not valid JSON"))
        #expect(lines[3].contains("line 4: at: expected an ISO-8601 time"))
        #expect(lines[4].contains("did you mean \\\"check_in\\\"?"))
        #expect(lines[5].contains("\"ok\":true"))
    }

    /// The audit's crashes (a local year past 9999 in an output; a local day before 1970 at a
    /// user's first day) and a year the store cannot hold (STORE_ERROR with SQLite's text) are
    /// each INVALID_EVENT naming the line, the field and the range.
    @Test func timesOutsideTheEnginesRangeAreInvalidEventsNotCrashes() throws {
        let range = "expected a time from 1971-01-01T00:00:00Z up to (not including) 2998-01-01T00:00:00Z"
        let dir = try CLI.folder([
            "berlin.jsonl": """
            {"at":"2026-03-02T07:00:00Z","type":"settings","timezone":"Europe/Berlin"}
            {"at":"2026-03-02T08:30:00Z","type":"subscription","tier":"PAID","expires_at":"9999-12-31T23:00:00Z"}
            {"at":"2026-03-02T08:31:00Z","type":"subscription","tier":"PAID","expires_at":"2997-12-31T23:00:00Z"}
            """,
            "la.jsonl": """
            {"at":"1970-01-01T00:00:00Z","type":"settings","timezone":"America/Los_Angeles"}
            {"at":"1970-01-01T00:10:00Z","type":"commitment","text":"x"}
            {"at":"1971-01-01T00:10:00Z","type":"commitment","text":"x"}
            """,
            "tokyo.jsonl": """
            {"at":"9999-12-31T10:00:00Z","type":"settings","timezone":"Asia/Tokyo"}
            {"at":"9999-12-31T10:00:00Z","user":"u2","type":"commitment","text":"x"}
            """,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let berlin = try CLI.run(["replay", dir.appendingPathComponent("berlin.jsonl").path])
        #expect(berlin.status == 2, "\(berlin.stderr)")
        var lines = try berlin.stdout.split(separator: "\n").map { try object(String($0)) }
        try #require(lines.count == 3, "\(berlin.stdout)")
        #expect(message(lines[1]) == "line 2: expires_at: \(range), found \"9999-12-31T23:00:00Z\"")
        #expect(lines[2]["ok"] as? Bool == true)
        let la = try CLI.run(["replay", dir.appendingPathComponent("la.jsonl").path])
        #expect(la.status == 2, "\(la.stderr)")
        lines = try la.stdout.split(separator: "\n").map { try object(String($0)) }
        #expect(
            lines.map(message) == [
                "line 1: at: \(range), found \"1970-01-01T00:00:00Z\"",
                "line 2: at: \(range), found \"1970-01-01T00:10:00Z\"", nil,
            ])
        let tokyo = try CLI.run(["replay", dir.appendingPathComponent("tokyo.jsonl").path])
        #expect(tokyo.status == 2, "\(tokyo.stderr)")
        lines = try tokyo.stdout.split(separator: "\n").map { try object(String($0)) }
        #expect(
            lines.map(message) == [
                "line 1: at: \(range), found \"9999-12-31T10:00:00Z\"", "line 2: at: \(range), found \"9999-12-31T10:00:00Z\"",
            ])
    }

    /// Every error names its line, the field as the replay file spells it and what was expected:
    /// not the data model's type and field (`HabitTask.timesPerDay`), nor its path twice.
    @Test func errorsNameTheLineAndTheFilesFieldNotTheModels() throws {
        let dir = try CLI.folder([
            "events.jsonl": """
            {"at":"2026-03-02T07:00:00Z","type":"habit_task","task":"t","times_per_day":-1}
            {"at":"2026-03-02T07:01:00Z","type":"miga","event":"deepen_pause","app":"a","pause_seconds":9223372036854775807}
            {"at":"2026-03-02T07:02:00Z","type":"commitment","text":"\(String(repeating: "x", count: 281))"}
            {"at":"2026-03-02T07:03:00Z","type":"settings","commitment_deadline":"25:00"}
            {"at":"2026-03-02T07:04:00Z","type":"habit_task","task":"t2","frequency":"specificDays","scheduled_days":[1,9]}
            {"at":"2026-03-02T07:05:00Z","type":"settings","commitment_deadline":"07:15"}
            {"at":"2026-03-02T07:06:00Z","type":"mode","mode":"m","strictness":"GENTLE","windows":[{"days":[1],"start":"9:00","end":"10:00"}]}
            {"at":"2026-03-02T07:07:00Z","type":"earned_habit","habit":"h","reward_credits":1000}
            {"at":"2026-03-02T07:08:00Z","type":"focus_start","minutes":10,"label":""}
            {"at":"2026-03-02T07:09:00Z","type":"check_in","result":"YES"}
            {"at":"2026-03-02T07:10:00Z","type":"habit_task","task":"t3"}
            {"at":"2026-03-02T07:11:00Z","type":"habit_completion","task":"t3","value":2}
            {"at":"2026-03-02T07:12:00Z","type":"earned_habit","habit":"\(String(repeating: "h", count: 101))"}
            """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["replay", dir.appendingPathComponent("events.jsonl").path])
        #expect(result.status == 2, "\(result.stderr)")
        let lines = try result.stdout.split(separator: "\n").map { try object(String($0)) }
        #expect(lines.map { $0["line"] as? Int } == Array(1...13))  // every line, line 11 (applied) too
        #expect(
            lines.map(message) == [
                "line 1: times_per_day: expected between 1 and 100, found -1",
                "line 2: pause_seconds: expected 0–30 seconds (the gateway timer), found 9.223372036854776e+18",
                "line 3: text: expected at most 280 characters, found 281",
                "line 4: commitment_deadline: expected a time of day HH:MM (00:00–23:59), found \"25:00\"",
                "line 5: scheduled_days[2]: expected an ISO weekday 1 (Monday)…7 (Sunday), found 9",
                "line 6: commitment_deadline: expected 06:00–12:00 in 30-minute steps, found 07:15",
                "line 7: windows[1].start: expected a time of day HH:MM (00:00–23:59), found \"9:00\"",
                "line 8: reward_credits: expected between 0 and 100, found 1000",
                "line 9: label: expected at least 1 character, found 0",
                "line 10: there is no commitment for 2026-03-02 to check in",
                nil,
                "line 12: value: expected none: habit task \"t3\" has no goal to measure",
                "line 13: habit: expected at most 100 characters, found 101",
            ])
        // A refused event keeps its at, user and type next to its line.
        try #require(lines.count == 13)
        #expect(lines[9]["type"] as? String == "check_in" && lines[9]["user"] as? String == "u1")
    }

    /// Windows line endings: each "\r\n" ends a line (it is one Character in Swift, not "\n"),
    /// and a last line may end with a lone "\r".
    @Test func windowsLineEndingsAreLines() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("events.jsonl")
        try Data(
            ("{\"at\": \"2026-03-02T08:00:00Z\", \"type\": \"commitment\", \"text\": \"ok\"}\r\n"
                + "{\"at\": \"2026-03-02T12:00:00Z\", \"type\": \"check_in\", \"reslt\": \"YES\"}\r\n\r\n# a comment\r\n"
                + "{\"at\": \"2026-03-02T12:01:00Z\", \"type\": \"check_in\", \"result\": \"YES\"}\r").utf8
        ).write(to: file)
        let result = try CLI.run(["replay", file.path])
        let lines = try result.stdout.split(separator: "\n").map { try object(String($0)) }
        try #require(lines.count == 3, "\(result.stdout)")
        #expect(lines.map { $0["ok"] as? Bool } == [true, false, true])
        #expect(message(lines[1]) == "line 2: reslt: unknown field (did you mean 'result'?)")
        #expect(lines[1]["line"] as? Int == 2)
    }

    /// Exit 2 when a line was invalid input, 0 when the events were only refused by the rules
    /// (the example files have refusals).
    @Test func theExitStatusSaysWhetherTheInputWasValid() throws {
        var random = UInt64(0x2B)
        let bytes = (0..<2048).map { _ -> UInt8 in
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: random >> 56)
        }
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("noise.jsonl")
        try Data(bytes).write(to: file)
        let noise = try CLI.run(["replay", file.path])
        #expect(noise.status == 2)
        let lines = try noise.stdout.split(separator: "\n").map { try object(String($0)) }
        #expect(!lines.isEmpty && lines.allSatisfy { ($0["error"] as? [String: Any])?["code"] as? String == "INVALID_EVENT" })
        let refusals = try CLI.run(["replay", "examples/replay/escalation-week.jsonl"])
        #expect(refusals.status == 0 && refusals.stdout.contains("\"ok\":false"))
    }

    /// An empty input is zero events; a file that cannot be read is named with the reason.
    @Test func emptyInputIsZeroEventsAndAnUnreadableFileSaysWhy() throws {
        let dir = try CLI.folder(["empty.jsonl": ""])
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = try CLI.run(["replay", dir.appendingPathComponent("empty.jsonl").path])
        #expect(empty.status == 0 && empty.stdout.isEmpty && empty.stderr.isEmpty, "\(empty.stderr)")
        let missing = try CLI.run(["replay", "/nonexistent/events.jsonl"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read /nonexistent/events.jsonl: No such file or directory"), "\(missing.stderr)")
        let folder = try CLI.run(["replay", "examples"])
        #expect(folder.status == 2)
        #expect(folder.stderr.contains("cannot read examples: is a folder; expected a file"), "\(folder.stderr)")
    }

    /// Each event's line is written as soon as the event is applied: a replay stopped midway (here
    /// killed while it waits for more input) has printed the line of every event it committed.
    @Test func theLineOfEveryAppliedEventIsOutBeforeTheReplayStops() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("run.sqlite").path
        let events = [
            #"{"at": "2026-03-02T08:00:00Z", "type": "commitment", "text": "Run"}"#,
            #"{"at": "2026-03-02T08:05:00Z", "type": "habit_task", "task": "read"}"#,
        ]
        let process = Process()
        process.executableURL = CLI.executable
        process.environment = CLI.environment
        process.arguments = ["replay", "-", "--db", db]
        process.currentDirectoryURL = CLI.packageRoot
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Not a timing: only a guard so that a replay that holds its lines back fails instead of hanging.
        let guardAgainstHanging = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: guardAgainstHanging)
        var received = ""
        for (i, event) in events.enumerated() {
            input.fileHandleForWriting.write(Data((event + "\n").utf8))
            while received.split(separator: "\n").count <= i {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                received += String(decoding: chunk, as: UTF8.self)
            }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        guardAgainstHanging.cancel()
        let lines = try received.split(separator: "\n").map { try object(String($0)) }
        #expect(lines.count == 2 && lines.allSatisfy { $0["ok"] as? Bool == true }, "\(received)")
        // And both events were committed: the next replay on the database builds on them.
        let more = try CLI.folder([
            "more.jsonl": """
            {"at": "2026-03-02T12:00:00Z", "type": "check_in", "result": "YES"}
            {"at": "2026-03-02T12:01:00Z", "type": "habit_completion", "task": "read"}
            """
        ])
        defer { try? FileManager.default.removeItem(at: more) }
        let next = try CLI.run(["replay", more.appendingPathComponent("more.jsonl").path, "--db", db])
        #expect(
            next.status == 0 && next.stdout.split(separator: "\n").count == 2 && !next.stdout.contains("\"ok\":false"), "\(next.stdout)")
    }

    /// `replay --help` lists every event type, as the tables of docs/replay.md (once the README's) do.
    @Test func theHelpListsEveryEventTypeOfTheReadme() throws {
        let help = try CLI.run(["replay", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        func list(after label: String, before next: String) -> Set<String> {
            guard let start = help.range(of: label), let end = help.range(of: next, range: start.upperBound..<help.endIndex) else {
                return []
            }
            return Set(help[start.upperBound..<end.lowerBound].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        let listed = list(after: "Pressure, habit tracker, MIGA:", before: "Earned:").union(list(after: "Earned:", before: "Blank lines"))
        let page = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/replay.md"), encoding: .utf8)
        let section = try #require(
            page.components(separatedBy: "# Replay: events in, decisions out").dropFirst().first?
                .components(separatedBy: "\n## ").first)
        // The rows of the event tables (headed `| `type` | fields | …`), not those of other tables.
        var documented = Set<String>()
        var inEventTable = false
        for row in section.split(separator: "\n", omittingEmptySubsequences: false) {
            if !row.hasPrefix("|") {
                inEventTable = false
            } else if row.hasPrefix("| `type` |") {
                inEventTable = true
            } else if inEventTable, row.hasPrefix("| `"), let end = row.dropFirst(3).firstIndex(of: "`") {
                documented.insert(String(row[row.index(row.startIndex, offsetBy: 3)..<end]))
            }
        }
        #expect(
            documented.count == 27 && documented.contains("habit_uncheck") && documented.contains("unlock_choose")
                && documented.contains("miga"), "\(documented.sorted())")
        #expect(listed == documented, "help: \(listed.sorted()), docs/replay.md: \(documented.sorted())")
    }

    func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    func message(_ line: [String: Any]) -> String? { (line["error"] as? [String: Any])?["message"] as? String }

    @Test func sameEventsSameBytes() throws {
        let a = try CLI.run(["replay", "examples/replay/escalation-week.jsonl"])
        let b = try CLI.run(["replay", "examples/replay/escalation-week.jsonl"])
        #expect(a.stdout == b.stdout)
    }
}

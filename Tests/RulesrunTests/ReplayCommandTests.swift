import Foundation
import Testing

@Suite struct ReplayCommandTests {
    @Test func theExampleFilesReplayAndRefusedEventsSayWhy() throws {
        let result = try CLI.run(["replay", "examples/replay/escalation-week.jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 13)
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.filter { $0["ok"] as? Bool == false }.compactMap { ($0["error"] as? [String: Any])?["code"] as? String }
                == ["ALREADY_CHECKED_IN", "DEADLINE_PASSED"])
        let last = try #require(objects.last?["state"] as? [String: Any])
        #expect(last["current_tier"] as? Int == 2)
        #expect(try CLI.run(["replay", "examples/replay/habits-and-miga.jsonl"]).status == 0)
    }

    @Test func malformedLinesNameTheLineAndTheFieldAndTheReplayGoesOn() throws {
        let dir = try CLI.folder(["events.jsonl": """
            {"at": "2026-03-02T08:00:00Z", "type": "commitment", "text": "ok"}
            {"at": "2026-03-02T12:00:00Z", "type": "check_in", "reslt": "YES"}
            not json
            {"at": "yesterday", "type": "tick"}
            {"at": "2026-03-02T12:00:00Z", "type": "chek_in", "result": "YES"}
            {"at": "2026-03-02T12:01:00Z", "type": "check_in", "result": "YES"}
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["replay", dir.appendingPathComponent("events.jsonl").path])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[1].contains("\"line\":2") && lines[1].contains("reslt: unknown field (did you mean 'result'?)"))
        #expect(lines[2].contains("line 3: not valid JSON"))
        #expect(lines[3].contains("line 4: at: expected an ISO-8601 time"))
        #expect(lines[4].contains("did you mean \\\"check_in\\\"?"))
        #expect(lines[5].contains("\"ok\":true"))
    }

    @Test func sameEventsSameBytes() throws {
        let a = try CLI.run(["replay", "examples/replay/escalation-week.jsonl"])
        let b = try CLI.run(["replay", "examples/replay/escalation-week.jsonl"])
        #expect(a.stdout == b.stdout)
    }
}

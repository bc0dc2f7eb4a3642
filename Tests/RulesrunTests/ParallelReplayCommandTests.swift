import Foundation
import Testing

/// A file replayed in memory runs in parallel by user (``ParallelReplay``): its output, standard
/// error and exit status are those of the same lines replayed one by one (standard input).
@Suite struct ParallelReplayCommandTests {
    /// Three users' weeks interleaved line by line, a user whose rule fails from its day 20, a
    /// refused duplicate, malformed lines, a line that is not UTF-8, "\r\n", a byte-order mark,
    /// blank lines and comments.
    static func mixedLog() throws -> Data {
        let week = try String(contentsOf: CLI.packageRoot.appendingPathComponent("examples/replay/escalation-week.jsonl"), encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("{") }.map(String.init)
        var lines: [String] = []
        for (i, line) in week.enumerated() {
            for user in ["ann", "bob", "cy"] {
                lines.append(line.replacingOccurrences(of: "{", with: "{\"user\": \"\(user)\", ", options: .anchored))
            }
            if i == 2 { lines += ["not json", "", "# a comment", lines[lines.count - 1] + "\r", "{\"at\": \"2026-03-02T09:00:00Z\"}"] }
            if i == 4 { lines.append(lines[lines.count - 1]) }  // the same event again
        }
        // 21 days of commitments and check-ins: the rule fails on day 20 (RULE_ERROR), and the user goes on.
        for day in 0..<21 {
            let date = DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"), year: 2026, month: 4, day: 1 + day)
            let text = ISO8601DateFormatter().string(from: date.date!).prefix(10)
            lines.append(#"{"user": "fay", "at": "\#(text)T08:00:00Z", "type": "commitment", "text": "x"}"#)
            lines.append(#"{"user": "fay", "at": "\#(text)T12:30:00Z", "type": "check_in", "result": "YES"}"#)
            if day % 5 == 0 { lines.append(lines[3 * day % lines.count]) }  // another user's event, out of its order
        }
        var data = Data([0xEF, 0xBB, 0xBF]) + Data(lines.joined(separator: "\n").utf8)
        data += Data("\n{\"at\": \"2026-03-02T09:00:00Z\", \"user\": \"u".utf8) + Data([0xFF]) + Data("\", \"type\": \"tick\"}\n".utf8)
        return data
    }

    static func folder() throws -> URL {
        let dir = try CLI.folder([
            "rules/extends": CLI.packageRoot.appendingPathComponent("rules").path + "\n",
            "rules/escalation.lua": RuntimeFailure.error,
        ])
        try mixedLog().write(to: dir.appendingPathComponent("events.jsonl"))
        return dir
    }

    /// The same lines on standard input: replayed line by line as they arrive, on one engine.
    static func lineByLine(_ arguments: [String], input: URL, in dir: URL) throws -> CLI.Result {
        let pipe = Pipe()
        let (process, out, err) = try CLI.launch(arguments, in: dir, input: pipe)
        pipe.fileHandleForWriting.write(try Data(contentsOf: input))
        try pipe.fileHandleForWriting.close()
        let (stdout, stderr) = CLI.drain(out, err)
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test func aFileGivesTheOutputOfALineByLineReplayWhateverTheJobs() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sequential = try Self.lineByLine(["replay", "-", "--rules", "rules"], input: dir.appendingPathComponent("events.jsonl"), in: dir)
        #expect(sequential.status == 2)
        for code in ["RULE_ERROR", "INVALID_EVENT", "ALREADY_CHECKED_IN", "OUT_OF_ORDER"] {
            #expect(sequential.stdout.contains("\"code\":\"\(code)\""), "\(code)")
        }
        for jobs in ["1", "3"] {
            let parallel = try CLI.run(["replay", "events.jsonl", "--rules", "rules", "--jobs", jobs], in: dir)
            #expect(parallel.status == sequential.status)
            #expect(parallel.stdout == sequential.stdout, "--jobs \(jobs)")
            #expect(parallel.stderr == sequential.stderr, "--jobs \(jobs)")
        }
    }

    /// A line over 1 MiB stops a parallel replay as a sequential one: the lines before it are printed, then exit 2.
    @Test func aLineTooLongStopsAfterTheLinesBefore() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = dir.appendingPathComponent("events.jsonl")
        let lines = try Data(contentsOf: events).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let newline = Data("\n".utf8)
        let long = Data(repeating: UInt8(ascii: "x"), count: (1 << 20) + 1)
        try Data((lines.prefix(20) + [long] + lines.dropFirst(20)).map { Data($0) }.joined(separator: newline)).write(to: events)
        let sequential = try Self.lineByLine(["replay", "-", "--rules", "rules"], input: events, in: dir)
        let parallel = try CLI.run(["replay", "events.jsonl", "--rules", "rules", "--jobs", "2"], in: dir)
        #expect(parallel.status == 2 && sequential.status == 2)
        #expect(parallel.stdout == sequential.stdout && !parallel.stdout.isEmpty)
        #expect(parallel.stderr.hasSuffix("events.jsonl: line 21: longer than 1048576 bytes (the longest line rulesrun reads); replay stopped\n"), "\(parallel.stderr)")
    }

    /// What a rule prints goes to standard error before the output of the line whose event printed it.
    @Test func whatARulePrintsComesAtItsLine() throws {
        let dir = try CLI.folder([
            "rules/extends": CLI.packageRoot.appendingPathComponent("rules").path + "\n",
            "rules/escalation.lua": RuntimeFailure.escalation(#"if check_in.result == "NO" then print("a miss on day", day) end"#),
            "events.jsonl": """
            {"at": "2026-03-02T08:00:00Z", "user": "a", "type": "commitment", "text": "x"}
            {"at": "2026-03-02T08:00:00Z", "user": "b", "type": "commitment", "text": "x"}
            {"at": "2026-03-02T12:30:00Z", "user": "a", "type": "check_in", "result": "NO"}
            {"at": "2026-03-02T12:30:00Z", "user": "b", "type": "check_in", "result": "YES"}
            """,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let parallel = try CLI.run(["replay", "events.jsonl", "--rules", "rules", "--jobs", "2"], in: dir)
        let sequential = try Self.lineByLine(["replay", "-", "--rules", "rules"], input: dir.appendingPathComponent("events.jsonl"), in: dir)
        #expect(parallel.status == 0 && parallel.stdout == sequential.stdout)
        #expect(parallel.stderr == "escalation.lua:8: print: a miss on day\t1\n" && parallel.stderr == sequential.stderr, "\(parallel.stderr)")
    }
}

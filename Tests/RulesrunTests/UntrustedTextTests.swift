import Foundation
import GRDB
import Testing

/// Text users and rules give the tool: bytes that are not UTF-8 are refused naming the file, the
/// line and the field (never rewritten, which made two names one), duplicate keys and numbers out
/// of range are named, and control characters reach the terminal escaped.
@Suite struct UntrustedTextTests {
    /// A fresh folder with the given files, written as bytes.
    static func folder(_ files: [String: [UInt8]]) throws -> URL {
        let dir = try CLI.folder([:])
        for (name, bytes) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        return dir
    }

    /// Text and bytes (`[0xFF]`), one after the other.
    static func bytes(_ parts: [Any]) -> [UInt8] {
        parts.flatMap { part -> [UInt8] in (part as? String).map { Array($0.utf8) } ?? (part as! [Int]).map { UInt8($0) } }
    }

    // MARK: Not UTF-8

    /// Two user names that differ only in bytes that are not UTF-8 were both "bob\u{FFFD}": one
    /// user, in the output and in the database. Each line is now INVALID_EVENT naming its line
    /// and its field, and nothing of them is written.
    @Test func replayRefusesNamesThatAreNotUTF8() throws {
        let events = Self.bytes([
            #"{"at":"2026-03-02T08:00:00Z","user":"bob"#, [0xFF], #"","type":"commitment","text":"Run"}"#, "\n",
            #"{"at":"2026-03-02T08:01:00Z","user":"bob"#, [0xFE], #"","type":"commitment","text":"Swim"}"#, "\n",
            #"{"at":"2026-03-02T08:02:00Z","user":"ann","type":"commitment","text":"caf"#, [0xE9], #""}"#, "\n",
            #"{"at":"2026-03-02T08:03:00Z","user":"ann","type":"distracting_apps","apps":["android:a","android:"#, [0xC3], #""]}"#, "\n",
            "# a comment may hold any byte ", [0xFF], "\n",
            #"{"at":"2026-03-02T08:04:00Z","user":"bob","type":"commitment","text":"Walk"}"#, "\n",
        ])
        let dir = try Self.folder(["events.jsonl": events])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("r.sqlite").path
        let result = try CLI.run(["replay", dir.appendingPathComponent("events.jsonl").path, "--db", db])
        #expect(result.status == 2, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 5, "\(result.stdout)")
        let expected = [
            #"line 1: user: expected UTF-8 text, found string \"bob\\xFF\""#,
            #"line 2: user: expected UTF-8 text, found string \"bob\\xFE\""#,
            #"line 3: text: expected UTF-8 text, found string \"caf\\xE9\""#,
            #"line 4: apps[2]: expected UTF-8 text, found string \"android:\\xC3\""#,
        ]
        for (line, message) in zip(lines, expected) {
            #expect(line.contains(#""code":"INVALID_EVENT""#) && line.contains(message), "\(line)")
        }
        #expect(lines[4].contains(#""user":"bob","type":"commitment","ok":true"#) && lines[4].contains(#""edited":false"#), "\(lines[4])")
        let users = try DatabaseQueue(path: db).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM app_user") }
        #expect(users == 1)
    }

    /// A key twice in one event: one of its values was silently lost.
    @Test func replayRefusesAKeyTwiceAndAWholeNumberBeyond64Bits() throws {
        let dir = try CLI.folder([
            "events.jsonl": """
            {"at":"2026-03-02T08:00:00Z","user":"a","user":"b","type":"tick"}
            {"at":"2026-03-02T08:00:00Z","user":"a","user":null,"type":"tick"}
            {"at":"2026-03-02T08:00:00Z","type":"mode","mode":"m","strictness":"STRICT","windows":[{"days":[1],"start":"09:00","end":"17:00","end":"18:00"}]}
            {"at":"2026-03-02T08:00:00Z","type":"habit_task","task":"t","times_per_day":9223372036854775808}
            """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["replay", dir.appendingPathComponent("events.jsonl").path])
        #expect(result.status == 2)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 4)
        #expect(lines[0].contains("line 1: user: appears twice in one object (column 41)"), "\(lines[0])")
        #expect(lines[1].contains("line 2: user: appears twice in one object"), "\(lines[1])")
        #expect(lines[2].contains("line 3: windows[1].end: appears twice in one object"), "\(lines[2])")
        // Not read as the float 9.223372036854776e+18, another number.
        #expect(
            lines[3].contains(
                "line 4: times_per_day: expected a whole number from -9223372036854775808 to 9223372036854775807, found 9223372036854775808"
            ),
            "\(lines[3])")
    }

    /// A persona file is Lua: one that is not UTF-8 is refused at its line, which is shown.
    @Test func aPersonaThatIsNotUTF8IsRefusedAtItsLine() throws {
        let dir = try Self.folder(["p.lua": Self.bytes(["return {\n  description = \"caf", [0xE9], "\",\n}\n"])])
        defer { try? FileManager.default.removeItem(at: dir) }
        let persona = dir.appendingPathComponent("p.lua").path
        let result = try CLI.run(["simulate", "3d", "--users", "2", "--no-db", "--persona", persona])
        #expect(result.status == 2)
        #expect(result.stderr.contains(#"\#(persona):2: not UTF-8 text: description = "caf\xE9","#), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// A rule file likewise; a byte a string needs is written as an escape.
    @Test func aRuleFileThatIsNotUTF8IsRefusedAtItsLine() throws {
        let rules = try RuleFolderCopy()
        defer { rules.remove() }
        try rules.prepend(Self.bytes(["local greeting = \"h", [0xE9, 0x6C], "lo\"\n"]), to: "streaks.lua")
        let result = try CLI.run(["validate", rules.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains(#"streaks.lua:1: not UTF-8 text: local greeting = "h\xE9llo""#), "\(result.stdout)")
        try rules.restore("streaks.lua")
        try rules.prepend(Array(#"local greeting = "h\xE9llo"\#n"#.utf8), to: "streaks.lua")
        #expect(try CLI.run(["validate", rules.path]).status == 0)
    }

    /// Merge reads reports with the same strict reader: a string that is not UTF-8, a key twice
    /// (`"days"` twice: the first list was dropped) and a number beyond 64 bits (Foundation said
    /// only "not valid JSON") are each named with their field.
    @Test func mergeNamesTheFieldOfTextKeysAndNumbersItCannotTake() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let part = dir.appendingPathComponent("part.json").path
        #expect(try CLI.run(["simulate", "3d", "--users", "4", "--no-db", "--format", "json", "--out", part]).status == 0)
        let text = try String(contentsOfFile: part, encoding: .utf8)
        let bad = dir.appendingPathComponent("bad.json").path
        func inserting(_ extra: [UInt8], after marker: String) -> [UInt8] {
            let bytes = Array(text.utf8), m = Array(marker.utf8)
            let at = (0...(bytes.count - m.count)).first { Array(bytes[$0..<($0 + m.count)]) == m }! + m.count
            return Array(bytes[..<at]) + extra + Array(bytes[at...])
        }
        let cases: [([UInt8], String)] = [
            (
                inserting([0xFF], after: #""duration":"3d"#),
                #"run.duration: expected UTF-8 text, found string "3d\xFF""#
            ),
            (Array(text.replacingOccurrences(of: #","days":["#, with: #","days":[],"days":["#).utf8), "days: appears twice in one object"),
            (
                Array(text.replacingOccurrences(of: #""users":4,"#, with: #""users":4,"users":4,"#).utf8),
                "run.users: appears twice in one object"
            ),
            (
                Array(text.replacingOccurrences(of: #""users":4,"#, with: #""users":9223372036854775808,"#).utf8),
                "run.users: expected a whole number from 1 to 10000000, found 9223372036854775808"
            ),
            (
                Array(text.replacingOccurrences(of: #""users_to":4,"#, with: #""users_to":-99999999999999999999,"#).utf8),
                "run.users_to: expected a count (a whole number from 0 to 1000000000000), found -99999999999999999999"
            ),
            (
                Array(text.replacingOccurrences(of: #""yes":"#, with: #""yes":18446744073709551616,"x":"#).utf8),
                "days[0].yes: expected a count (a whole number from 0 to 1000000000000), found 18446744073709551616"
            ),
        ]
        for (bytes, expected) in cases {
            #expect(bytes != Array(text.utf8))
            try Data(bytes).write(to: URL(fileURLWithPath: bad))
            let result = try CLI.run(["merge", bad])
            #expect(result.status == 2, "\(expected)")
            #expect(result.stderr.contains("\(bad): \(expected)"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    // MARK: Control characters

    /// A rule's error message with ESC, NUL, CR and a byte that is not UTF-8: printed escaped,
    /// and whole (the NUL cut it short).
    @Test func validatePrintsARulesMessageEscaped() throws {
        let rules = try RuleFolderCopy()
        defer { rules.remove() }
        try rules.prepend(Array(#"error("\27[31mred\0after\rX\xff\127\u{9B}2J")"#.utf8 + [0x0A]), to: "escalation.lua")
        let result = try CLI.run(["validate", rules.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains(#"escalation.lua:1: \u{1B}[31mred\u{0}after\rX\xFF\u{7F}\u{9B}2J"#), "\(result.stdout)")
        #expect(!Self.hasControls(result.stdout) && !Self.hasControls(result.stderr))
    }

    /// A persona's time zone in an error, and a rule's `print`.
    @Test func personaErrorsAndRulePrintsAreEscaped() throws {
        let steady = try String(contentsOf: CLI.packageRoot.appendingPathComponent("examples/personas/steady.lua"), encoding: .utf8)
        let dir = try CLI.folder([
            "tz.lua": steady.replacingOccurrences(of: #"timezone = "Europe/Paris""#, with: #"timezone = "\u{1b}[2J\0""#)
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let persona = try CLI.run(["simulate", "3d", "--users", "2", "--no-db", "--persona", dir.appendingPathComponent("tz.lua").path])
        #expect(persona.status == 2)
        #expect(persona.stderr.contains(#"tz.lua:11: settings.timezone: unknown time zone "\u{1B}[2J\u{0}""#), "\(persona.stderr)")
        #expect(!Self.hasControls(persona.stderr))

        let rules = try RuleFolderCopy()
        defer { rules.remove() }
        try rules.prepend(Array(#"print("a\27]0;title\7b", "\0", "\r\xfe")"#.utf8 + [0x0A]), to: "escalation.lua")
        let events = dir.appendingPathComponent("e.jsonl")
        try #"{"at":"2026-03-02T08:00:00Z","type":"tick"}"#.write(to: events, atomically: true, encoding: .utf8)
        let replay = try CLI.run(["replay", events.path, "--rules", rules.path])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stderr.contains(#"a\u{1B}]0;title\u{7}b"# + "\t" + #"\u{0}"# + "\t" + #"\r\xFE"#), "\(replay.stderr)")
        #expect(!Self.hasControls(replay.stderr))
    }

    /// A report's names reach the terminal in merge's table escaped; its JSON escapes them as JSON.
    @Test func mergePrintsAReportsNamesEscaped() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let part = dir.appendingPathComponent("part.json")
        #expect(try CLI.run(["simulate", "3d", "--users", "4", "--no-db", "--format", "json", "--out", part.path]).status == 0)
        let text = try String(contentsOf: part, encoding: .utf8)
        try text.replacingOccurrences(of: #""personas":"steady"#, with: #""personas":"\u001b[2J\u009bsteady"#)
            .write(to: part, atomically: true, encoding: .utf8)
        let table = try CLI.run(["merge", part.path])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains(#"4 users (\u{1B}[2J\u{9B}steady:40,"#), "\(table.stdout)")
        #expect(!Self.hasControls(table.stdout))
        let json = try CLI.run(["merge", part.path, "--format", "json"])
        #expect(json.stdout.contains(#""personas":"\u001b[2J\u009bsteady:40,"#) && !Self.hasControls(json.stdout), "\(json.stdout)")
    }

    /// Replay's JSON escapes DEL and C1 too (JSON escapes C0 already), which terminals act on.
    @Test func replayOutputEscapesDELAndC1() throws {
        let dir = try CLI.folder(["e.jsonl": #"{"at":"2026-03-02T08:00:00Z","user":"a\u007f\u009b2J","type":"tick"}"#])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["replay", dir.appendingPathComponent("e.jsonl").path])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""user":"a\u007f\u009b2J""#), "\(result.stdout)")
        #expect(!Self.hasControls(result.stdout))
    }

    /// Control characters other than the line feed and the tab: C0, DEL, C1.
    static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
    }
}

/// A copy of `rules/` to break one file of.
struct RuleFolderCopy {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-rules-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("rules"), to: url)
    }

    /// Puts `bytes` before the file's first line.
    func prepend(_ bytes: [UInt8], to file: String) throws {
        let target = url.appendingPathComponent(file)
        try Data(bytes + Array(try Data(contentsOf: target))).write(to: target)
    }

    /// The file as in `rules/`.
    func restore(_ file: String) throws {
        let target = url.appendingPathComponent(file)
        try FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("rules").appendingPathComponent(file), to: target)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

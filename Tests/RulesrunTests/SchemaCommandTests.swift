import Foundation
import Testing

/// `rulesrun schema`: the JSON Schemas of the event format and of the JSON reports, checked
/// against what the event decoder accepts and refuses and against real reports
/// (docs/tools.md).
@Suite struct SchemaCommandTests {
    typealias Value = JSONSchemaChecker.Value

    func schema(_ arguments: String...) throws -> (checker: JSONSchemaChecker, value: Value) {
        let result = try CLI.run(["schema"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        return (try JSONSchemaChecker(result.stdout), try Value.parse(result.stdout))
    }

    /// Each event type's branch of the events schema: its `const` type and its schema.
    func branches(_ schema: Value) -> [(type: String, schema: [String: Value])] {
        guard case .object(let root) = schema, case .array(let all)? = root["allOf"] else { return [] }
        return all.compactMap { entry in
            guard case .object(let e) = entry, case .object(let condition)? = e["if"], case .object(let p)? = condition["properties"],
                case .object(let t)? = p["type"], case .string(let name)? = t["const"], case .object(let then)? = e["then"]
            else { return nil }
            return (name, then)
        }
    }

    /// One valid line of each event type (what the replay then decides does not matter here).
    static let minimal: [String: String] = [
        "settings": #""timezone": "Europe/Paris""#, "subscription": #""tier": "PAID""#, "commitment": #""text": "Run""#,
        "check_in": #""result": "YES""#, "shield": "", "tick": "", "habit_task": #""task": "gym""#,
        "habit_completion": #""task": "gym""#, "habit_skip": #""task": "gym""#, "habit_freeze": #""task": "gym", "action": "equip""#,
        "habit_uncheck": #""task": "gym""#, "miga": #""event": "exit_to_focus", "app": "x""#,
        "exposure": #""experiment": "checkout-2026", "arm": "treatment", "revision": 3"#,
        "mode": #""mode": "work", "strictness": "GENTLE""#, "mode_override": #""mode": "work", "state": "AUTO""#,
        "distracting_apps": #""apps": ["android:a"]"#, "qr_key": #""value": "k""#, "earned_habit": #""habit": "read""#,
        "earned_habit_completion": #""habit": "read""#, "focus_start": #""minutes": 25"#, "focus_end": "",
        "unlock_open": #""app": "android:a""#, "unlock_choose": #""app": "android:a", "option": "EMERGENCY_UNLOCK""#,
        "unlock_cancel": #""app": "android:a""#, "quest_complete": #""app": "android:a""#,
        "quest_fail": #""app": "android:a", "reason": "TIMEOUT""#, "quest_cancel": #""app": "android:a""#,
    ]

    static func line(_ type: String, _ fields: String, at minute: Int = 0) -> String {
        let at = String(format: "2026-03-02T%02d:%02d:00+01:00", 8 + minute / 60, minute % 60)
        return #"{"at": "\#(at)", "type": "\#(type)""# + (fields.isEmpty ? "" : ", \(fields)") + "}"
    }

    /// `schema`'s members, resolving a `$ref` of the root's `$defs`.
    static func resolved(_ schema: Value, root: Value) -> [String: Value] {
        guard case .object(let s) = schema else { return [:] }
        if case .string(let ref)? = s["$ref"], case .object(let r) = root, case .object(let defs)? = r["$defs"],
            case .object(let target)? = defs[String(ref.dropFirst(8))]
        {
            return target
        }
        return s
    }

    /// A value of another type than `schema` allows.
    static func wrongValue(for schema: Value, root: Value) -> String {
        let s = resolved(schema, root: root)
        let types: [Value] = if case .array(let a)? = s["type"] { a } else { s["type"].map { [$0] } ?? [] }
        return types.contains(.string("string")) || s["enum"] != nil || s["const"] != nil ? "12345" : "\"wrong\""
    }

    /// The replay's output line for each line of `lines` (one output line per event line).
    func replay(_ lines: [String]) throws -> [Value] {
        let dir = try CLI.folder(["events.jsonl": lines.joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["replay", dir.appendingPathComponent("events.jsonl").path])
        let out = try result.stdout.split(separator: "\n").map { try Value.parse(String($0)) }
        #expect(out.count == lines.count, "\(result.stdout)\n\(result.stderr)")
        return out
    }

    /// The fields an "unknown field" message of the decoder says the type has (besides at, user and type).
    static func decoderFields(_ message: String) -> Set<String>? {
        if let list = message.range(of: "(expected one of: ") {
            return Set(message[list.upperBound...].dropLast().split(separator: ", ").map(String.init))
        }
        if message.hasSuffix("event has only at, user and type)") { return [] }
        if let only = message.range(of: "event has only ") {
            return Set(message[only.upperBound...].dropLast().split(separator: ", ").map(String.init))
        }
        return nil
    }

    static func errorCode(_ output: Value) -> String? {
        guard case .object(let o) = output, case .object(let e)? = o["error"], case .string(let code)? = e["code"] else { return nil }
        return code
    }

    @Test func theEventsSchemaHasABranchForEveryTypeTheDecoderKnows() throws {
        let (_, value) = try schema("events")
        guard case .object(let root) = value, case .object(let properties)? = root["properties"],
            case .object(let type)? = properties["type"],
            case .array(let names)? = type["enum"]
        else {
            Issue.record("no properties.type.enum in \(value)")
            return
        }
        #expect(root["$schema"] == .string("https://json-schema.org/draft/2020-12/schema"))
        #expect(branches(value).map { Value.string($0.type) } == names)
        #expect(Set(branches(value).map(\.type)) == Set(Self.minimal.keys))
        // The decoder's own list, as it names it for an unknown type.
        let refused = try replay([Self.line("zzzzzzzzzzzz", "")])
        guard case .object(let o) = refused[0], case .object(let e)? = o["error"], case .string(let message)? = e["message"],
            let list = message.range(of: "(one of: ")
        else {
            Issue.record("\(refused)")
            return
        }
        let decoderNames = message[list.upperBound...].dropLast().split(separator: ", ").map { Value.string(String($0)) }
        #expect(decoderNames == names)
    }

    /// For every type: its minimal line (with a scenario's `expect`) passes both the schema and the
    /// decoder; the line with an unknown field, and the line with each of its fields given a value of another type, are
    /// refused by both (the decoder with INVALID_EVENT); each value the schema lists for a field
    /// is accepted or refused by both alike.
    @Test func theEventsSchemaAcceptsAndRefusesWhatTheDecoderDoes() throws {
        let (checker, root) = try schema("events")
        // valid nil: the schema and the decoder must agree, whatever they say.
        var lines: [(line: String, valid: Bool?, what: String)] = []
        for (type, branch) in branches(root) {
            let fields = try #require(Self.minimal[type])
            let more = fields.isEmpty ? "" : ", "
            // With a scenario's `expect`, which replay ignores (and `replay --check` judges): allowed on every line, as an
            // object (of another type: below, as every field). (On the minimal line itself: a second one could be refused
            // by the engine, a second skip of the day.)
            lines.append((Self.line(type, fields + more + #""expect": {"ok": true}"#, at: lines.count), true, "\(type): minimal"))
            lines.append((Self.line(type, fields + more + #""zzzzzzzzzzzz": 1"#, at: lines.count), false, "\(type): unknown field"))
            lines.append((Self.line(type, fields + more + #""expect": ["ok"]"#, at: lines.count), false, "\(type): expect a list"))
            guard case .object(let properties)? = branch["properties"] else { continue }
            for (name, property) in properties.sorted(by: { $0.key < $1.key }) where name != "type" {
                // The minimal fields without `name`, then `name` with a wrong value.
                let kept = try Value.parse("{\(fields)}")
                guard case .object(var members) = kept else { continue }
                members[name] = nil
                let rest = members.keys.sorted().map { "\"\($0)\": \(members[$0]!)" }
                let wrong = (rest + ["\"\(name)\": \(Self.wrongValue(for: property, root: root))"]).joined(separator: ", ")
                let line =
                    name == "at"
                    ? #"{"at": 12345, "type": "\#(type)""# + (rest.isEmpty ? "" : ", " + rest.joined(separator: ", ")) + "}"
                    : Self.line(type, wrong, at: lines.count)
                lines.append((line, false, "\(type): \(name) of another type"))
                guard case .array(let values)? = Self.resolved(property, root: root)["enum"] else { continue }
                for value in values {
                    let fields = (rest + ["\"\(name)\": \(value)"]).joined(separator: ", ")
                    lines.append((Self.line(type, fields, at: lines.count), nil, "\(type): \(name) \(value)"))
                }
            }
        }
        // Values of the right type in the wrong form or out of range: refused by both.
        let malformed: [(String, String)] = [
            ("commitment", #""at": "2026-03-02T08:00:00", "text": "Run""#), ("commitment", #""at": "2026-03-02", "text": "Run""#),
            ("commitment", #""at": "2026-03-02T08:00:00+19:00", "text": "Run""#), ("commitment", #""user": "", "text": "Run""#),
            ("commitment", #""text": """#), ("unlock_open", #""app": "web:example.com""#), ("unlock_open", #""app": "android:""#),
            ("habit_skip", #""task": "gym", "day": "2026-13-01""#), ("habit_skip", #""task": "gym", "day": "2026-3-2""#),
            ("settings", #""day_starts_at": "24:00""#), ("settings", #""commitment_deadline": "9:00""#),
            ("habit_task", #""task": "gym", "scheduled_days": [0]"#), ("habit_task", #""task": "gym", "scheduled_days": [8]"#),
            ("focus_start", #""minutes": 0"#), ("focus_start", #""minutes": 1441"#), ("focus_start", #""minutes": 2.5"#),
            ("qr_key", #""value": """#), ("settings", ""), ("habit_task", #""task": """#),
            ("mode", #""mode": "work", "windows": [{"days": [1], "start": "09:00"}]"#),
            ("unlock_choose", #""app": "android:a", "option": "CREDITS_UNLOCK""#),
            ("unlock_choose", #""app": "android:a", "option": "QUEST_UNLOCK", "minutes": 5"#),
            ("unlock_choose", #""app": "android:a", "option": "EMERGENCY_UNLOCK", "quest_type": "WALK""#),
        ]
        for (type, fields) in malformed {
            let body = fields.hasPrefix(#""at""#) ? #"{"type": "\#(type)", \#(fields)}"# : Self.line(type, fields, at: lines.count)
            lines.append((body, false, "\(type): malformed \(fields)"))
        }
        #expect(lines.count > 26 * 5)
        var schemaFields: [String: Set<String>] = [:]
        for (type, branch) in branches(root) {
            guard case .object(let properties)? = branch["properties"] else { continue }
            // The members any line may have, which the decoder reads before the type's own fields (and
            // `expect` it leaves out of the event): the fields it lists for an unknown one are the type's own.
            #expect(properties.keys.contains("expect"), "\(type)")
            schemaFields[type] = Set(properties.keys).subtracting(["at", "user", "type", "expect"])
        }
        let outputs = try replay(lines.map(\.line))
        for (i, (line, valid, what)) in lines.enumerated() {
            let errors = checker.errors(try Value.parse(line))
            let accepted = valid ?? errors.isEmpty
            #expect(errors.isEmpty == accepted, "\(what): the schema \(accepted ? "refuses" : "accepts") \(line): \(errors)")
            guard i < outputs.count else { continue }
            let code = Self.errorCode(outputs[i])
            #expect((code == "INVALID_EVENT") == !accepted, "\(what): the schema says \(errors), the decoder \(outputs[i]) to \(line)")
            // The decoder names the fields it knows when it refuses an unknown one: the schema has the same.
            if what.hasSuffix(": unknown field"), case .object(let o) = outputs[i], case .object(let e)? = o["error"],
                case .string(let message)? = e["message"]
            {
                let type = String(what.dropLast(": unknown field".count))
                #expect(Self.decoderFields(message) == schemaFields[type], "\(type): the decoder says \(message)")
            }
        }
    }

    /// Every event file shipped (examples/, rules/) passes the schema, a scenario test's lines
    /// (which may carry `expect`) the scenario schema.
    @Test func everyShippedEventFilePassesTheSchema() throws {
        let events = try schema("events").checker
        let scenario = try schema("scenario").checker
        var files = 0
        for folder in ["examples", "rules"] {
            let root = CLI.packageRoot.appendingPathComponent(folder)
            let enumerator = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            for case let url as URL in enumerator where url.pathExtension == "jsonl" {
                files += 1
                let isScenario = url.deletingLastPathComponent().lastPathComponent == "tests"
                let text = try String(contentsOf: url, encoding: .utf8)
                for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
                    let errors = (isScenario ? scenario : events).errors(try Value.parse(trimmed))
                    #expect(errors.isEmpty, "\(url.path):\(n + 1): \(errors)")
                }
            }
        }
        #expect(files >= 40)
    }

    @Test func aRealSimulateReportPassesTheReportSchema() throws {
        let checker = try schema("report", "simulate").checker
        let result = try CLI.run(["simulate", "3d", "--users", "40", "--no-db", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Value.parse(result.stdout)
        #expect(checker.errors(report) == [])
        // A field the schema does not know, and a count of the wrong type, are refused.
        guard case .object(var o) = report, case .array(var days)? = o["days"], case .object(var day)? = days.first else {
            Issue.record("no days in \(result.stdout.prefix(200))")
            return
        }
        day["commitments"] = .string("3")
        days[0] = .object(day)
        o["days"] = .array(days)
        o["extra"] = .integer(1)
        let errors = checker.errors(.object(o))
        #expect(errors.contains("$.days[0].commitments: expected integer, found \"3\""), "\(errors)")
        #expect(errors.contains("$.extra: not allowed"), "\(errors)")
    }

    /// A cohort outside Pressure (no Pressure member in the summary), with its segments.
    @Test func aReportWithSegmentsAndWithoutPressurePassesTheReportSchema() throws {
        let checker = try schema("report", "simulate").checker
        let result = try CLI.run([
            "simulate", "2d", "--users", "12", "--no-db", "--format", "json", "--segments", "--persona", "focus-user:1,steady:1",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Value.parse(result.stdout)
        #expect(checker.errors(report) == [])
        guard case .object(let o) = report, case .object(let segments)? = o["segments"], case .array(let personas)? = segments["personas"]
        else {
            Issue.record("no segments in \(result.stdout.prefix(300))")
            return
        }
        #expect(personas.count == 2)
        let focusOnly = try CLI.run(["simulate", "2d", "--users", "5", "--no-db", "--format", "json", "--persona", "focus-user"])
        #expect(checker.errors(try Value.parse(focusOnly.stdout)) == [])
        #expect(!focusOnly.stdout.contains("\"check_ins\"") && !focusOnly.stdout.contains("\"segments\""))
    }

    /// A run with the team's metrics (`metrics.lua`, a percentile's values among them), and their segments.
    @Test func aReportWithTeamMetricsPassesTheReportSchema() throws {
        let checker = try schema("report", "simulate").checker
        let result = try CLI.run([
            "simulate", "3d", "--users", "12", "--no-db", "--format", "json", "--segments", "--rules", "examples/night-surcharge",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"team_metrics\"") && result.stdout.contains("\"values\""))
        let errors = checker.errors(try Value.parse(result.stdout))
        #expect(errors == [], "\(errors.prefix(5))")
    }

    /// A run whose rules fail at run time: its report has `failures`, which the schema describes.
    @Test func aReportWithFailuresPassesTheReportSchema() throws {
        let checker = try schema("report", "simulate").checker
        let dir = try SimulateFailureTests.variant(RuntimeFailure.error)
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try SimulateFailureTests.simulate(dir, ["--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("\"failures\":{\"RULE_ERROR\":"), "\(result.stdout.prefix(500))")
        #expect(checker.errors(try Value.parse(result.stdout)) == [])
    }

    @Test func validateReportsPassTheValidateSchema() throws {
        let checker = try schema("report", "validate").checker
        let valid = try CLI.run(["validate", "rules", "--format", "json"])
        #expect(valid.status == 0)
        #expect(checker.errors(try Value.parse(valid.stdout)) == [])
        let dir = try CLI.folder([
            "extends": CLI.packageRoot.appendingPathComponent("rules").path,
            "streaks.lua": "local M = base\nM.habit.min_completions = -1\nM.miga.current_day_grace = 3\nreturn M\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let invalid = try CLI.run(["validate", dir.path, "--format", "json"])
        #expect(invalid.status == 1)
        #expect(checker.errors(try Value.parse(invalid.stdout)) == [])
        #expect(invalid.stdout.contains("\"problems\":[{"))
    }

    @Test func aMissingOrExtraKindIsRefused() throws {
        let missing = try CLI.run(["schema", "report"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("which report? simulate or validate"), "\(missing.stderr)")
        let extra = try CLI.run(["schema", "events", "simulate"])
        #expect(extra.status == 2)
        let unknown = try CLI.run(["schema", "reports"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("events"), "\(unknown.stderr)")
    }
}

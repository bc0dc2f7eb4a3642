import Foundation
import RulesEngine
import Testing

/// `rules/.types/rulesrun.lua`, the editor's annotations of what rulesrun passes to rule
/// functions, against what the engine really passes: the records of `RuleSet.recordFields`
/// (which `RecordFieldsTests` checks field by field against every record the engine writes). Each
/// record argument has its `---@class`, with exactly the fields the engine writes, and the fields
/// of an inline table type (`{ kind: …, weekdays: … }`) are the record's too.
@Suite struct LuaTypeAnnotationsTests {
    /// The class annotating each record argument: (function, argument) → class. An argument that
    /// is a list (`periods`) is annotated by its element's class.
    static let classes: [String: String] = [
        "transition state": "EscalationState", "transition check_in": "CheckIn", "reminder_times window": "CheckInWindow",
        "pressure.next streak": "PressureStreak", "pressure.next day": "PressureDay", "habit.streak periods": "HabitPeriod",
        "habit.streak task": "HabitTask", "habit.streak user": "HabitUser", "miga.current_streak days": "MigaDay",
        "earned.qualifies day": "EarnedDay", "earned.day_ends day": "EarnedDayEnd", "focus_credits session": "FocusSession",
        "habit_award completion": "HabitCompletion", "price ctx": "PriceContext", "quest_blocked gate": "QuestGate",
        "emergency_blocked gate": "EmergencyGate", "window_active window": "ModeWindow", "window_active now": "LocalMoment",
        "effective_mode modes": "EarnedMode", "effective_mode now": "LocalMoment",
    ]
    /// Classes of what rule functions return (not passed by rulesrun).
    static let returned: Set<String> = ["HabitStreak", "EarnedStreak"]

    /// The classes of an annotations file: class → field → the field names of its inline table
    /// type (empty when its type is not an inline table).
    static func annotations(_ text: String) -> [String: [String: Set<String>]] {
        var classes: [String: [String: Set<String>]] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("---@class ") {
                let name = String(line.dropFirst("---@class ".count).prefix { !$0.isWhitespace })
                current = name
                classes[name] = classes[name] ?? [:]
            } else if line.hasPrefix("---@field "), let current {
                let rest = line.dropFirst("---@field ".count)
                let name = String(rest.prefix { !$0.isWhitespace && $0 != "?" })
                classes[current]![name] = inlineFields(rest.drop { !$0.isWhitespace }.drop { $0.isWhitespace })
            } else if !line.hasPrefix("---") {
                current = nil
            }
        }
        return classes
    }

    /// The field names of an inline table type at the start of `type` (`{ a: T, b: { c: U } }` →
    /// a, b); none when it does not start with `{`.
    static func inlineFields(_ type: Substring) -> Set<String> {
        guard type.first == "{" else { return [] }
        var depth = 0, names: Set<String> = [], token = "", expectingName = true
        for c in type {
            switch c {
            case "{": depth += 1; if depth == 1 { expectingName = true; token = "" }
            case "}": depth -= 1; if depth == 0 { return names }
            case "," where depth == 1: expectingName = true; token = ""
            case ":" where depth == 1 && expectingName:
                names.insert(token.trimmingCharacters(in: .whitespaces))
                expectingName = false
            default: if expectingName && depth == 1 { token.append(c) }
            }
        }
        return names
    }

    /// The fields the engine passes, per annotated class: class → field → its subfields (from the
    /// record paths `arg.field.sub`, `arg[].field`), over the default rules and a rule set that
    /// tracks app opens (its habit periods carry `opened`).
    static func passed() throws -> [String: [String: Set<String>]] {
        let dir = try SimTestSupport.temporaryFolder()
        try (SimTestSupport.rules + "\n").write(to: dir.appendingPathComponent("extends"), atomically: true, encoding: .utf8)
        try "local M = base\nM.habit.track_app_opens = true\nreturn M\n".write(
            to: dir.appendingPathComponent("streaks.lua"), atomically: true, encoding: .utf8)
        var classes: [String: [String: Set<String>]] = [:]
        for ruleSet in [try RuleSet.load(SimTestSupport.rules, proving: false), try RuleSet.load(dir.path, proving: false)] {
            for function in ruleSet.recordFields {
                for field in function.fields {
                    var segments = field.path.replacingOccurrences(of: "[]", with: "").split(separator: ".").map(String.init)
                    let argument = segments.removeFirst()
                    guard let name = Self.classes[function.function + " " + argument],
                        let first = segments.first
                    else { continue }
                    var fields = classes[name] ?? [:]
                    var sub = fields[first] ?? []
                    if segments.count > 1 { sub.insert(segments[1]) }
                    fields[first] = sub
                    classes[name] = fields
                }
            }
        }
        return classes
    }

    @Test func theAnnotationsNameExactlyTheFieldsTheEnginePasses() throws {
        let text = try String(contentsOf: SimTestSupport.root.appendingPathComponent("rules/.types/rulesrun.lua"), encoding: .utf8)
        let annotated = Self.annotations(text)
        let passed = try Self.passed()
        #expect(Set(Self.classes.values) == Set(passed.keys), "every mapped argument is a record the engine passes")
        for (name, fields) in passed.sorted(by: { $0.key < $1.key }) {
            guard let declared = annotated[name] else {
                Issue.record("rules/.types/rulesrun.lua: no ---@class \(name) (fields \(fields.keys.sorted()))")
                continue
            }
            let missing = Set(fields.keys).subtracting(declared.keys).sorted()
            let invented = Set(declared.keys).subtracting(fields.keys).sorted()
            #expect(missing.isEmpty, "rules/.types/rulesrun.lua: \(name) misses the fields \(missing)")
            #expect(invented.isEmpty, "rules/.types/rulesrun.lua: \(name) has fields the engine does not pass: \(invented)")
            for (field, sub) in fields where !sub.isEmpty {
                let declaredSub = declared[field] ?? []
                #expect(
                    declaredSub == sub,
                    "rules/.types/rulesrun.lua: \(name).\(field) declares \(declaredSub.sorted()), the engine passes \(sub.sorted())")
            }
        }
        let unknown = Set(annotated.keys).subtracting(passed.keys).subtracting(Self.returned).sorted()
        #expect(unknown.isEmpty, "rules/.types/rulesrun.lua: classes of no record the engine passes: \(unknown)")
    }

    /// The parser and the comparison see a missing and an invented field.
    @Test func aMissingOrInventedFieldIsFound() throws {
        let annotated = Self.annotations(
            """
            ---@class MigaDay
            ---@field exit integer
            ---@field frequency { kind: "daily", weekdays: integer[] } how often

            """)
        #expect(annotated["MigaDay"]?.keys.sorted() == ["exit", "frequency"])
        #expect(annotated["MigaDay"]?["frequency"] == ["kind", "weekdays"])
        #expect(try Self.passed()["MigaDay"]?.keys.sorted() == ["exits"])
    }
}

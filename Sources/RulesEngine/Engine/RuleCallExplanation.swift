import LuaHost
import RulesModel

/// How `replay --explain` shows one rule call (`LuaCallTrace.Call`): as JSON for tools, or as text
/// lines for people. Values are shown compactly as JSON, cut to a readable size: a string after
/// `maxStringLength` characters, a list after `maxListItems` items, a table after `maxFields`
/// fields, nesting after `maxDepth` levels (each cut says how much it left out).
public struct RuleCallExplanation: Sendable {
    public let call: LuaCallTrace.Call
    /// `escalation.transition`; for a function the engine does not call by name, its place.
    public let name: String
    /// Where the function is defined: `escalation.lua:63`.
    public let defined: String

    public static let maxStringLength = 80
    public static let maxListItems = 6
    public static let maxFields = 24
    public static let maxDepth = 4

    public init(_ call: LuaCallTrace.Call, in ruleSet: RuleSet) {
        self.call = call
        defined = "\(call.function.source):\(call.function.line)"
        name = ruleSet.qualifiedName(of: call.function) ?? "function at \(defined)"
    }

    /// `{"function": …, "defined": …, "arguments": […], "returned": […] or "error": …, "knobs": [{"name": …, "value": …}]}`,
    /// with `knobs_left_out` when more reads were made than recorded, and `lines`, the lines of the
    /// function's file the call ran.
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("function", .string(name)), ("defined", .string(defined)),
            ("arguments", .array(call.arguments.map(Self.shown))),
        ]
        if let results = call.results { fields.append(("returned", .array(results.map(Self.shown)))) }
        if let error = call.error { fields.append(("error", .string(error))) }
        fields.append(("knobs", .array(call.knobs.map { .object([("name", .string($0.name)), ("value", Self.shown(knob: $0))]) })))
        if call.knobsLeftOut > 0 { fields.append(("knobs_left_out", .int(call.knobsLeftOut))) }
        if let lines = call.lines { fields.append(("lines", .array(lines.map(JSONValue.int)))) }
        return .object(fields)
    }

    /// The call as indented lines of text: its name and place, its arguments, what it returned (or
    /// its error), the knobs it read, the lines of its file it ran (`65-70, 74`).
    public var text: [String] {
        var lines = ["  \(name) (\(defined))"]
        lines.append(
            "    arguments: "
                + (call.arguments.isEmpty ? "none" : call.arguments.map { Self.shown($0).description }.joined(separator: ", ")))
        if let results = call.results {
            lines.append(
                "    returned: " + (results.isEmpty ? "nothing" : results.map { Self.shown($0).description }.joined(separator: ", ")))
        }
        if let error = call.error { lines.append("    error: " + error.split(separator: "\n").joined(separator: " / ")) }
        if !call.knobs.isEmpty || call.knobsLeftOut > 0 {
            let reads = call.knobs.map { "\($0.name) = \(Self.shown(knob: $0))" }
            lines.append(
                "    knobs: " + (reads + (call.knobsLeftOut > 0 ? ["… \(call.knobsLeftOut) more reads"] : [])).joined(separator: ", "))
        }
        if let executed = call.lines, !executed.isEmpty { lines.append("    lines: " + RuleCoverage.rangeText(executed)) }
        return lines
    }

    static func shown(knob: LuaCallTrace.KnobRead) -> JSONValue {
        if knob.cut, case .string(let s) = knob.value { return .string(s + "…") }
        return shown(knob.value)
    }

    /// A value as shown: nil (not converted: too large) as `"…"`.
    static func shown(_ value: LuaValue?) -> JSONValue {
        guard let value else { return .string("… (more than \(LuaCallTrace.maxEntries) table entries)") }
        return shown(value, depth: 0)
    }

    static func shown(_ value: LuaValue, depth: Int) -> JSONValue {
        switch value {
        case .nil: return .null
        case .boolean(let b): return .bool(b)
        case .integer(let i): return Int(exactly: i).map(JSONValue.int) ?? .string("\(i)")
        case .number(let d): return d.isFinite ? .double(d) : .string(d.isNaN ? "nan" : d < 0 ? "-inf" : "inf")
        case .string(let s): return .string(s.count > maxStringLength ? String(s.prefix(maxStringLength)) + "…" : s)
        case .function(let f): return .string("function at \(f.source):\(f.line)")
        case .table(let t):
            if depth >= maxDepth { return .string("{… \(t.count) entries}") }
            if t.isSequence && !t.isEmpty {
                let items = t.sequence
                var shownItems = items.prefix(maxListItems).map { shown($0, depth: depth + 1) }
                if items.count > maxListItems { shownItems.append(.string("… \(items.count - maxListItems) more")) }
                return .array(shownItems)
            }
            let entries = t.sortedEntries
            var fields: [(String, JSONValue)] = entries.prefix(maxFields).map { entry in
                let key: String
                if case .string(let s) = entry.key { key = s } else { key = "[\(entry.key)]" }
                return (key, shown(entry.value, depth: depth + 1))
            }
            if entries.count > maxFields { fields.append(("…", .string("\(entries.count - maxFields) more"))) }
            return .object(fields)
        }
    }
}

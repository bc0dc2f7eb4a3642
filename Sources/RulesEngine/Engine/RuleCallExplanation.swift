import LuaHost
import RulesModel

/// How `replay --explain` shows one rule call (`LuaCallTrace.Call`): as JSON for tools, or as text
/// lines for people. Values are shown compactly as JSON, cut to a readable size (`Limits`): a
/// string after `maxStringLength` characters, a list after `maxListItems` items, a table after
/// `maxFields` fields, nesting after `maxDepth` levels (each cut says how much it left out);
/// `Limits.full` (`replay --explain --full`) shows them whole up to much larger limits.
package struct RuleCallExplanation: Sendable {
    package let call: LuaCallTrace.Call
    /// `escalation.transition`; for a function the engine does not call by name, its place.
    package let name: String
    /// Where the function is defined: `escalation.lua:63`.
    package let defined: String
    /// How much of each value is shown.
    package let limits: Limits

    /// Where values are cut.
    package struct Limits: Sendable, Equatable {
        package var maxStringLength: Int
        package var maxListItems: Int
        package var maxFields: Int
        package var maxDepth: Int

        /// Readable at a glance: strings of 80 characters, 6 list items, 24 fields, 4 levels.
        package static let abbreviated = Limits(maxStringLength: 80, maxListItems: 6, maxFields: 24, maxDepth: 4)
        /// Whole, within the trace's own limit of 4,096 table entries a value: strings of 4,096
        /// characters, lists and tables of 4,096 entries, 32 levels.
        package static let full = Limits(
            maxStringLength: 4_096, maxListItems: LuaCallTrace.maxEntries, maxFields: LuaCallTrace.maxEntries, maxDepth: 32)
    }

    package init(_ call: LuaCallTrace.Call, in ruleSet: RuleSet, limits: Limits = .abbreviated) {
        self.call = call
        self.limits = limits
        defined = "\(call.function.source):\(call.function.line)"
        name = ruleSet.qualifiedName(of: call.function) ?? "function at \(defined)"
    }

    /// `{"function": …, "defined": …, "arguments": […], "returned": […] and "return_line": N or "error": …,
    /// "notes": […], "knobs": [{"name": …, "value": …}], "params_read": [{"name": …, "value": …}], "lines": […]}`:
    /// `return_line` when the line it returned from is known, `notes` and `notes_left_out`,
    /// `params_read` and `knobs_left_out` only when there are any, and `lines`, the lines of the
    /// function's file the call ran.
    package var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("function", .string(name)), ("defined", .string(defined)),
            ("arguments", .array(call.arguments.map(shown))),
        ]
        if let results = call.results {
            fields.append(("returned", .array(results.map(shown))))
            if let line = call.returnLine { fields.append(("return_line", .int(line))) }
        }
        if let error = call.error { fields.append(("error", .string(error))) }
        if !call.notes.isEmpty { fields.append(("notes", .array(call.notes.map(JSONValue.string)))) }
        if call.notesLeftOut > 0 { fields.append(("notes_left_out", .int(call.notesLeftOut))) }
        func reads(_ reads: [LuaCallTrace.KnobRead]) -> JSONValue {
            .array(reads.map { .object([("name", .string($0.name)), ("value", shown(knob: $0))]) })
        }
        fields.append(("knobs", reads(call.knobs)))
        if !call.params.isEmpty { fields.append(("params_read", reads(call.params))) }
        if call.knobsLeftOut > 0 { fields.append(("knobs_left_out", .int(call.knobsLeftOut))) }
        if let lines = call.lines { fields.append(("lines", .array(lines.map(JSONValue.int)))) }
        return .object(fields)
    }

    /// The call as indented lines of text: its name and place, its arguments, what it returned (or
    /// its error), its notes, the knobs and params it read, the lines of its file it ran (`65-70, 74`).
    package var text: [String] {
        var lines = ["  \(name) (\(defined))"]
        lines.append(
            "    arguments: " + (call.arguments.isEmpty ? "none" : call.arguments.map { shown($0).description }.joined(separator: ", ")))
        if let results = call.results {
            lines.append(
                "    returned: " + (results.isEmpty ? "nothing" : results.map { shown($0).description }.joined(separator: ", ")))
        }
        if let error = call.error { lines.append("    error: " + error.split(separator: "\n").joined(separator: " / ")) }
        lines += call.notes.map(Self.noteLine)
        if call.notesLeftOut > 0 {
            let more = "\(call.notesLeftOut) more note\(call.notesLeftOut == 1 ? "" : "s")"
            lines.append("    … \(more) (at most \(LuaCallTrace.maxNotes) a call)")
        }
        if !call.knobs.isEmpty || call.knobsLeftOut > 0 {
            let reads = call.knobs.map { "\($0.name) = \(shown(knob: $0))" }
            lines.append(
                "    knobs: " + (reads + (call.knobsLeftOut > 0 ? ["… \(call.knobsLeftOut) more reads"] : [])).joined(separator: ", "))
        }
        if !call.params.isEmpty {
            lines.append("    params read: " + call.params.map { "\($0.name) = \(shown(knob: $0))" }.joined(separator: ", "))
        }
        if let executed = call.lines, !executed.isEmpty { lines.append("    lines: " + RuleCoverage.rangeText(executed)) }
        return lines
    }

    /// A note as a text line: `    note: night surcharge 50 %` (its line breaks shown as ` / `).
    package static func noteLine(_ note: String) -> String {
        "    note: " + note.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " / ")
    }

    func shown(knob: LuaCallTrace.KnobRead) -> JSONValue {
        if knob.cut, case .string(let s) = knob.value { return .string(s + "…") }
        return shown(knob.value)
    }

    /// A value as shown: nil (not converted: too large) as `"…"`.
    func shown(_ value: LuaValue?) -> JSONValue {
        guard let value else { return .string("… (more than \(LuaCallTrace.maxEntries) table entries)") }
        return Self.shown(value, depth: 0, limits: limits)
    }

    static func shown(_ value: LuaValue, depth: Int, limits: Limits) -> JSONValue {
        switch value {
        case .nil: return .null
        case .boolean(let b): return .bool(b)
        case .integer(let i): return Int(exactly: i).map(JSONValue.int) ?? .string("\(i)")
        case .number(let d): return d.isFinite ? .double(d) : .string(d.isNaN ? "nan" : d < 0 ? "-inf" : "inf")
        case .string(let s):
            return .string(s.count > limits.maxStringLength ? String(s.prefix(limits.maxStringLength)) + "…" : s)
        case .function(let f): return .string("function at \(f.source):\(f.line)")
        case .table(let t):
            if depth >= limits.maxDepth { return .string("{… \(t.count) entries}") }
            if t.isSequence && !t.isEmpty {
                let items = t.sequence
                var shownItems = items.prefix(limits.maxListItems).map { shown($0, depth: depth + 1, limits: limits) }
                if items.count > limits.maxListItems { shownItems.append(.string("… \(items.count - limits.maxListItems) more")) }
                return .array(shownItems)
            }
            let entries = t.sortedEntries
            var fields: [(String, JSONValue)] = entries.prefix(limits.maxFields).map { entry in
                let key: String
                if case .string(let s) = entry.key { key = s } else { key = "[\(entry.key)]" }
                return (key, shown(entry.value, depth: depth + 1, limits: limits))
            }
            if entries.count > limits.maxFields { fields.append(("…", .string("\(entries.count - limits.maxFields) more"))) }
            return .object(fields)
        }
    }
}

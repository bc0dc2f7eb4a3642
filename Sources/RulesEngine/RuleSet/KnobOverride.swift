import Foundation
import LuaHost

/// One knob of a rule set given another value: `escalation.recover_after[3] = 2`. A rule set loaded
/// with overrides (``RuleSet/load(_:limits:randomSeed:proving:overrides:)``) is its files with these
/// values written into the tables they return, after each file ran and before the tables are
/// frozen, then validated like any rule set: a value that breaks a constraint is a problem of the
/// file, at the knob's line. (A value a file computed from the knob while it loaded keeps the
/// value the file gave it: the override changes the knob, not the file's arithmetic.)
package struct KnobOverride: Sendable, Hashable {
    /// The module the knob belongs to: `escalation` (the file `escalation.lua`).
    package var module: String
    /// The keys from the module's table to the knob: `recover_after`, 3.
    package var keys: [LuaValue]
    /// The new value: an integer, a number, a boolean or a string.
    package var value: LuaValue

    /// The most overrides one rule set is loaded with.
    package static let maxOverrides = 64

    /// A knob path as `replay --explain` writes it, `escalation.recover_after[3]`: the module, then
    /// the path in its table. Throws a message saying what is wrong with it.
    package init(path: String, value: LuaValue) throws(KnobOverrideError) {
        guard let dot = path.firstIndex(where: { $0 == "." || $0 == "[" }), path[dot] == "." else {
            throw KnobOverrideError("\"\(path)\" is not a knob path: expected a file's name, then the knob (escalation.recover_after[3])")
        }
        let module = String(path[..<dot])
        let modules = RuleSet.fileNames.map { String($0.dropLast(".lua".count)) }
        guard modules.contains(module) else {
            var message = "\"\(module)\" is not a file of a rule set (expected \(modules.joined(separator: ", ")))"
            if let suggestion = Suggestion.closest(to: module, among: modules) { message += "; did you mean '\(suggestion)'?" }
            throw KnobOverrideError(message)
        }
        guard let keys = LuaPath.keys(of: String(path[path.index(after: dot)...])), !keys.isEmpty,
            !keys.contains(where: { $0.stringValue?.isEmpty == true })
        else {
            throw KnobOverrideError("\"\(path)\" is not a knob path: expected keys like recover_after[3] or credit_costs[1].credits")
        }
        switch value {
        case .integer, .boolean, .string: break
        case .number(let d) where d.isFinite: break
        default: throw KnobOverrideError("a knob's value must be an integer, a finite number, a boolean or a string, found \(value)")
        }
        self.module = module
        self.keys = keys
        self.value = value
    }

    /// The knob's path: `escalation.recover_after[3]`.
    package var path: String { module + "." + knobPath }
    /// The knob's path in its file's table: `recover_after[3]`.
    package var knobPath: String { LuaPath.path(of: keys) }
    /// The file the knob is in.
    package var fileName: String { module + ".lua" }

    /// The value the knob has in `module` (what a file returned), or why it cannot be given
    /// `value`: a path that does not exist, a table or a function there, another type (a number
    /// where a string was: the override would not be the same knob). An integer given to a knob
    /// that is a float becomes a float.
    package mutating func resolve(in moduleValue: LuaValue) throws(KnobOverrideError) -> LuaValue {
        var node = moduleValue
        var walked = module
        for key in keys {
            guard let table = node.tableValue else {
                throw KnobOverrideError("\(path): \(walked) is \(node.errorDescription), not a table")
            }
            node = table[key]
            LuaPath.append(key, to: &walked)
            if node.isNil {
                var message = walked == path ? "\(path) does not exist" : "\(path): \(walked) does not exist"
                let names = table.sortedEntries.compactMap { $0.key.stringValue }
                if case .string(let name) = key, let suggestion = Suggestion.closest(to: name, among: names) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw KnobOverrideError(message)
            }
        }
        switch (node, value) {
        case (.number, .integer(let i)):
            value = .number(Double(i))
            return node
        case (.integer, .integer), (.number, .number), (.boolean, .boolean), (.string, .string):
            return node
        case (.integer, .number):
            throw KnobOverrideError("\(path) is an integer (\(node)); \(value) is not one")
        case (.table, _), (.function, _):
            throw KnobOverrideError("\(path) is \(node.errorDescription), not a value a sweep can set")
        default:
            throw KnobOverrideError("\(path) is a \(node.typeName) (\(node)), not a \(value.typeName) like \(value)")
        }
    }

    /// The Lua text that writes `overrides` (all of one file) into the table the file returned,
    /// given as `base`, and returns it.
    static func chunk(_ overrides: [KnobOverride]) -> String {
        var lines = ["local t = base"]
        for override in overrides {
            var target = "t"
            for key in override.keys.dropLast() { target += "[\(literal(key))]" }
            lines.append("\(target)[\(literal(override.keys.last!))] = \(literal(override.value))")
        }
        lines.append("return t")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A Lua literal of a scalar: integers and booleans as written, floats exactly (hexadecimal),
    /// strings with every byte that is not printable ASCII escaped.
    package static func literal(_ value: LuaValue) -> String {
        switch value {
        case .integer(let i): return i == Int64.min ? "math.mininteger" : String(i)
        case .number(let d): return String(format: "%a", d)
        case .boolean(let b): return b ? "true" : "false"
        case .string(let s):
            var out = "\""
            for byte in s.utf8 {
                if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                    out.append(Character(UnicodeScalar(byte)))
                } else {
                    out += String(format: "\\%03d", byte)
                }
            }
            return out + "\""
        default: return "nil"
        }
    }
}

/// A knob override that cannot be applied: the message says which knob and why.
package struct KnobOverrideError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

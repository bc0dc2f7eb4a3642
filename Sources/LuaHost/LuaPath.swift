/// Field paths as a rule author writes them: `tiers[2].recover_after` (indices are Lua's, from 1).
package enum LuaPath {
    /// Renders a Codable coding path.
    package static func render(_ path: [any CodingKey]) -> String {
        var out = ""
        for key in path {
            if let index = key as? LuaIndexKey {
                out += "[\(index.index + 1)]"
            } else if let i = key.intValue, Int(key.stringValue) == i {
                out += "[\(i)]"
            } else {
                append(key.stringValue, to: &out)
            }
        }
        return out
    }

    /// Appends one string key: `.name`, or `["odd key"]` when it is not an identifier.
    package static func append(_ key: String, to path: inout String) {
        if isIdentifier(key) {
            path += path.isEmpty ? key : "." + key
        } else {
            path += "[\"\(key)\"]"
        }
    }

    /// The keys of a path written by `append`: `reminders[1][2]` is `reminders`, 1, 2; nil for a
    /// path it cannot read (a key that is a table or a function).
    package static func keys(of path: String) -> [LuaValue]? {
        var keys: [LuaValue] = []
        var rest = Substring(path)
        while !rest.isEmpty {
            if rest.hasPrefix("[\"") {
                guard let end = rest.dropFirst(2).range(of: "\"]") else { return nil }
                keys.append(.string(String(rest[rest.index(rest.startIndex, offsetBy: 2)..<end.lowerBound])))
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("[") {
                guard let end = rest.firstIndex(of: "]") else { return nil }
                let text = rest[rest.index(after: rest.startIndex)..<end]
                if let n = Int64(text) {
                    keys.append(.integer(n))
                } else if let d = Double(text) {
                    keys.append(.number(d))
                } else if text == "true" || text == "false" {
                    keys.append(.boolean(text == "true"))
                } else {
                    return nil
                }
                rest = rest[rest.index(after: end)...]
            } else {
                if rest.hasPrefix(".") { rest = rest.dropFirst() }
                let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
                keys.append(.string(String(rest[..<end])))
                rest = rest[end...]
            }
        }
        return keys
    }

    /// Appends any table key: a string as above, others in brackets (`[2]`, `[true]`, `[table]`).
    package static func append(_ key: LuaValue, to path: inout String) {
        switch key {
        case .string(let name): append(name, to: &path)
        case .table, .function: path += "[\(key.typeName)]"
        default: path += "[\(key)]"
        }
    }

    /// The path of table keys, as `render` writes it (`keys(of:)` read back).
    package static func path(of keys: some Sequence<LuaValue>) -> String {
        var out = ""
        for key in keys { append(key, to: &out) }
        return out
    }

    /// Whether `path` is `ancestor` or inside it (`habits[1].rate` is inside `habits` and `habits[1]`).
    package static func isWithin(_ path: String, _ ancestor: String) -> Bool {
        path == ancestor || ancestor.isEmpty || path.hasPrefix(ancestor + ".") || path.hasPrefix(ancestor + "[")
    }

    /// The message for an unknown key of a table (the error's path names the key itself):
    /// `unknown field (did you mean 'recover_after'?)`.
    static func unknownFieldMessage(_ key: LuaValue, others: some Collection<LuaValue>, known: [String]) -> String {
        var message: String
        if case .string(let name) = key {
            message = "unknown field"
            if let suggestion = Suggestion.closest(to: name, among: known) {
                message += " (did you mean '\(suggestion)'?)"
            } else if !known.isEmpty {
                message += " (expected one of: \(Set(known).sorted().joined(separator: ", ")))"
            }
        } else {
            message = "unexpected entry (this table takes named fields only)"
        }
        if !others.isEmpty {
            message += "; also unknown: " + others.map { $0.stringValue.map { "'\($0)'" } ?? "[\($0)]" }.joined(separator: ", ")
        }
        return message
    }

    /// The coding key of a table key, for paths.
    static func key(for value: LuaValue) -> any CodingKey {
        switch value {
        case .string(let s): LuaNameKey(s)
        case .integer(let i): LuaNameKey(intValue: Int(i))
        default: LuaNameKey("\(value)")
        }
    }

    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return s.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    private static func isLetter(_ c: UInt8) -> Bool { (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) }
}

/// The coding key of an element of a Lua sequence (0-based here, shown 1-based).
struct LuaIndexKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(intValue: Int) { self.index = intValue }
    init?(stringValue: String) { return nil }
    var intValue: Int? { index }
    var stringValue: String { "\(index + 1)" }
}

/// A coding key for a name or an integer key met in a Lua table.
struct LuaNameKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(_ name: String) { stringValue = name; intValue = nil }
    init?(stringValue: String) { self.init(stringValue) }
    init(intValue: Int) { self.stringValue = "\(intValue)"; self.intValue = intValue }
}

import LuaHost

/// Deep equality of Lua values for `expect_eq`, and where two values first differ.
enum LuaValueDiff {
    /// The first difference between `found` and `expected` (`current: expected 2, found 1`, the
    /// path in Lua's syntax from the compared values; no path when they differ as a whole), or nil
    /// when they are equal: numbers by value (`2 == 2.0`, as Lua compares them), tables key by key
    /// in a stable order (integer keys ascending, then the others), functions by identity.
    static func firstDifference(found: LuaValue, expected: LuaValue, path: String = "") -> String? {
        switch (found, expected) {
        case (.table(let f), .table(let e)):
            var keys = Array(Set(f.storage.keys).union(e.storage.keys))
            keys.sort { LuaTable.keyOrder($0, $1) }
            for key in keys {
                var inner = path
                LuaPath.append(key, to: &inner)
                if let difference = firstDifference(found: f[key], expected: e[key], path: inner) { return difference }
            }
            return nil
        default:
            if equal(found, expected) { return nil }
            let prefix = path.isEmpty ? "" : "\(path): "
            return "\(prefix)expected \(describe(expected)), found \(describe(found))"
        }
    }

    private static func equal(_ a: LuaValue, _ b: LuaValue) -> Bool {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): x == y
        case (.integer, .number), (.number, .integer), (.number, .number): a.doubleValue! == b.doubleValue!
        default: a == b
        }
    }

    /// A value as a message shows it: `2`, `"GENTLE"`, `{1, 2}`, at most 200 characters.
    static func describe(_ value: LuaValue) -> String { SourceFile.excerpt(value.description) }
}

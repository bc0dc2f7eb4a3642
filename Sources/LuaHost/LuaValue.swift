/// A Lua value on the Swift side. Integers and floats stay apart, as in Lua 5.4.
public enum LuaValue: Hashable, Sendable {
    case `nil`
    case boolean(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case table(LuaTable)
    /// A function defined by a rule file; call it with `LuaHost.call`.
    case function(LuaFunction)

    /// The Lua type name (`nil`, `boolean`, `number`, `string`, `table`, `function`).
    public var typeName: String {
        switch self {
        case .nil: "nil"
        case .boolean: "boolean"
        case .integer, .number: "number"
        case .string: "string"
        case .table: "table"
        case .function: "function"
        }
    }

    /// How the value reads in an error message: `string "two"`, `integer 3`, `number 3.5`, `a table`.
    public var errorDescription: String {
        switch self {
        case .nil: return "nil"
        case .boolean(let b): return "boolean \(b)"
        case .integer(let i): return "integer \(i)"
        case .number(let d): return "number \(LuaValue.format(d))"
        case .string(let s):
            let shown = s.count > 40 ? String(s.prefix(40)) + "…" : s
            return "string \"\(shown)\""
        case .table: return "a table"
        case .function: return "a function"
        }
    }

    static func format(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        return "\(d)"
    }

    public var isNil: Bool { if case .nil = self { true } else { false } }

    /// The table, if this is one.
    public var tableValue: LuaTable? { if case .table(let t) = self { t } else { nil } }
    /// The function, if this is one.
    public var functionValue: LuaFunction? { if case .function(let f) = self { f } else { nil } }
    /// The string, if this is one.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The integer, if this is an integer or a float with an exact integer value.
    public var integerValue: Int64? {
        switch self {
        case .integer(let i): return i
        case .number(let d): return d.isFinite && d.rounded() == d && abs(d) < 9.2e18 ? Int64(d) : nil
        default: return nil
        }
    }
    /// The number, if this is an integer or a float.
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }

    /// Looks up a string key when this is a table; `.nil` otherwise.
    public subscript(key: String) -> LuaValue {
        tableValue?[.string(key)] ?? .nil
    }
}

extension LuaValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: LuaValue...) { self = .table(LuaTable(sequence: elements)) }
    public init(dictionaryLiteral elements: (LuaValue, LuaValue)...) {
        var t = LuaTable(minimumCapacity: elements.count)
        for (k, v) in elements { t[k] = v }
        self = .table(t)
    }
}

extension LuaValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .nil: "nil"
        case .boolean(let b): "\(b)"
        case .integer(let i): "\(i)"
        case .number(let d): LuaValue.format(d)
        case .string(let s): "\"\(s)\""
        case .table(let t): t.description
        case .function(let f): "function<\(f.source):\(f.line)>"
        }
    }
}

/// A Lua table on the Swift side: a map from non-nil keys to non-nil values. Float keys with an
/// integer value are stored as integers, as Lua does.
public struct LuaTable: Hashable, Sendable, CustomStringConvertible {
    public private(set) var storage: [LuaValue: LuaValue] = [:]

    public init() {}
    init(minimumCapacity: Int) { storage.reserveCapacity(minimumCapacity) }
    public init(sequence: [LuaValue]) {
        storage.reserveCapacity(sequence.count)
        for (i, v) in sequence.enumerated() where !v.isNil { storage[.integer(Int64(i + 1))] = v }
    }

    static func normalize(_ key: LuaValue) -> LuaValue {
        if case .number(let d) = key, let i = key.integerValue, Double(i) == d { return .integer(i) }
        return key
    }

    public subscript(key: LuaValue) -> LuaValue {
        get { storage[LuaTable.normalize(key)] ?? .nil }
        set {
            let k = LuaTable.normalize(key)
            if newValue.isNil { storage[k] = nil } else { storage[k] = newValue }
        }
    }
    public subscript(key: String) -> LuaValue {
        get { self[.string(key)] }
        set { self[.string(key)] = newValue }
    }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }

    /// The values at keys 1, 2, … up to the first missing one.
    public var sequence: [LuaValue] {
        var out: [LuaValue] = []
        var i: Int64 = 1
        while let v = storage[.integer(i)] { out.append(v); i += 1 }
        return out
    }

    /// Whether the keys are exactly 1…n (an empty table is a sequence).
    public var isSequence: Bool { sequence.count == storage.count }

    /// The string keys, sorted.
    public var stringKeys: [String] { storage.keys.compactMap(\.stringValue).sorted() }

    /// Entries in a stable order: integer keys ascending, then floats, then strings, then the rest.
    public var sortedEntries: [(key: LuaValue, value: LuaValue)] {
        storage.sorted { LuaTable.keyOrder($0.key, $1.key) }.map { (key: $0.key, value: $0.value) }
    }

    /// The order of `sortedEntries`: integers ascending, then floats, strings, booleans, the rest.
    public static func keyOrder(_ a: LuaValue, _ b: LuaValue) -> Bool {
        func rank(_ v: LuaValue) -> Int {
            switch v {
            case .integer: 0
            case .number: 1
            case .string: 2
            case .boolean: 3
            default: 4
            }
        }
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y
        case (.number(let x), .number(let y)): return x < y
        case (.string(let x), .string(let y)): return x < y
        case (.boolean(let x), .boolean(let y)): return !x && y
        default: return rank(a) < rank(b)
        }
    }

    public var description: String {
        if isSequence && !isEmpty { return "{" + sequence.map(\.description).joined(separator: ", ") + "}" }
        let parts = sortedEntries.map { entry -> String in
            if case .string(let s) = entry.key, LuaPath.isIdentifier(s) { return "\(s) = \(entry.value)" }
            return "[\(entry.key)] = \(entry.value)"
        }
        return "{" + parts.joined(separator: ", ") + "}"
    }
}

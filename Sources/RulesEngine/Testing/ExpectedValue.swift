import LuaHost
import RulesModel

/// What a scenario line's `expect` asks to find at a path: a JSON value, which may be, or hold, a
/// matcher. A matcher is an object whose keys all start with `$` (no output field does):
/// `{"$approx": 0.5123, "$tolerance": 1e-6}`, `{"$above": 0.9}`, `{"$below": 1}`,
/// `{"$prefix": [3, 2]}`, `{"$length": 3}`, `{"$absent": true}`, and `{"$equals": V}` for a value
/// `V` taken as it is written (an object whose own keys start with `$`). The keys of one matcher
/// must all hold (`{"$above": 0, "$below": 1}`). Matchers may sit inside objects and lists
/// (`{"length": {"$above": 2}}`), and `$prefix`'s elements may be matchers.
indirect enum ExpectedValue {
    /// A number, string, boolean or null: the same value (numbers by value).
    case scalar(JSONValue)
    /// A list of the same length whose elements match one by one.
    case list([ExpectedValue])
    /// An object with the same members in any order (a member expected `{"$absent": true}` must be missing).
    case object([(String, ExpectedValue)])
    case matcher(Matcher)

    struct Matcher {
        var approx: (value: Double, tolerance: Double)?
        var above: Double?
        var below: Double?
        var prefix: [ExpectedValue]?
        var length: Int?
        var absent: Bool?
        var equals: JSONValue?
    }

    /// The matchers' names, as written.
    static let names = ["$approx", "$tolerance", "$above", "$below", "$prefix", "$length", "$absent", "$equals"]

    /// The tolerance of an `$approx` without `$tolerance`.
    static let defaultTolerance = 1e-6

    /// Reads `json`, written at `path` in `expect`; refuses an unknown matcher (with the closest
    /// name), a matcher's value of the wrong kind, and an object mixing `$` keys with fields.
    init(_ json: JSONValue, path: String) throws(ScenarioTest.Invalid) {
        switch json {
        case .array(let elements):
            var list: [ExpectedValue] = []
            for (index, element) in elements.enumerated() { list.append(try ExpectedValue(element, path: "\(path)[\(index + 1)]")) }
            self = .list(list)
        case .object(let members) where !members.isEmpty && members.allSatisfy({ $0.0.hasPrefix("$") }):
            self = .matcher(try Self.matcher(members, path: path))
        case .object(let members):
            if let key = members.first(where: { $0.0.hasPrefix("$") })?.0 {
                throw Self.invalid(
                    path,
                    "'\(SourceFile.excerpt(key))' is a matcher's name but the object has fields too (a matcher's keys all start with $; an object with such a key is written {\"$equals\": {…}})"
                )
            }
            var object: [(String, ExpectedValue)] = []
            for (key, value) in members {
                var inner = path
                LuaPath.append(key, to: &inner)
                object.append((key, try ExpectedValue(value, path: inner)))
            }
            self = .object(object)
        default:
            self = .scalar(json)
        }
    }

    private static func invalid(_ path: String, _ message: String) -> ScenarioTest.Invalid {
        ScenarioTest.Invalid(message: "expect: \(path): \(message)")
    }

    private static func matcher(_ members: [(String, JSONValue)], path: String) throws(ScenarioTest.Invalid) -> Matcher {
        var m = Matcher()
        func number(_ name: String, _ value: JSONValue) throws(ScenarioTest.Invalid) -> Double {
            switch value {
            case .int(let i): return Double(i)
            case .double(let d): return d
            default: throw invalid(path, "\(name): expected a number, found \(value)")
            }
        }
        var tolerance: Double?
        for (name, value) in members {
            switch name {
            case "$approx": m.approx = (try number(name, value), defaultTolerance)
            case "$tolerance":
                let t = try number(name, value)
                guard t >= 0 else { throw invalid(path, "$tolerance: expected a number ≥ 0, found \(value)") }
                tolerance = t
            case "$above": m.above = try number(name, value)
            case "$below": m.below = try number(name, value)
            case "$prefix":
                guard case .array(let elements) = value else {
                    throw invalid(path, "$prefix: expected a list (the first elements of the list found), found \(value)")
                }
                var list: [ExpectedValue] = []
                for (index, element) in elements.enumerated() {
                    list.append(try ExpectedValue(element, path: "\(path).$prefix[\(index + 1)]"))
                }
                m.prefix = list
            case "$length":
                guard case .int(let n) = value, n >= 0 else {
                    throw invalid(path, "$length: expected a whole number ≥ 0 (of elements or members), found \(value)")
                }
                m.length = n
            case "$absent":
                guard case .bool(let b) = value else { throw invalid(path, "$absent: expected true or false, found \(value)") }
                m.absent = b
            case "$equals": m.equals = value
            default:
                let hint = Suggestion.closest(to: name, among: names).map { " (did you mean \($0)?)" } ?? ""
                throw invalid(
                    path, "unknown matcher '\(SourceFile.excerpt(name))'\(hint); the matchers are \(names.joined(separator: ", "))")
            }
        }
        if let tolerance {
            guard let approx = m.approx else {
                throw invalid(path, "$tolerance: goes with $approx ({\"$approx\": 0.5, \"$tolerance\": 1e-3})")
            }
            m.approx = (approx.value, tolerance)
        }
        if members.count > 1, let alone = members.first(where: { $0.0 == "$absent" || $0.0 == "$equals" })?.0 {
            throw invalid(path, "\(alone): stands alone in its matcher")
        }
        return m
    }

    /// Whether `found` (nil: nothing at the path) is what is expected.
    func matches(_ found: JSONValue?) -> Bool {
        switch self {
        case .matcher(let m):
            if let absent = m.absent { return absent == (found == nil) }
            guard let found else { return false }
            if let equals = m.equals { return ExpectedValue.sameValue(found, equals) }
            if let approx = m.approx {
                guard let n = found.number, abs(n - approx.value) <= approx.tolerance else { return false }
            }
            if let above = m.above {
                guard let n = found.number, n > above else { return false }
            }
            if let below = m.below {
                guard let n = found.number, n < below else { return false }
            }
            if let length = m.length {
                switch found {
                case .array(let elements): guard elements.count == length else { return false }
                case .object(let members): guard members.count == length else { return false }
                default: return false
                }
            }
            if let prefix = m.prefix {
                guard case .array(let elements) = found, elements.count >= prefix.count,
                    zip(prefix, elements).allSatisfy({ $0.matches($1) })
                else { return false }
            }
            return true
        case .scalar(let expected):
            guard let found else { return false }
            return ExpectedValue.sameValue(found, expected)
        case .list(let expected):
            guard case .array(let elements)? = found else { return false }
            return elements.count == expected.count && zip(expected, elements).allSatisfy { $0.matches($1) }
        case .object(let expected):
            guard case .object(let members)? = found else { return false }
            let present = expected.filter { _, value in
                if case .matcher(let m) = value, m.absent == true { return false }
                return true
            }
            return members.count == present.count
                && expected.allSatisfy { key, value in value.matches(members.first { $0.0 == key }?.1) }
        }
    }

    /// Whether `found` is `expected` as written: numbers by value (`2` is `2.0`), objects member by
    /// member whatever their order, lists element by element.
    static func sameValue(_ found: JSONValue, _ expected: JSONValue) -> Bool {
        switch (found, expected) {
        case (.int(let a), .int(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Double(a) == b
        case (.double(let a), .double(let b)): return a == b
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { sameValue($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && b.allSatisfy { key, value in a.first { $0.0 == key }.map { sameValue($0.1, value) } ?? false }
        default: return found == expected
        }
    }
}

extension JSONValue {
    /// The value of a number (an integer or a double); nil for anything else.
    fileprivate var number: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }
}

import Foundation

/// A JSON Schema (draft 2020-12) checker for the keywords rulesrun's schemas use (`rulesrun
/// schema`), so that the tests check documents against them without a validator installed. A
/// keyword it does not know is an error, not ignored: a schema cannot pass by using one.
struct JSONSchemaChecker {
    /// A JSON document as read: integers apart from other numbers (`3.0` is an integer, as the
    /// specification has it), object members by name.
    indirect enum Value: Decodable, Equatable, CustomStringConvertible {
        case null, bool(Bool), integer(Int64), number(Double), string(String), array([Value]), object([String: Value])

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() {
                self = .null
            } else if let b = try? c.decode(Bool.self) {
                self = .bool(b)
            } else if let i = try? c.decode(Int64.self) {
                self = .integer(i)
            } else if let d = try? c.decode(Double.self) {
                self = d.rounded() == d && abs(d) < 9e15 ? .integer(Int64(d)) : .number(d)
            } else if let s = try? c.decode(String.self) {
                self = .string(s)
            } else if let a = try? c.decode([Value].self) {
                self = .array(a)
            } else {
                self = .object(try c.decode([String: Value].self))
            }
        }

        static func parse(_ text: String) throws -> Value { try JSONDecoder().decode(Value.self, from: Data(text.utf8)) }

        var description: String {
            switch self {
            case .null: "null"
            case .bool(let b): "\(b)"
            case .integer(let i): "\(i)"
            case .number(let d): "\(d)"
            case .string(let s): "\"\(s)\""
            case .array(let a): "[\(a.map(\.description).joined(separator: ","))]"
            case .object(let o): "{\(o.keys.sorted().map { "\"\($0)\":\(o[$0]!)" }.joined(separator: ","))}"
            }
        }

        var numeric: Double? {
            switch self {
            case .integer(let i): Double(i)
            case .number(let d): d
            default: nil
            }
        }
    }

    let root: Value
    static let annotations: Set<String> = ["$schema", "$id", "title", "description", "default", "$defs"]

    init(_ schemaText: String) throws { root = try Value.parse(schemaText) }

    /// The errors of `document` (empty: valid), each `path: what`.
    func errors(_ document: Value) -> [String] { check(document, root, "$") }

    private func check(_ value: Value, _ schema: Value, _ path: String) -> [String] {
        if case .bool(let allowed) = schema { return allowed ? [] : ["\(path): not allowed"] }
        guard case .object(let s) = schema else { return ["\(path): the schema is not an object: \(schema)"] }
        var errors: [String] = []
        for (keyword, argument) in s.sorted(by: { $0.key < $1.key }) {
            switch keyword {
            case _ where Self.annotations.contains(keyword): break
            case "$ref":
                guard case .string(let ref) = argument, ref.hasPrefix("#/$defs/"), case .object(let r) = root,
                    case .object(let defs)? = r["$defs"],
                    let target = defs[String(ref.dropFirst(8))]
                else { errors.append("\(path): unresolved $ref \(argument)"); break }
                errors += check(value, target, path)
            case "type":
                let names: [String] =
                    if case .array(let a) = argument {
                        a.compactMap { if case .string(let n) = $0 { n } else { nil } }
                    } else if case .string(let n) = argument {
                        [n]
                    } else { [] }
                if !names.contains(where: { Self.isOf(value, $0) }) {
                    errors.append("\(path): expected \(names.joined(separator: " or ")), found \(value)")
                }
            case "enum":
                if case .array(let options) = argument, !options.contains(value) {
                    errors.append("\(path): \(value) is not one of \(argument)")
                }
            case "const":
                if value != argument { errors.append("\(path): expected \(argument), found \(value)") }
            case "properties":
                guard case .object(let o) = value, case .object(let properties) = argument else { break }
                for (name, sub) in properties { if let v = o[name] { errors += check(v, sub, "\(path).\(name)") } }
            case "required":
                guard case .object(let o) = value, case .array(let names) = argument else { break }
                for case .string(let name) in names where o[name] == nil { errors.append("\(path): \(name) is required") }
            case "additionalProperties":
                guard case .object(let o) = value else { break }
                let known: Set<String> = if case .object(let p)? = s["properties"] { Set(p.keys) } else { [] }
                for name in o.keys.sorted() where !known.contains(name) { errors += check(o[name]!, argument, "\(path).\(name)") }
            case "propertyNames":
                guard case .object(let o) = value else { break }
                for name in o.keys.sorted() { errors += check(.string(name), argument, "\(path) (name \(name))") }
            case "maxProperties":
                if case .object(let o) = value, case .integer(let n) = argument, o.count > n {
                    errors.append("\(path): more than \(n) members")
                }
            case "items":
                guard case .array(let a) = value else { break }
                for (i, element) in a.enumerated() { errors += check(element, argument, "\(path)[\(i)]") }
            case "minItems", "maxItems":
                guard case .array(let a) = value, case .integer(let limit) = argument else { break }
                if keyword == "minItems" ? a.count < limit : a.count > limit {
                    errors.append("\(path): \(a.count) items, out of the \(keyword) \(limit)")
                }
            case "minimum", "maximum":
                guard let n = value.numeric, let limit = argument.numeric else { break }
                if keyword == "minimum" ? n < limit : n > limit { errors.append("\(path): \(value) is out of the \(keyword) \(argument)") }
            case "minLength", "maxLength":
                guard case .string(let text) = value, case .integer(let limit) = argument else { break }
                let n = text.unicodeScalars.count
                if keyword == "minLength" ? n < limit : n > limit {
                    errors.append("\(path): length \(n) is out of the \(keyword) \(limit)")
                }
            case "pattern":
                guard case .string(let text) = value, case .string(let pattern) = argument else { break }
                guard let regex = Self.patterns.regex(pattern) else {
                    errors.append("\(path): bad pattern \(pattern)"); break
                }
                if regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil {
                    errors.append("\(path): \(value) does not match \(pattern)")
                }
            case "allOf", "anyOf", "oneOf":
                guard case .array(let subs) = argument else { break }
                let results = subs.map { check(value, $0, path) }
                let passed = results.filter(\.isEmpty).count
                switch keyword {
                case "allOf": errors += results.flatMap { $0 }
                case "anyOf":
                    if passed == 0 { errors.append("\(path): matches none of anyOf (\(results.flatMap { $0 }.joined(separator: "; ")))") }
                default: if passed != 1 { errors.append("\(path): matches \(passed) of oneOf, not exactly one") }
                }
            case "not":
                if check(value, argument, path).isEmpty { errors.append("\(path): matches what \"not\" refuses (\(argument))") }
            case "if":
                if check(value, argument, path).isEmpty {
                    if let then = s["then"] { errors += check(value, then, path) }
                } else if let otherwise = s["else"] {
                    errors += check(value, otherwise, path)
                }
            case "then", "else": break
            default:
                errors.append("\(path): the checker does not know the keyword \(keyword)")
            }
        }
        return errors
    }

    /// The patterns compiled so far: a schema's few patterns are matched in every document checked.
    private static let patterns = Patterns()

    final class Patterns: @unchecked Sendable {
        private let lock = NSLock()
        private var compiled: [String: NSRegularExpression?] = [:]

        /// `pattern` compiled (nil: not a valid pattern), once per pattern.
        func regex(_ pattern: String) -> NSRegularExpression? {
            lock.withLock {
                if let known = compiled[pattern] { return known }
                let regex = try? NSRegularExpression(pattern: pattern)
                compiled[pattern] = regex
                return regex
            }
        }
    }

    private static func isOf(_ value: Value, _ type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .integer), ("number", .integer), ("number", .number), ("string", .string),
            ("array", .array), ("object", .object):
            true
        default: false
        }
    }
}

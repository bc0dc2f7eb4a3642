import LuaHost
import RulesModel

/// Reads the declared fields of a JSON object as the rule decoder reads a struct, with its
/// messages: the fields in order (a missing required field named, or the misspelling of it that
/// is there), then the fields the object has but the type does not (with a suggestion).
enum EventFieldReader {
    static func read(
        _ fields: [any AnyEventField], from object: EventObject, at path: String, suggesting extra: [String] = []
    ) throws(EventFieldError) -> EventValues {
        var values = EventValues()
        var asked: [String] = []
        for field in fields {
            asked.append(field.name)
            let value = object[field.name]
            if value == nil, field.isRequired {
                // A misspelt field reads as "missing" first; name the misspelling instead when there is one.
                if let typo = object.sortedKeys.first(where: {
                    !asked.contains($0) && Suggestion.closest(to: $0, among: [field.name]) != nil
                }) {
                    throw EventFieldError(EventFieldError.path(typo, in: path), "unknown field (did you mean '\(field.name)'?)")
                }
                throw EventFieldError(EventFieldError.path(field.name, in: path), "required field is missing")
            }
            values.storage[field.name] = try field.read(value, at: EventFieldError.path(field.name, in: path))
        }
        let unknown = object.sortedKeys.filter { !asked.contains($0) }
        guard let first = unknown.first else { return values }
        var message = "unknown field"
        if let suggestion = Suggestion.closest(to: first, among: asked + extra) {
            message += " (did you mean '\(suggestion)'?)"
        } else if !asked.isEmpty {
            message += " (expected one of: \(Set(asked).sorted().joined(separator: ", ")))"
        }
        if unknown.count > 1 { message += "; also unknown: " + unknown.dropFirst().map { "'\($0)'" }.joined(separator: ", ") }
        throw EventFieldError(EventFieldError.path(first, in: path), message)
    }
}

/// A JSON object's members that are not null (a null field is a field not given), or an array's
/// (read where an object is expected: it has no named fields).
struct EventObject {
    let members: [(String, JSONValue)]

    init(members: [(String, JSONValue)]) { self.members = members }

    init?(_ value: JSONValue) {
        switch value {
        case .object(let all): members = all.filter { if case .null = $0.1 { false } else { true } }
        case .array: members = []
        default: return nil
        }
    }

    subscript(name: String) -> JSONValue? {
        for (key, value) in members where key == name { return value }
        return nil
    }

    var sortedKeys: [String] { members.map(\.0).sorted() }
}

/// A field that does not read: its path (`windows[1].start`) and what was expected.
struct EventFieldError: Error {
    var path: String
    var message: String

    init(_ path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    /// "expected `what`, found …" naming the value found as the rule decoder names it.
    static func expected(_ what: String, _ found: JSONValue, at path: String) -> EventFieldError {
        EventFieldError(path, "expected \(what), found \(found.foundDescription)")
    }

    /// The path of `key` in the object at `path`: `.key`, or `["odd key"]`.
    static func path(_ key: String, in path: String) -> String {
        var out = path
        LuaPath.append(key, to: &out)
        return out
    }

    var engineError: EngineError { EngineError(.invalidEvent, path.isEmpty ? message : "\(path): \(message)") }
}

extension JSONValue {
    /// A value found where another was expected, as the rule decoder names a Lua value: `integer
    /// 3`, `string "…"` (cut at 40 characters), `a table` for a list or an object, `nil` for null.
    var foundDescription: String {
        switch self {
        case .null: "nil"
        case .bool(let b): "boolean \(b)"
        case .int(let i): "integer \(i)"
        case .double(let d): "number \(d)"
        case .string(let s): "string \"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case .array, .object: "a table"
        }
    }
}

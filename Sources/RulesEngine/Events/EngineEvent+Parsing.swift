import LuaHost
import RulesModel

extension EngineEvent {
    /// Parses one JSON line. Errors name the field and what was expected; unknown fields are
    /// rejected with a suggestion. A scenario's `expect` (an object) is allowed on any line, and
    /// left out of the event. The fields of each type are read as its `EventDeclaration` says.
    public static func parse(_ line: String) throws(EngineError) -> EngineEvent {
        try parse(utf8: Array(line.utf8))
    }

    /// Parses one JSON line as read, which need not be UTF-8: a string in it that is not is
    /// refused, naming its field, rather than changed.
    public static func parse(utf8 line: [UInt8]) throws(EngineError) -> EngineEvent {
        let value: JSONValue
        do {
            value = try JSONLine.parse(utf8: line)
        } catch {
            throw EngineError(.invalidEvent, error.kind == .syntax ? "not valid JSON: \(error)" : error.fieldMessage)
        }
        // (An empty list is read as an object with no fields, as the Lua table it once was.)
        guard let object = EventObject(value), !(value.isNonEmptyArray) else {
            throw EngineError(.invalidEvent, "an event is a JSON object, found \(value.foundDescription)")
        }
        guard case .string(let atText) = object["at"] else {
            throw EngineError(
                .invalidEvent,
                object["at"].map { "at: expected an ISO-8601 time with an offset, found \($0.foundDescription)" }
                    ?? "at: required field is missing")
        }
        guard let at = Timestamp(atText) else {
            throw EngineError(
                .invalidEvent, "at: expected an ISO-8601 time with an offset (2026-03-02T08:30:00+01:00), found \"\(atText)\"")
        }
        try at.checkInEngineRange("at", written: atText)
        var user = "u1"
        switch object["user"] {
        case nil: break
        case .string(let name) where !name.isEmpty && name.count <= 200: user = name
        case let other?: throw EngineError(.invalidEvent, "user: expected a name (1–200 characters), found \(other.foundDescription)")
        }
        guard case .string(let type) = object["type"] else {
            throw EngineError(
                .invalidEvent,
                object["type"].map { "type: expected a string, found \($0.foundDescription)" } ?? "type: required field is missing")
        }
        // A scenario line's expectations (docs/testing-rules.md): judged by `rulesrun test` and
        // `replay --check`, which read them from the line; no part of the event.
        switch object["expect"] {
        case nil, .object?, .array([])?: break
        case let other?:
            throw EngineError(
                .invalidEvent,
                "expect: expected an object from paths to values ({\"state.current_tier\": 1}), found \(other.foundDescription)")
        }
        guard let declaration = EventDeclaration.byName[type] else {
            var message = "type: unknown event type \"\(type)\""
            if let suggestion = Suggestion.closest(to: type, among: typeNames) {
                message += " (did you mean \"\(suggestion)\"?)"
            } else {
                message += " (one of: \(typeNames.joined(separator: ", ")))"
            }
            throw EngineError(.invalidEvent, message)
        }
        let fields = EventObject(members: object.members.filter { !["at", "user", "type", "expect"].contains($0.0) })
        return EngineEvent(at: at, user: user, kind: try declaration.parse(fields))
    }
}

extension JSONValue {
    fileprivate var isNonEmptyArray: Bool { if case .array(let items) = self { !items.isEmpty } else { false } }
}

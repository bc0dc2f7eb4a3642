import RulesModel

extension EngineEvent {
    /// The event as a line of a replay file, which `parse` reads back as the same event:
    /// `{"at":"2026-01-05T08:30:00Z","user":"u3","type":"commitment","text":"Ship it"}`.
    package var jsonLine: String {
        JSONValue.object([("at", .string(at.description)), ("user", .string(user)), ("type", .string(kind.typeName))] + kind.jsonFields)
            .description
    }
}

extension EngineEvent.Kind {
    /// The fields of the event besides `at`, `user` and `type`, as its declaration writes them.
    package var jsonFields: [(String, JSONValue)] { declaration.jsonFields(self) }
}

extension ParamValue {
    /// The value as a JSON number, boolean or string.
    package var json: JSONValue {
        switch self {
        case .integer(let value): .int(Int(value))
        case .number(let value): .double(value)
        case .boolean(let value): .bool(value)
        case .string(let value): .string(value)
        }
    }
}

import RulesModel

/// The JSON Schema (draft 2020-12) of one line of a replay file, as `EngineEvent.parse` reads it
/// (`rulesrun schema events`; docs/tools.md): one branch per event type, from its declaration
/// (`EventDeclaration`), each with its fields, which of them are required, their types, the enumerations' values
/// (from the model's own cases), what a field needs with it (a frequency its counts, a goal type
/// its unit) and `additionalProperties: false`, as the strict decoder refuses an unknown field.
/// What depends on the rule set or on the user's state (a settings time's allowed steps, the
/// params a rule declares, time order) is the engine's to check; the schema says the shape.
/// `Tests/RulesrunTests/SchemaCommandTests.swift` checks it against the decoder: every event file
/// of examples/ and rules/ passes it; for every type its fields are those the decoder lists, and
/// lines with an unknown field, a field of another type, each listed value or a malformed value
/// are accepted or refused alike. Every line may carry a scenario's `expect` (an object), which
/// `rulesrun test` and `replay --check` judge and the decoder leaves out of the event.
package enum EventSchema {
    /// The schema of replay lines; with `scenario`, named as that of the lines of a scenario test
    /// (docs/testing-rules.md): the same lines.
    package static func json(scenario: Bool = false) -> JSONValue {
        let branches = branches()
        return .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .string(scenario ? "urn:rulesrun:schema:scenario-line" : "urn:rulesrun:schema:event")),
            ("title", .string(scenario ? "rulesrun scenario test line" : "rulesrun event (one line of a replay file)")),
            (
                "description",
                .string(
                    "One JSON object per line (JSON Lines); blank lines and lines starting with # are skipped. See docs/replay.md."
                )
            ),
            ("type", .string("object")),
            ("required", .array([.string("at"), .string("type")])),
            ("properties", .object([("type", .object([("enum", .array(EngineEvent.typeNames.map(JSONValue.string)))]))])),
            // `if` on the type, so that an editor names the branch of the type written rather than
            // every branch's failure.
            (
                "allOf",
                .array(
                    branches.map { name, schema in
                        .object([
                            (
                                "if",
                                .object([
                                    ("required", .array([.string("type")])),
                                    ("properties", .object([("type", .object([("const", .string(name))]))])),
                                ])
                            ),
                            ("then", schema),
                        ])
                    })
            ),
            ("$defs", definitions),
        ])
    }

    /// Each event type and the schema of its lines, from its declaration.
    static func branches() -> [(String, JSONValue)] {
        EventDeclaration.all.map { declaration in
            var properties: [(String, JSONValue)] = [
                ("at", ref("timestamp")),
                (
                    "user",
                    .object([("type", .string("string")), ("minLength", .int(1)), ("maxLength", .int(200)), ("default", .string("u1"))])
                ),
                ("type", .object([("const", .string(declaration.name))])),
            ]
            properties += declaration.fields.map { ($0.name, $0.schema) }
            properties.append(
                (
                    "expect",
                    .object([
                        ("type", .string("object")),
                        (
                            "description",
                            .string(
                                "paths of the output line and the values they must have: checked by rulesrun test and replay --check, ignored otherwise"
                            )
                        ),
                    ])
                ))
            let required = ["at", "type"] + declaration.fields.filter(\.isRequired).map(\.name)
            let members: [(String, JSONValue)] = [
                ("properties", .object(properties)),
                ("required", .array(required.map(JSONValue.string))),
                ("additionalProperties", .bool(false)),
            ]
            return (declaration.name, .object(members + declaration.schemaConditions))
        }
    }

    /// `schema` with a `description`, when there is one.
    static func described(_ schema: JSONValue, _ description: String?) -> JSONValue {
        guard let description, case .object(let members) = schema else { return schema }
        return .object(members + [("description", .string(description))])
    }

    /// The shared definitions the branches refer to.
    static let definitions: JSONValue = .object([
        (
            "timestamp",
            .object([
                ("type", .string("string")),
                (
                    "pattern",
                    .string(
                        "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]+)?)?(Z|[+-](0[0-9]|1[0-8]):[0-5][0-9])$"
                    )
                ),
                ("description", .string("ISO-8601 with an offset: 2026-03-02T08:30:00+01:00 or …Z; from 1971 up to 2998")),
            ])
        ),
        (
            "local_time",
            .object([
                ("type", .string("string")), ("pattern", .string("^([01][0-9]|2[0-3]):[0-5][0-9]$")),
                ("description", .string("a time of day HH:MM (00:00–23:59)")),
            ])
        ),
        (
            "day",
            .object([
                ("type", .string("string")), ("pattern", .string("^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$")),
                ("description", .string("a day YYYY-MM-DD")),
            ])
        ),
        ("name", .object([("type", .string("string")), ("minLength", .int(1)), ("maxLength", .int(200))])),
        (
            "app",
            .object([
                ("type", .string("string")), ("pattern", .string("^(android|iosToken):[!-~]{1,512}$")),
                ("description", .string("an AppId: android:… or iosToken:… (1–512 printable ASCII characters after the prefix)")),
            ])
        ),
        ("apps", .object([("type", .string("array")), ("items", ref("app"))])),
        (
            "weekdays",
            .object([
                ("type", .string("array")),
                ("items", .object([("type", .string("integer")), ("minimum", .int(1)), ("maximum", .int(7))])),
                ("description", .string("ISO weekdays, 1 (Monday) … 7 (Sunday)")),
            ])
        ),
        (
            "params",
            .object([
                ("type", .string("object")), ("maxProperties", .int(64)),
                ("propertyNames", .object([("pattern", .string("^[a-z][a-z0-9_]*$"))])),
                (
                    "additionalProperties",
                    .object([
                        (
                            "anyOf",
                            .array([type("number"), type("boolean"), .object([("type", .string("string")), ("maxLength", .int(40))])])
                        )
                    ])
                ),
            ])
        ),
    ])

    static func ref(_ name: String) -> JSONValue { .object([("$ref", .string("#/$defs/\(name)"))]) }
    static func type(_ name: String) -> JSONValue { .object([("type", .string(name))]) }
    static func string(max: Int? = nil) -> JSONValue {
        .object([("type", .string("string"))] + (max.map { [("minLength", .int(1)), ("maxLength", .int($0))] } ?? []))
    }
    /// The names a decoder reads, each once (an event name and the seed's raw value, when they differ).
    static func names(_ names: [String]) -> JSONValue {
        var seen: Set<String> = []
        return .object([("enum", .array(names.filter { seen.insert($0).inserted }.map(JSONValue.string)))])
    }
    static func enumeration<E: CaseIterable & RawRepresentable>(_: E.Type) -> JSONValue where E.RawValue == String {
        .object([("enum", .array(E.allCases.map { .string($0.rawValue) }))])
    }

    /// When `field` is one of `values`: the fields it requires, and the schemas of some fields.
    static func when(
        _ field: String, in values: [String], require: [String], _ properties: [(String, JSONValue)] = []
    ) -> JSONValue {
        var then: [(String, JSONValue)] = [("required", .array(require.map(JSONValue.string)))]
        if !properties.isEmpty { then.append(("properties", .object(properties))) }
        return .object([
            (
                "if",
                .object([
                    ("required", .array([.string(field)])),
                    ("properties", .object([(field, .object([("enum", .array(values.map(JSONValue.string)))]))])),
                ])
            ),
            ("then", .object(then)),
        ])
    }

    static func when(
        _ field: String, is value: FrequencyType, require: [String], _ properties: [(String, JSONValue)] = []
    ) -> JSONValue {
        when(field, in: Array(Set([value.eventName, value.rawValue])).sorted(), require: require, properties)
    }

    static func when(
        _ field: String, is value: GoalDirection, require: [String], _ properties: [(String, JSONValue)] = []
    ) -> JSONValue {
        when(field, in: Array(Set([value.eventName, value.rawValue])).sorted(), require: require, properties)
    }

    /// An `unlock_choose` option's fields: the one it needs, those it may not have.
    static func choice(_ option: UnlockOptionType, requires: String?, refuses: String...) -> JSONValue {
        var then: [JSONValue] = refuses.map { .object([("not", .object([("required", .array([.string($0)]))]))]) }
        if let requires { then.append(.object([("required", .array([.string(requires)]))])) }
        return .object([
            (
                "if",
                .object([
                    ("required", .array([.string("option")])),
                    ("properties", .object([("option", .object([("const", .string(option.rawValue))]))])),
                ])
            ),
            ("then", .object([("allOf", .array(then))])),
        ])
    }
}

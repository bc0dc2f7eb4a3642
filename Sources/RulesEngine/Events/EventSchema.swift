import RulesModel

/// The JSON Schema (draft 2020-12) of one line of a replay file, as `EngineEvent.parse` reads it
/// (`rulesrun schema events`; docs/tools.md): one branch per event type, each with the fields
/// the type's decoder takes, which of them are required, their types, the enumerations' values
/// (from the model's own cases), what a field needs with it (a frequency its counts, a goal type
/// its unit) and `additionalProperties: false`, as the strict decoder refuses an unknown field.
/// What depends on the rule set or on the user's state (a settings time's allowed steps, the
/// params a rule declares, time order) is the engine's to check; the schema says the shape.
/// `Tests/RulesrunTests/SchemaCommandTests.swift` checks it against the decoder: every event file
/// of examples/ and rules/ passes it; for every type its fields are those the decoder lists, and
/// lines with an unknown field, a field of another type, each listed value or a malformed value
/// are accepted or refused alike. Every line may carry a scenario's `expect` (an object), which
/// `rulesrun test` and `replay --check` judge and the decoder leaves out of the event.
public enum EventSchema {
    /// The schema of replay lines; with `scenario`, named as that of the lines of a scenario test
    /// (docs/testing-rules.md): the same lines.
    public static func json(scenario: Bool = false) -> JSONValue {
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

    /// Each event type and the schema of its lines.
    static func branches() -> [(String, JSONValue)] {
        let payloads: [(String, [Field], JSONValue?)] = [
            (
                "settings",
                [
                    .optional("commitment_deadline", ref("local_time"), "HH:MM, 06:00–12:00 in 30-minute steps"),
                    .optional("checkin_window_close", ref("local_time"), "HH:MM, 18:00–23:30 in 30-minute steps, or 23:59"),
                    .optional("timezone", string(), "an IANA time zone (Europe/Paris)"),
                    .optional("personality_mode", enumeration(PersonalityMode.self)),
                    .optional("notifications_enabled", type("boolean")),
                    .optional("day_starts_at", ref("local_time"), "when the user's habit days start"),
                ],
                // "a settings event changes at least one of …"
                .object([
                    (
                        "anyOf",
                        .array(
                            [
                                "commitment_deadline", "checkin_window_close", "timezone", "personality_mode", "notifications_enabled",
                                "day_starts_at",
                            ].map { .object([("required", .array([.string($0)]))]) })
                    )
                ])
            ),
            (
                "subscription",
                [.required("tier", enumeration(SubscriptionTier.self)), .optional("expires_at", ref("timestamp"))], nil
            ),
            ("commitment", [.required("text", string(max: 280), "today's commitment")], nil),
            ("check_in", [.required("result", .object([("enum", .array([.string("YES"), .string("NO")]))]))], nil),
            ("shield", [], nil),
            ("tick", [], nil),
            (
                "habit_task",
                [
                    .required("task", ref("name")),
                    .optional("title", string()),
                    .optional("measurement", enumeration(MeasurementDuration.self)),
                    .optional("frequency", names(FrequencyType.allCases.flatMap { [$0.eventName, $0.rawValue] })),
                    .optional("times_per_day", type("integer")),
                    .optional("scheduled_days", ref("weekdays")),
                    .optional("times", type("integer"), "times_in_days: x times …"),
                    .optional("days", type("integer"), "… in y days (2–365)"),
                    .optional("every", type("integer"), "every_n_days: every n days (2–365) from the start date"),
                    .optional("days_of_month", .object([("type", .string("array")), ("items", type("integer"))]), "days 1–31"),
                    .optional("goal_type", enumeration(GoalType.self)),
                    .optional("goal_value", type("number"), "> 0"),
                    .optional("goal_unit", string(), "one of the goal type's units"),
                    .optional("goal_direction", names(GoalDirection.allCases.flatMap { [$0.eventName, $0.rawValue] })),
                    .optional("start_date", ref("day")),
                    .optional("params", ref("params"), "values of the params streaks.lua declares"),
                ],
                // What a frequency, a ceiling and a goal type need with them.
                .object([
                    (
                        "allOf",
                        .array(
                            [
                                when("frequency", is: FrequencyType.timesInDays, require: ["times", "days"]),
                                when("frequency", is: FrequencyType.everyNDays, require: ["every"]),
                                when(
                                    "frequency", is: FrequencyType.daysOfMonth, require: ["days_of_month"],
                                    [("days_of_month", .object([("minItems", .int(1))]))]),
                                when("goal_direction", is: GoalDirection.atMost, require: ["goal_value"]),
                            ]
                                + GoalType.allCases.filter { !$0.compatibleUnits.isEmpty }.map { goal in
                                    when(
                                        "goal_type", in: [goal.rawValue], require: ["goal_unit"],
                                        [("goal_unit", .object([("enum", .array(goal.compatibleUnits.map(JSONValue.string)))]))])
                                })
                    )
                ])
            ),
            (
                "habit_completion",
                [
                    .required("task", ref("name")), .optional("value", type("number"), "goal tasks only"),
                    .optional("for_day", ref("day"), "a past day within habit.max_backfill_days"),
                ], nil
            ),
            ("habit_skip", [.required("task", ref("name")), .optional("day", ref("day"), "default: today")], nil),
            (
                "habit_freeze",
                [
                    .required("task", ref("name")), .required("action", enumeration(FreezeAction.self)),
                    .optional("day", ref("day"), "default: today"),
                ], nil
            ),
            ("habit_uncheck", [.required("task", ref("name")), .optional("day", ref("day"), "default: today")], nil),
            (
                "miga",
                [
                    .required("event", enumeration(UsageEventType.self)), .optional("app", string()),
                    .optional("pause_seconds", type("number"), "default: the whole gateway timer"),
                ], nil
            ),
            (
                "mode",
                [
                    .required("mode", ref("name")), .optional("name", string()), .optional("priority", type("integer")),
                    .optional("strictness", enumeration(Strictness.self), "required for a new mode"),
                    .optional(
                        "windows",
                        .object([
                            ("type", .string("array")),
                            (
                                "items",
                                .object([
                                    ("type", .string("object")),
                                    (
                                        "properties",
                                        .object([("days", ref("weekdays")), ("start", ref("local_time")), ("end", ref("local_time"))])
                                    ),
                                    ("required", .array([.string("days"), .string("start"), .string("end")])),
                                    ("additionalProperties", .bool(false)),
                                ])
                            ),
                        ])),
                    .optional("blocked_apps", ref("apps"), "none: the distracting apps"),
                    .optional("deleted", type("boolean")),
                ], nil
            ),
            (
                "mode_override",
                [
                    .required("mode", ref("name")), .required("state", enumeration(ManualOverrideState.self)),
                    .optional("until", ref("timestamp")),
                ], nil
            ),
            ("distracting_apps", [.required("apps", ref("apps"))], nil),
            (
                "qr_key",
                [
                    .optional(
                        "value",
                        .object([("type", .array([.string("string"), .string("null")])), ("minLength", .int(1)), ("maxLength", .int(256))]),
                        "the key, or null to clear it")
                ],
                nil
            ),
            (
                "earned_habit",
                [
                    .required("habit", ref("name")), .optional("name", string()),
                    .optional("reward_credits", type("integer"), "0–100; default habits.default_reward_credits"),
                    .optional("active", type("boolean")),
                ], nil
            ),
            ("earned_habit_completion", [.required("habit", ref("name"))], nil),
            (
                "focus_start",
                [
                    .required(
                        "minutes", .object([("type", .string("integer")), ("minimum", .int(1)), ("maximum", .int(1440))]), "planned length"),
                    .optional("label", string()), .optional("strict", type("boolean"), "default: true"),
                    .optional("blocked_apps", ref("apps")),
                ], nil
            ),
            ("focus_end", [], nil),
            ("unlock_open", [.required("app", ref("app"))], nil),
            (
                "unlock_choose",
                [
                    .required("app", ref("app")), .required("option", enumeration(UnlockOptionType.self)),
                    .optional("minutes", type("integer"), "CREDITS_UNLOCK only"),
                    .optional("quest_type", enumeration(QuestType.self), "QUEST_UNLOCK only"),
                ],
                .object([
                    (
                        "allOf",
                        .array([
                            choice(.creditsUnlock, requires: "minutes", refuses: "quest_type"),
                            choice(.questUnlock, requires: "quest_type", refuses: "minutes"),
                            choice(.emergencyUnlock, requires: nil, refuses: "minutes", "quest_type"),
                        ])
                    )
                ])
            ),
            ("unlock_cancel", [.required("app", ref("app"))], nil),
            ("quest_complete", [.required("app", ref("app"))], nil),
            ("quest_fail", [.required("app", ref("app")), .required("reason", enumeration(QuestFailureReason.self))], nil),
            ("quest_cancel", [.required("app", ref("app"))], nil),
        ]
        return payloads.map { name, fields, extra in
            var properties: [(String, JSONValue)] = [
                ("at", ref("timestamp")),
                (
                    "user",
                    .object([("type", .string("string")), ("minLength", .int(1)), ("maxLength", .int(200)), ("default", .string("u1"))])
                ),
                ("type", .object([("const", .string(name))])),
            ]
            properties += fields.map { ($0.name, $0.schema) }
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
            var members: [(String, JSONValue)] = [
                ("properties", .object(properties)),
                ("required", .array((["at", "type"] + fields.filter(\.isRequired).map(\.name)).map(JSONValue.string))),
                ("additionalProperties", .bool(false)),
            ]
            if case .object(let more)? = extra { members += more }
            return (name, .object(members))
        }
    }

    /// A field of an event type.
    struct Field {
        var name: String
        var schema: JSONValue
        var isRequired: Bool

        static func required(_ name: String, _ schema: JSONValue, _ description: String? = nil) -> Field {
            Field(name: name, schema: described(schema, description), isRequired: true)
        }
        static func optional(_ name: String, _ schema: JSONValue, _ description: String? = nil) -> Field {
            Field(name: name, schema: described(schema, description), isRequired: false)
        }
        private static func described(_ schema: JSONValue, _ description: String?) -> JSONValue {
            guard let description, case .object(let members) = schema else { return schema }
            return .object(members + [("description", .string(description))])
        }
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
    private static func choice(_ option: UnlockOptionType, requires: String?, refuses: String...) -> JSONValue {
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

import RulesEngine
import RulesModel

extension SimulationReport {
    /// The JSON Schema (draft 2020-12) of `json()`'s report (`rulesrun schema report simulate`;
    /// docs/schemas.md). The counts a day holds are the coding keys `merge` reads them back by
    /// (`DayTotals`, `EconomyTotals`), so a count added there is in the schema; the derived fields
    /// are listed here. `SchemaCommandTests` checks real reports against it.
    public static var jsonSchema: JSONValue {
        func object(_ properties: [(String, JSONValue)], required: [String]? = nil, closed: Bool = true) -> JSONValue {
            .object(
                [("type", .string("object")), ("properties", .object(properties))]
                    + [("required", .array((required ?? properties.map(\.0)).map(JSONValue.string)))]
                    + (closed ? [("additionalProperties", .bool(false))] : []))
        }
        let count: JSONValue = .object([("type", .string("integer")), ("minimum", .int(0))])
        let counts: JSONValue = .object([("type", .string("array")), ("items", count)])
        let share: JSONValue = .object([("type", .string("number")), ("minimum", .int(0))])
        let string: JSONValue = .object([("type", .string("string"))])
        let countsByName: JSONValue = .object([("type", .string("object")), ("additionalProperties", count)])
        let run = object(
            [
                ("duration", string), ("start", string), ("days", count), ("users", count), ("users_from", count), ("users_to", count),
                ("id_offset", count), ("seed", .object([("type", .string("string")), ("pattern", .string("^[0-9]+$"))])),
                ("personas", string), ("rules", string), ("engine", string), ("inputs_digest", string),
            ],
            required: [
                "duration", "start", "days", "users", "users_from", "users_to", "seed", "personas", "rules", "engine", "inputs_digest",
            ])
        let habitOnly = ["habit_marks", "habit_best_streaks", "habit_score"]
        let summaryProperties: [(String, JSONValue)] = [
            ("users", count), ("days", count), ("user_days", count), ("events", count), ("refused_events", count), ("commitments", count),
            ("check_ins", object([("YES", count), ("NO", count), ("MISSED", count)])), ("yes_rate", share), ("reminders", count),
            ("reminders_per_user_day", share), ("max_reminders_per_user_day", count), ("user_days_at_tier", counts),
            ("shields_used", count), ("habit_completion_rate", share),
            ("habit_marks", object([("skips", count), ("freezes_equipped", count), ("freezes_used", count), ("late", count)])),
            ("habit_best_streaks", object([("tasks", count), ("mean", share), ("p50", count), ("p90", count), ("max", count)])),
            ("habit_score", object([("tasks", count), ("mean", share)])),
            ("exits_to_focus", count), ("deepen_pause", count), ("proceed_to_app", count),
            (
                "final_streak",
                object([("p50", count), ("p90", count), ("max", count), ("distribution", countsByName)])
            ),
            ("earned", .object([("type", .string("object")), ("description", .string("Earned's totals (docs/simulate.md)"))])),
        ]
        let arrays: Set<DayTotals.CodingKeys> = [.tiers, .streaks, .bestStreaks, .scores]
        let optionalCounts: Set<DayTotals.CodingKeys> = [.habitSkips, .freezesEquipped, .freezesUsed, .habitLate, .bestStreaks, .scores]
        let earnedDay = object(
            EconomyTotals.CodingKeys.allCases.map { key in
                (key.rawValue, key == .balances ? counts : [.unlocks, .denials, .quests].contains(key) ? countsByName : count)
            } + [("balance_p50", count), ("balance_p90", count)])
        let derived: [(String, JSONValue)] = [
            ("day", .object([("type", .string("integer")), ("minimum", .int(1))])),
            ("date", .object([("type", .string("string")), ("pattern", .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))])),
            ("tier_share", .object([("type", .string("array")), ("items", share)])), ("streak_p50", count), ("streak_p90", count),
            ("habit_completion_rate", share), ("best_streak_mean", share), ("best_streak_p50", count), ("score_mean", share),
        ]
        let dayCounts = DayTotals.CodingKeys.allCases.map { key in
            (key.rawValue, key == .earned ? earnedDay : arrays.contains(key) ? counts : count)
        }
        let day = object(
            derived + dayCounts,
            required: (derived.map(\.0) + dayCounts.map(\.0)).filter {
                !["best_streak_mean", "best_streak_p50", "score_mean"].contains($0)
                    && !optionalCounts.map(\.rawValue).contains($0)
            })
        let failures: JSONValue = .object([
            ("type", .string("object")),
            ("description", .string("only when a rule failed: counts by code, and the first failure")),
        ])
        return .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .string("https://rulesrun.dev/schema/simulate-report.json")),
            ("title", .string("rulesrun simulate --format json")),
            ("type", .string("object")),
            (
                "properties",
                .object([
                    ("report", .object([("const", .string("rulesrun simulate"))])), ("version", .object([("const", .int(1))])),
                    ("run", run),
                    ("summary", object(summaryProperties, required: summaryProperties.map(\.0).filter { !habitOnly.contains($0) })),
                    ("failures", failures), ("days", .object([("type", .string("array")), ("items", day)])),
                ])
            ),
            ("required", .array(["report", "version", "run", "summary", "days"].map(JSONValue.string))),
            ("additionalProperties", .bool(false)),
        ])
    }
}

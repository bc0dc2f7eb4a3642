import RulesEngine
import RulesModel

extension SimulationReport {
    /// The JSON Schema (draft 2020-12) of `json()`'s report (`rulesrun schema report simulate`;
    /// docs/tools.md). The counts a day holds are the coding keys `merge` reads them back by
    /// (`DayTotals`, `EconomyTotals`), so a count added there is in the schema; the derived fields
    /// are listed here. `SchemaCommandTests` checks real reports against it.
    package static var jsonSchema: JSONValue {
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
        // A registry metric under its id, as `json()` writes it (``member(_:_:)``).
        func metric(_ m: Metric) -> (String, JSONValue) { (m.id, m.unit.decimals == 0 ? count : share) }
        let run = object(
            [
                ("duration", string), ("start", string), ("days", count), ("users", count), ("users_from", count), ("users_to", count),
                ("id_offset", count), ("seed", .object([("type", .string("string")), ("pattern", .string("^[0-9]+$"))])),
                ("personas", string), ("rules", string), ("engine", string), ("inputs_digest", string),
            ],
            required: [
                "duration", "start", "days", "users", "users_from", "users_to", "seed", "personas", "rules", "engine", "inputs_digest",
            ])
        let summaryProperties: [(String, JSONValue)] = [
            ("users", count), ("days", count), ("user_days", count),
            ("apps", object(Metric.App.used.map { ($0.rawValue, count) }, required: [])),
            metric(.events), metric(.refusedEvents), ("commitments", count),
            ("check_ins", object([("YES", count), ("NO", count), ("MISSED", count)])), metric(.yesRate), ("reminders", count),
            metric(.remindersPerUserDay), metric(.maxRemindersPerUserDay), ("user_days_at_tier", counts),
            metric(.shieldsUsed), metric(.habitCompletionRate), metric(.habitStreakP50), metric(.habitStreakP90),
            ("habit_marks", object([("skips", count), ("freezes_equipped", count), ("freezes_used", count), ("late", count)])),
            ("habit_best_streaks", object([("tasks", count), ("mean", share), ("p50", count), ("p90", count), ("max", count)])),
            ("habit_score", object([("tasks", count), ("mean", share)])),
            metric(.exitsToFocus), ("deepen_pause", count), ("proceed_to_app", count),
            ("team_metrics", .object([("type", .string("object")), ("additionalProperties", .object([("type", .string("number"))]))])),
            (
                "final_streak",
                object([("p50", count), ("p90", count), ("max", count), ("distribution", countsByName)])
            ),
            (
                "earned",
                object([
                    ("users", count), ("user_days", count),
                    (
                        "credits",
                        object([
                            ("earned", count), ("spent", count), ("forfeited", count), ("earned_per_user_day", share),
                            ("spent_per_user_day", share), ("forfeited_per_user_day", share), ("per_credit_unlock", share),
                        ])
                    ),
                    (
                        "balance",
                        object([("p50", count), ("p90", count), ("max", count), ("last_day_p50", count), ("last_day_p90", count)])
                    ),
                    ("urges", count), ("gate_opens", count), ("unblocked_opens", count), ("opened_while_unlocked", count),
                    ("unlocks", countsByName), ("unlocks_per_user_day", share), ("choices", count), ("denials", countsByName),
                    ("denial_share", share), ("gave_up", count), ("attempts_expired", count), ("quests_started", count),
                    ("quests", countsByName), ("emergency_uses", count), ("focus", object([("completed", count), ("ended_early", count)])),
                    ("habits", object([("planned", count), ("done", count), ("awards_suspended", count)])), ("qualified_days", count),
                    ("final_streak", object([("p50", count), ("p90", count), ("max", count)])),
                ])
            ),
        ]
        let arrays: Set<DayTotals.CodingKeys> = [.tiers, .streaks, .bestStreaks, .scores, .habitStreaks, .earnedStreaks]
        let optionalCounts: Set<DayTotals.CodingKeys> = [.habitSkips, .freezesEquipped, .freezesUsed, .habitLate, .bestStreaks, .scores]
        let earnedDay = object(
            EconomyTotals.CodingKeys.allCases.map { key in
                (key.rawValue, key == .balances ? counts : [.unlocks, .denials, .quests].contains(key) ? countsByName : count)
            } + [("balance_p50", count), ("balance_p90", count)])
        let derived: [(String, JSONValue)] = [
            ("day", .object([("type", .string("integer")), ("minimum", .int(1))])),
            ("date", .object([("type", .string("string")), ("pattern", .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))])),
            ("tier_share", .object([("type", .string("array")), ("items", share)])), metric(.streakP50), metric(.streakP90),
            metric(.habitCompletionRate), ("best_streak_mean", share), ("best_streak_p50", count), ("score_mean", share),
            metric(.earnedStreakP50), metric(.earnedStreakP90),
        ]
        // The team's metrics (`metrics.lua`): a day's value and counts under each id.
        let number: JSONValue = .object([("type", .string("number"))])
        let teamDay: JSONValue = .object([
            ("type", .string("object")),
            (
                "additionalProperties",
                object(
                    [
                        ("value", number), ("user_days", count), ("sum", number), ("nonzero", count), ("users", count),
                        ("users_nonzero", count),
                        (
                            "values",
                            .object([
                                ("type", .string("array")),
                                (
                                    "items",
                                    .object([
                                        // [value, user-days]
                                        ("type", .string("array")), ("items", number), ("minItems", .int(2)),
                                        ("maxItems", .int(2)),
                                    ])
                                ),
                            ])
                        ),
                    ],
                    required: ["value", "user_days", "sum", "nonzero", "users", "users_nonzero"])
            ),
        ])
        let dayCounts = DayTotals.CodingKeys.allCases.map { key in
            (key.rawValue, key == .earned ? earnedDay : key == .team ? teamDay : arrays.contains(key) ? counts : count)
        }
        let day = object(
            derived + dayCounts,
            required: (derived.map(\.0) + dayCounts.map(\.0)).filter {
                !["best_streak_mean", "best_streak_p50", "score_mean", DayTotals.CodingKeys.team.rawValue].contains($0)
                    && !optionalCounts.map(\.rawValue).contains($0)
            })
        // Counts by code, and the first failure (its `location` only when the error had one).
        let first = object(
            [
                ("user_index", count), ("user", string), ("day", count), ("date", string), ("at", string), ("event", string),
                ("code", string), ("message", string), ("location", string),
            ],
            required: ["user_index", "user", "day", "date", "at", "event", "code", "message"])
        let failures: JSONValue = .object([
            ("type", .string("object")),
            ("description", .string("only when a rule failed (docs/simulate.md)")),
            (
                "properties",
                .object(RuleFailures.Code.allCases.map { ($0.rawValue, count) } + [("first", first)])
            ),
            ("required", .array(RuleFailures.Code.allCases.map { .string($0.rawValue) })),
            ("additionalProperties", .bool(false)),
        ])
        // `simulate --segments`: each metric per persona (by id) with its interval.
        let estimate = object([
            ("value", .object([("type", .string("number"))])), ("low", .object([("type", .string("number"))])),
            ("high", .object([("type", .string("number"))])),
        ])
        let metricIDs = MetricRegistry.summary.map { ($0.id, estimate) }
        // The built-in metrics' ids, and the team's (any other id).
        let segmentMetrics: JSONValue = .object([
            ("type", .string("object")), ("properties", .object(metricIDs)), ("additionalProperties", estimate),
        ])
        let segments = object([
            ("method", string),
            (
                "personas",
                .object([
                    ("type", .string("array")),
                    ("items", object([("persona", string), ("users", count), ("metrics", segmentMetrics)])),
                ])
            ),
        ])
        // A rollout's run (a bundle with an experiment): each metric per arm (by id) with its
        // interval; `preperiod_days` with `--expose-after`.
        let arms = object(
            [
                ("method", string), ("experiment", string), ("revision", count), ("preperiod_days", count),
                (
                    "arms",
                    .object([
                        ("type", .string("array")),
                        ("items", object([("arm", string), ("users", count), ("metrics", segmentMetrics)])),
                    ])
                ),
            ], required: ["method", "experiment", "revision", "arms"])
        return .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .string("urn:rulesrun:schema:simulate-report")),
            ("title", .string("rulesrun simulate --format json")),
            ("type", .string("object")),
            (
                "properties",
                .object([
                    ("report", .object([("const", .string("rulesrun simulate"))])), ("version", .object([("const", .int(1))])),
                    ("run", run),
                    (
                        "team_metrics",
                        .object([
                            ("type", .string("array")),
                            (
                                "items",
                                object([("id", string), ("label", string), ("app", string), ("unit", string), ("aggregate", string)])
                            ),
                        ])
                    ),
                    // The members of the apps the cohort uses (`apps`), and those every report has.
                    ("summary", object(summaryProperties, required: ["users", "days", "user_days", "apps", "events", "refused_events"])),
                    ("failures", failures), ("segments", segments), ("arms", arms),
                    ("days", .object([("type", .string("array")), ("items", day)])),
                ])
            ),
            ("required", .array(["report", "version", "run", "summary", "days"].map(JSONValue.string))),
            ("additionalProperties", .bool(false)),
        ])
    }
}

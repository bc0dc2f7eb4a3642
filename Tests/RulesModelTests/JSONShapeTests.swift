import Foundation
import RulesModel
import Testing

/// The JSON of A4.1, A4.2 and A7, exactly as the seed shows it.
@Suite struct JSONShapeTests {
    static let settingsSample = """
        {
          "timezone_id": "America/Vancouver",
          "credit_costs": { "minutes_5": 10, "minutes_15": 25, "minutes_30": 45 },
          "quest": {
            "enabled_types": ["BREATHING", "COPY_TEXT", "QR_SCAN"],
            "unlock_minutes": 5, "max_quest_unlocks_per_app_per_day": 2, "cooldown_minutes_per_app": 15,
            "qr_key_value": null, "qr_key_set_ts_utc_ms": null, "key_change_cooldown_hours_strict": 24
          },
          "emergency": { "daily_limit": 1, "delay_seconds": 60, "unlock_minutes": 5, "block_same_app_consecutive": true },
          "focus": { "preset_minutes": [25, 50, 75], "strict": true, "min_minutes_to_qualify": 20 }
        }
        """

    static let optionsSample = """
        {
          "generated_ts_utc_ms": 1738440000000, "mode_id": "mode_123", "mode_strictness": "HARD", "app_id": "iosToken:AbCDeF...",
          "options": [
            { "type": "CREDITS_UNLOCK", "enabled": true, "disabled_reason": null, "durations": [
                { "minutes": 5, "cost_credits": 10, "enabled": true, "disabled_reason": null },
                { "minutes": 15, "cost_credits": 25, "enabled": false, "disabled_reason": "INSUFFICIENT_CREDITS" },
                { "minutes": 30, "cost_credits": 45, "enabled": false, "disabled_reason": "INSUFFICIENT_CREDITS" } ] },
            { "type": "QUEST_UNLOCK", "enabled": false, "disabled_reason": "DISALLOWED_IN_HARD_MODE", "quest_types": [
                { "quest_type": "BREATHING", "enabled": false, "disabled_reason": "DISALLOWED_IN_HARD_MODE" },
                { "quest_type": "COPY_TEXT", "enabled": false, "disabled_reason": "DISALLOWED_IN_HARD_MODE" },
                { "quest_type": "QR_SCAN", "enabled": false, "disabled_reason": "DISALLOWED_IN_HARD_MODE" } ] },
            { "type": "EMERGENCY_UNLOCK", "enabled": true, "disabled_reason": null, "delay_seconds": 60, "unlock_minutes": 5 }
          ]
        }
        """

    @Test func settingsSampleIsTheDefaults() throws {
        let settings = try EarnedSettings.parse(json: Self.settingsSample)
        #expect(settings == EarnedSettings.defaults(timezoneID: "America/Vancouver"))
        let text = try ModelJSON.encode(settings)
        #expect(text.contains(#""qr_key_set_ts_utc_ms":null"#) && text.contains(#""qr_key_value":null"#))
        #expect(try EarnedSettings.parse(json: text) == settings)
    }

    @Test func settingsErrorsNameTheJSONPath() {
        let decreasing = Self.settingsSample.replacingOccurrences(of: #""minutes_15": 25"#, with: #""minutes_15": 8"#)
        #expect(
            throws: ModelValidationError(
                entity: "EarnedSettings", field: "credit_costs.minutes_15",
                rule: "greater than minutes_5 (10)", found: "8")
        ) { try EarnedSettings.parse(json: decreasing) }
        let missing = Self.settingsSample.replacingOccurrences(of: #""unlock_minutes": 5, "max"#, with: #""max"#)
        let error = #expect(throws: ModelValidationError.self) { try EarnedSettings.parse(json: missing) }
        #expect(error?.field == "settings_json.quest.unlock_minutes" && error?.rule == "a required key")
        let wrongType = Self.settingsSample.replacingOccurrences(of: #""strict": true"#, with: #""strict": "yes""#)
        #expect(throws: ModelValidationError.self) { try EarnedSettings.parse(json: wrongType) }
        #expect(throws: ModelValidationError.self) { try EarnedSettings.parse(json: "not json") }
        let badQuest = Self.settingsSample.replacingOccurrences(of: #""QR_SCAN"]"#, with: #""QR_SCAN", "DANCE"]"#)
        #expect(throws: ModelValidationError.self) { try EarnedSettings.parse(json: badQuest) }
    }

    @Test func availableOptionsSampleRoundTrips() throws {
        let options = try ModelJSON.decode(
            AvailableOptions.self, from: Self.optionsSample, entity: "UnlockAttempt", field: "available_options_json")
        try options.validate()
        #expect(options.modeStrictness == .hard && options.appID.platform == .ios && options.options.count == 3)
        #expect(options.option(.questUnlock)?.disabledReason == .disallowedInHardMode)
        let text = try ModelJSON.encode(options)
        #expect(try ModelJSON.decode(AvailableOptions.self, from: text, entity: "x", field: "y") == options)
        #expect(text.contains(#""disabled_reason":null"#))
        var bad = options
        bad.options.append(bad.options[0])
        #expect(throws: ModelValidationError.self) { try bad.validate() }
    }

    /// Every A7 example payload decodes as its type and encodes back to the same keys.
    static let a7Samples = [
        ("DAY_ROLLOVER", #"{ "from_day_id": "2026-02-01", "to_day_id": "2026-02-02", "carried_credits": 10 }"#),
        ("CREDITS_EARNED", #"{ "source": "FOCUS", "amount": 10, "focus_session_id": "s1", "habit_id": null }"#),
        ("CREDITS_SPENT", #"{ "app_id": "android:com.instagram.android", "amount": 10, "unlock_minutes": 5, "attempt_id": "a" }"#),
        (
            "STREAK_QUALIFIED",
            #"{ "day_id": "2026-02-02", "method": "HABITS", "streak_count_new": 3, "first_qualified_ts_utc_ms": 1738460000000 }"#
        ),
        ("STREAK_BONUS_AWARDED", #"{ "day_id": "2026-02-02", "amount": 10, "streak_count": 3 }"#),
        ("HABIT_AWARD_SUSPENDED", #"{ "until_day_id": "2026-02-03", "reason": "TOO_MANY_COMPLETIONS_IN_WINDOW" }"#),
        ("UNLOCK_ATTEMPT_CREATED", #"{ "attempt_id": "a", "app_id": "iosToken:x", "mode_id": "m", "strictness": "STRICT" }"#),
        ("UNLOCK_OPTION_SELECTED", #"{ "attempt_id": "a", "option_type": "QUEST_UNLOCK", "option_payload": {} }"#),
        (
            "UNLOCK_GRANTED",
            #"{ "grant_id": "g", "app_id": "iosToken:x", "method": "QUEST", "starts_ts_utc_ms": 1738460000000, "ends_ts_utc_ms": 1738460300000, "attempt_id": "a" }"#
        ),
        ("UNLOCK_DENIED", #"{ "attempt_id": "a", "reason": "COOLDOWN_ACTIVE" }"#),
        ("QUEST_STARTED", #"{ "quest_session_id": "q", "attempt_id": "a", "quest_type": "COPY_TEXT" }"#),
        ("QUEST_COMPLETED", #"{ "quest_session_id": "q", "attempt_id": "a", "quest_type": "COPY_TEXT" }"#),
        ("QUEST_FAILED", #"{ "quest_session_id": "q", "attempt_id": "a", "quest_type": "COPY_TEXT", "reason": "TIMEOUT" }"#),
        ("QUEST_CANCELLED", #"{ "quest_session_id": "q", "attempt_id": "a", "quest_type": "BREATHING" }"#),
        ("QUEST_EXPIRED", #"{ "quest_session_id": "q", "attempt_id": "a", "quest_type": "QR_SCAN" }"#),
        ("EMERGENCY_USED", #"{ "attempt_id": "a", "app_id": "android:x", "delay_seconds": 60, "unlock_minutes": 5 }"#),
        ("FOCUS_STARTED", #"{ "session_id": "s", "planned_minutes": 50 }"#),
        ("FOCUS_ENDED", #"{ "session_id": "s", "completed": true, "ended_early": false, "actual_minutes": 50 }"#),
    ]

    @Test(arguments: a7Samples)
    func a7PayloadsDecodeAndKeepTheirKeys(type: String, json: String) throws {
        let eventType = try #require(EventType(rawValue: type))
        let payload = try EventPayload.decode(type: eventType, json: json)
        #expect(payload.type == eventType)
        let keys = { (text: String) throws -> Set<String> in
            Set((try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]).keys)
        }
        #expect(try keys(payload.json()) == keys(json))
        #expect(try EventPayload.decode(type: eventType, json: payload.json()) == payload)
    }

    @Test func payloadOfTheWrongTypeOrShapeIsRefused() {
        #expect(throws: ModelValidationError.self) {
            try EventPayload.decode(
                type: .creditsSpent, json: #"{ "from_day_id": "2026-02-01", "to_day_id": "2026-02-02", "carried_credits": 10 }"#)
        }
        #expect(throws: ModelValidationError.self) {
            try EventPayload.decode(
                type: .dayRollover, json: #"{ "from_day_id": "2026-02-03", "to_day_id": "2026-02-02", "carried_credits": 10 }"#)
        }
        #expect(throws: ModelValidationError.self) {
            try EventPayload.decode(
                type: .creditsEarned, json: #"{ "source": "HABIT", "amount": 10, "focus_session_id": null, "habit_id": null }"#)
        }
        #expect(throws: ModelValidationError.self) {
            try EventPayload.decode(
                type: .dayRollover, json: #"{ "from_day_id": "2026-02-30", "to_day_id": "2026-03-02", "carried_credits": 1 }"#)
        }
    }
}

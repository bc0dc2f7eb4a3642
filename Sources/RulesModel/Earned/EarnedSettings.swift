/// Earned's `user_settings.settings_json` (A4.1), as a Codable value with the seed's keys.
///
/// Decisions on the seed: A4.1 says quest `unlock_minutes`, `max_quest_unlocks_per_app_per_day`,
/// `cooldown_minutes_per_app` and the emergency settings are "fixed in v1.1 (engine uses
/// constants)". Those constants are rule knobs in this project (unlock pricing and quest limits
/// live in Lua), so the model does not pin them; it keeps them in sane ranges so that nothing
/// absurd is stored: unlock minutes 1–60, per-day limits 0–100, cooldowns 0–1440 minutes, key
/// change cooldown 0–720 hours, emergency delay 0–600 s. The one constraint A4.1 states as a
/// rule on the data, "credit costs must be strictly increasing", is enforced (and costs are > 0).
/// `focus.preset_minutes` holds 1–10 distinct values of 1–480 minutes.
public struct EarnedSettings: Hashable, Sendable, Codable, Validatable {
    public struct CreditCosts: Hashable, Sendable, Codable {
        public var minutes5: Int
        public var minutes15: Int
        public var minutes30: Int

        public init(minutes5: Int = 10, minutes15: Int = 25, minutes30: Int = 45) {
            self.minutes5 = minutes5
            self.minutes15 = minutes15
            self.minutes30 = minutes30
        }

        /// (minutes, cost) pairs in increasing length.
        public var byMinutes: [(minutes: Int, cost: Int)] { [(5, minutes5), (15, minutes15), (30, minutes30)] }

        enum CodingKeys: String, CodingKey {
            case minutes5 = "minutes_5", minutes15 = "minutes_15", minutes30 = "minutes_30"
        }
    }

    public struct Quest: Hashable, Sendable, Codable {
        public var enabledTypes: [QuestType]
        public var unlockMinutes: Int
        public var maxQuestUnlocksPerAppPerDay: Int
        public var cooldownMinutesPerApp: Int
        public var qrKeyValue: String?
        public var qrKeySetAt: EpochMillis?
        public var keyChangeCooldownHoursStrict: Int

        public init(
            enabledTypes: [QuestType] = QuestType.allCases, unlockMinutes: Int = 5,
            maxQuestUnlocksPerAppPerDay: Int = 2, cooldownMinutesPerApp: Int = 15,
            qrKeyValue: String? = nil, qrKeySetAt: EpochMillis? = nil, keyChangeCooldownHoursStrict: Int = 24
        ) {
            self.enabledTypes = enabledTypes
            self.unlockMinutes = unlockMinutes
            self.maxQuestUnlocksPerAppPerDay = maxQuestUnlocksPerAppPerDay
            self.cooldownMinutesPerApp = cooldownMinutesPerApp
            self.qrKeyValue = qrKeyValue
            self.qrKeySetAt = qrKeySetAt
            self.keyChangeCooldownHoursStrict = keyChangeCooldownHoursStrict
        }

        enum CodingKeys: String, CodingKey {
            case enabledTypes = "enabled_types", unlockMinutes = "unlock_minutes"
            case maxQuestUnlocksPerAppPerDay = "max_quest_unlocks_per_app_per_day"
            case cooldownMinutesPerApp = "cooldown_minutes_per_app", qrKeyValue = "qr_key_value"
            case qrKeySetAt = "qr_key_set_ts_utc_ms", keyChangeCooldownHoursStrict = "key_change_cooldown_hours_strict"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            enabledTypes = try c.decode([QuestType].self, forKey: .enabledTypes)
            unlockMinutes = try c.decode(Int.self, forKey: .unlockMinutes)
            maxQuestUnlocksPerAppPerDay = try c.decode(Int.self, forKey: .maxQuestUnlocksPerAppPerDay)
            cooldownMinutesPerApp = try c.decode(Int.self, forKey: .cooldownMinutesPerApp)
            qrKeyValue = try c.decodeIfPresent(String.self, forKey: .qrKeyValue)
            qrKeySetAt = try c.decodeIfPresent(Int64.self, forKey: .qrKeySetAt)
            keyChangeCooldownHoursStrict = try c.decode(Int.self, forKey: .keyChangeCooldownHoursStrict)
        }

        /// Writes `null` for unset QR keys, as A4.1 shows them.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(enabledTypes, forKey: .enabledTypes)
            try c.encode(unlockMinutes, forKey: .unlockMinutes)
            try c.encode(maxQuestUnlocksPerAppPerDay, forKey: .maxQuestUnlocksPerAppPerDay)
            try c.encode(cooldownMinutesPerApp, forKey: .cooldownMinutesPerApp)
            try c.encode(qrKeyValue, forKey: .qrKeyValue)
            try c.encode(qrKeySetAt, forKey: .qrKeySetAt)
            try c.encode(keyChangeCooldownHoursStrict, forKey: .keyChangeCooldownHoursStrict)
        }
    }

    public struct Emergency: Hashable, Sendable, Codable {
        public var dailyLimit: Int
        public var delaySeconds: Int
        public var unlockMinutes: Int
        public var blockSameAppConsecutive: Bool

        public init(dailyLimit: Int = 1, delaySeconds: Int = 60, unlockMinutes: Int = 5, blockSameAppConsecutive: Bool = true) {
            self.dailyLimit = dailyLimit
            self.delaySeconds = delaySeconds
            self.unlockMinutes = unlockMinutes
            self.blockSameAppConsecutive = blockSameAppConsecutive
        }

        enum CodingKeys: String, CodingKey {
            case dailyLimit = "daily_limit", delaySeconds = "delay_seconds", unlockMinutes = "unlock_minutes"
            case blockSameAppConsecutive = "block_same_app_consecutive"
        }
    }

    public struct Focus: Hashable, Sendable, Codable {
        public var presetMinutes: [Int]
        public var strict: Bool
        public var minMinutesToQualify: Int

        public init(presetMinutes: [Int] = [25, 50, 75], strict: Bool = true, minMinutesToQualify: Int = 20) {
            self.presetMinutes = presetMinutes
            self.strict = strict
            self.minMinutesToQualify = minMinutesToQualify
        }

        enum CodingKeys: String, CodingKey {
            case presetMinutes = "preset_minutes", strict, minMinutesToQualify = "min_minutes_to_qualify"
        }
    }

    public var timezoneID: String
    public var creditCosts: CreditCosts
    public var quest: Quest
    public var emergency: Emergency
    public var focus: Focus

    public init(
        timezoneID: String = "UTC", creditCosts: CreditCosts = CreditCosts(), quest: Quest = Quest(),
        emergency: Emergency = Emergency(), focus: Focus = Focus()
    ) {
        self.timezoneID = timezoneID
        self.creditCosts = creditCosts
        self.quest = quest
        self.emergency = emergency
        self.focus = focus
    }

    /// A4.1's example values (with the time zone given).
    public static func defaults(timezoneID: String = "UTC") -> EarnedSettings { EarnedSettings(timezoneID: timezoneID) }

    enum CodingKeys: String, CodingKey {
        case timezoneID = "timezone_id", creditCosts = "credit_costs", quest, emergency, focus
    }

    public func validate() throws {
        let check = FieldCheck("EarnedSettings")
        try check.timeZone("timezone_id", timezoneID)
        let costs = creditCosts
        try check.atLeast("credit_costs.minutes_5", costs.minutes5, 1)
        try check.require(
            costs.minutes15 > costs.minutes5, "credit_costs.minutes_15",
            "greater than minutes_5 (\(costs.minutes5))", "\(costs.minutes15)")
        try check.require(
            costs.minutes30 > costs.minutes15, "credit_costs.minutes_30",
            "greater than minutes_15 (\(costs.minutes15))", "\(costs.minutes30)")
        try check.range("credit_costs.minutes_30", costs.minutes30, 1...100_000)
        try check.require(
            Set(quest.enabledTypes).count == quest.enabledTypes.count, "quest.enabled_types",
            "no repeated quest type", "\(quest.enabledTypes.map(\.rawValue))")
        try check.range("quest.unlock_minutes", quest.unlockMinutes, 1...60)
        try check.range("quest.max_quest_unlocks_per_app_per_day", quest.maxQuestUnlocksPerAppPerDay, 0...100)
        try check.range("quest.cooldown_minutes_per_app", quest.cooldownMinutesPerApp, 0...1440)
        try check.optionalText("quest.qr_key_value", quest.qrKeyValue, max: 256)
        try check.timestamp("quest.qr_key_set_ts_utc_ms", quest.qrKeySetAt)
        try check.require(
            (quest.qrKeyValue == nil) == (quest.qrKeySetAt == nil), "quest.qr_key_set_ts_utc_ms",
            "set exactly when qr_key_value is set", quest.qrKeySetAt.map { "\($0)" } ?? "null")
        try check.range("quest.key_change_cooldown_hours_strict", quest.keyChangeCooldownHoursStrict, 0...720)
        try check.range("emergency.daily_limit", emergency.dailyLimit, 0...100)
        try check.range("emergency.delay_seconds", emergency.delaySeconds, 0...600)
        try check.range("emergency.unlock_minutes", emergency.unlockMinutes, 1...60)
        try check.range("focus.preset_minutes", focus.presetMinutes.count, 1...10)
        for (index, minutes) in focus.presetMinutes.enumerated() {
            try check.range("focus.preset_minutes[\(index + 1)]", minutes, 1...480)
        }
        try check.require(
            Set(focus.presetMinutes).count == focus.presetMinutes.count, "focus.preset_minutes",
            "no repeated value", "\(focus.presetMinutes)")
        try check.range("focus.min_minutes_to_qualify", focus.minMinutesToQualify, 1...480)
    }

    /// Parses and validates `settings_json`.
    public static func parse(json: String) throws -> EarnedSettings {
        let settings = try ModelJSON.decode(EarnedSettings.self, from: json, entity: "EarnedSettings", field: "settings_json")
        try settings.validate()
        return settings
    }
}

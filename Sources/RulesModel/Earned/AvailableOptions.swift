/// Earned's `unlock_attempt.available_options_json` snapshot (A4.2), as a Codable value.
///
/// Decisions: `options` holds each option type at most once; every disabled entry carries a
/// `disabled_reason` and every enabled one none (A4.2 shows exactly that pairing); the snapshot's
/// `app_id` and `mode_strictness` must match the attempt's (checked by ``UnlockAttempt``).
public struct AvailableOptions: Hashable, Sendable, Codable, Validatable {
    public struct Duration: Hashable, Sendable, Codable {
        public var minutes: Int
        public var costCredits: Int
        public var enabled: Bool
        public var disabledReason: UnlockDenialReason?

        public init(minutes: Int, costCredits: Int, enabled: Bool, disabledReason: UnlockDenialReason? = nil) {
            self.minutes = minutes
            self.costCredits = costCredits
            self.enabled = enabled
            self.disabledReason = disabledReason
        }

        enum CodingKeys: String, CodingKey {
            case minutes, costCredits = "cost_credits", enabled, disabledReason = "disabled_reason"
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(minutes, forKey: .minutes)
            try c.encode(costCredits, forKey: .costCredits)
            try c.encode(enabled, forKey: .enabled)
            try c.encode(disabledReason, forKey: .disabledReason)
        }
    }

    public struct QuestChoice: Hashable, Sendable, Codable {
        public var questType: QuestType
        public var enabled: Bool
        public var disabledReason: UnlockDenialReason?

        public init(questType: QuestType, enabled: Bool, disabledReason: UnlockDenialReason? = nil) {
            self.questType = questType
            self.enabled = enabled
            self.disabledReason = disabledReason
        }

        enum CodingKeys: String, CodingKey {
            case questType = "quest_type", enabled, disabledReason = "disabled_reason"
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(questType, forKey: .questType)
            try c.encode(enabled, forKey: .enabled)
            try c.encode(disabledReason, forKey: .disabledReason)
        }
    }

    /// One entry of `options`, told apart by its `type`.
    public enum Option: Hashable, Sendable, Codable {
        case credits(enabled: Bool, disabledReason: UnlockDenialReason?, durations: [Duration])
        case quest(enabled: Bool, disabledReason: UnlockDenialReason?, questTypes: [QuestChoice])
        case emergency(enabled: Bool, disabledReason: UnlockDenialReason?, delaySeconds: Int, unlockMinutes: Int)

        enum CodingKeys: String, CodingKey {
            case type, enabled, disabledReason = "disabled_reason", durations, questTypes = "quest_types"
            case delaySeconds = "delay_seconds", unlockMinutes = "unlock_minutes"
        }

        public var type: UnlockOptionType {
            switch self {
            case .credits: .creditsUnlock
            case .quest: .questUnlock
            case .emergency: .emergencyUnlock
            }
        }

        public var enabled: Bool {
            switch self {
            case .credits(let enabled, _, _), .quest(let enabled, _, _), .emergency(let enabled, _, _, _): enabled
            }
        }

        public var disabledReason: UnlockDenialReason? {
            switch self {
            case .credits(_, let reason, _), .quest(_, let reason, _), .emergency(_, let reason, _, _): reason
            }
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let type = try c.decode(UnlockOptionType.self, forKey: .type)
            let enabled = try c.decode(Bool.self, forKey: .enabled)
            let reason = try c.decodeIfPresent(UnlockDenialReason.self, forKey: .disabledReason)
            switch type {
            case .creditsUnlock:
                self = .credits(enabled: enabled, disabledReason: reason, durations: try c.decode([Duration].self, forKey: .durations))
            case .questUnlock:
                self = .quest(enabled: enabled, disabledReason: reason, questTypes: try c.decode([QuestChoice].self, forKey: .questTypes))
            case .emergencyUnlock:
                self = .emergency(
                    enabled: enabled, disabledReason: reason,
                    delaySeconds: try c.decode(Int.self, forKey: .delaySeconds),
                    unlockMinutes: try c.decode(Int.self, forKey: .unlockMinutes))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(type, forKey: .type)
            try c.encode(enabled, forKey: .enabled)
            try c.encode(disabledReason, forKey: .disabledReason)
            switch self {
            case .credits(_, _, let durations): try c.encode(durations, forKey: .durations)
            case .quest(_, _, let questTypes): try c.encode(questTypes, forKey: .questTypes)
            case .emergency(_, _, let delay, let minutes):
                try c.encode(delay, forKey: .delaySeconds)
                try c.encode(minutes, forKey: .unlockMinutes)
            }
        }
    }

    public var generatedAt: EpochMillis
    public var modeID: String?
    public var modeStrictness: Strictness
    public var appID: AppID
    public var options: [Option]

    public init(generatedAt: EpochMillis, modeID: String?, modeStrictness: Strictness, appID: AppID, options: [Option]) {
        self.generatedAt = generatedAt
        self.modeID = modeID
        self.modeStrictness = modeStrictness
        self.appID = appID
        self.options = options
    }

    enum CodingKeys: String, CodingKey {
        case generatedAt = "generated_ts_utc_ms", modeID = "mode_id", modeStrictness = "mode_strictness"
        case appID = "app_id", options
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        generatedAt = try c.decode(Int64.self, forKey: .generatedAt)
        modeID = try c.decodeIfPresent(String.self, forKey: .modeID)
        modeStrictness = try c.decode(Strictness.self, forKey: .modeStrictness)
        appID = try c.decode(AppID.self, forKey: .appID)
        options = try c.decode([Option].self, forKey: .options)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(generatedAt, forKey: .generatedAt)
        try c.encode(modeID, forKey: .modeID)
        try c.encode(modeStrictness, forKey: .modeStrictness)
        try c.encode(appID, forKey: .appID)
        try c.encode(options, forKey: .options)
    }

    /// The option of a type, if offered.
    public func option(_ type: UnlockOptionType) -> Option? { options.first { $0.type == type } }

    public func validate() throws {
        let check = FieldCheck("AvailableOptions")
        try check.timestamp("generated_ts_utc_ms", generatedAt)
        try check.optionalIdentifier("mode_id", modeID)
        try check.require(
            FieldCheck.distinct(options, by: { $0.type }), "options", "each option type at most once", "\(options.map(\.type.rawValue))")
        func pairing(_ path: @autoclosure () -> String, _ enabled: Bool, _ reason: UnlockDenialReason?) throws {
            try check.require(
                enabled == (reason == nil), path() + ".disabled_reason",
                enabled ? "null when enabled" : "set when disabled", reason?.rawValue ?? "null")
        }
        // Index loops: a debug build's `enumerated()` looks up tuple metadata at each item.
        for i in options.indices {
            let option = options[i]
            let path = { "options[\(i + 1)]" }  // built only for an error message (elements from 1)
            try pairing(path(), option.enabled, option.disabledReason)
            switch option {
            case .credits(_, _, let durations):
                for j in durations.indices {
                    let d = durations[j]
                    try check.range("\(path()).durations[\(j + 1)].minutes", d.minutes, 1...1440)
                    try check.atLeast("\(path()).durations[\(j + 1)].cost_credits", d.costCredits, 0)
                    try pairing("\(path()).durations[\(j + 1)]", d.enabled, d.disabledReason)
                }
            case .quest(_, _, let questTypes):
                try check.require(
                    FieldCheck.distinct(questTypes, by: { $0.questType }), "\(path()).quest_types", "each quest type at most once",
                    "\(questTypes.map(\.questType.rawValue))")
                for (j, q) in questTypes.enumerated() { try pairing("\(path()).quest_types[\(j + 1)]", q.enabled, q.disabledReason) }
            case .emergency(_, _, let delay, let minutes):
                try check.range("\(path()).delay_seconds", delay, 0...600)
                try check.range("\(path()).unlock_minutes", minutes, 1...60)
            }
        }
    }
}

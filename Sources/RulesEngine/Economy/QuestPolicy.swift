import LuaHost
import RulesModel
import RulesStore

/// quests.lua, typed: quests and emergency unlocks.
package struct QuestPolicy: Decodable {
    /// The params the file declares for its own functions (``RuleParams``); none when it has no `params`.
    package var params: RuleParams { declaredParams ?? RuleParams() }
    var declaredParams: RuleParams?
    /// The file's plain values: what the engine applies itself (`PolicyRules.questKnobs`).
    package var knobs: Knobs
    package var specVersion: SpecVersion { knobs.specVersion }
    package var quest: Quest { knobs.quest }
    package var emergency: Emergency { knobs.emergency }
    package var gate: Gate { knobs.gate }
    /// A8's retention (`retention`; the document's values when the file has none).
    package var retention: Retention { knobs.retention }
    /// `quest_blocked(gate) -> reason | nil`.
    package var questBlocked: LuaFunction
    /// `emergency_blocked(gate) -> reason | nil`.
    package var emergencyBlocked: LuaFunction

    /// quests.lua's plain values (no functions).
    package struct Knobs: Decodable, Sendable, Equatable {
        package var specVersion: SpecVersion
        package var quest: Quest
        package var emergency: Emergency
        package var gate: Gate
        /// A8's retention (`retention`; the document's values when the file has none).
        package var retention: Retention { declaredRetention ?? Retention() }
        var declaredRetention: Retention?

        package init(specVersion: SpecVersion, quest: Quest, emergency: Emergency, gate: Gate, retention: Retention? = nil) {
            self.specVersion = specVersion
            self.quest = quest
            self.emergency = emergency
            self.gate = gate
            self.declaredRetention = retention
        }

        enum CodingKeys: String, CodingKey {
            case specVersion = "spec_version"
            case quest, emergency, gate
            case declaredRetention = "retention"
        }
    }

    /// Which specification a rule set follows: v1.1 fixes several values; "experimental" lets a
    /// rule set change them within sane ranges.
    package enum SpecVersion: String, Decodable, Sendable, CaseIterable {
        case v1_1 = "1.1"
        case experimental
    }

    package struct Quest: Decodable, Sendable, Equatable {
        package var enabledTypes: [QuestType]
        package var unlockMinutes: Int
        package var maxUnlocksPerAppPerDay: Int
        package var cooldownMinutesPerApp: Int
        package var qrRequiresKey: Bool
        package var allowedIn: [String: Bool]
        package var keyChangeCooldownHoursStrict: Int
        package var sessionMinutes: Int
        package init(
            enabledTypes: [QuestType], unlockMinutes: Int, maxUnlocksPerAppPerDay: Int, cooldownMinutesPerApp: Int,
            qrRequiresKey: Bool, allowedIn: [String: Bool], keyChangeCooldownHoursStrict: Int, sessionMinutes: Int
        ) {
            self.enabledTypes = enabledTypes
            self.unlockMinutes = unlockMinutes
            self.maxUnlocksPerAppPerDay = maxUnlocksPerAppPerDay
            self.cooldownMinutesPerApp = cooldownMinutesPerApp
            self.qrRequiresKey = qrRequiresKey
            self.allowedIn = allowedIn
            self.keyChangeCooldownHoursStrict = keyChangeCooldownHoursStrict
            self.sessionMinutes = sessionMinutes
        }
        enum CodingKeys: String, CodingKey {
            case enabledTypes = "enabled_types"
            case unlockMinutes = "unlock_minutes"
            case maxUnlocksPerAppPerDay = "max_unlocks_per_app_per_day"
            case cooldownMinutesPerApp = "cooldown_minutes_per_app"
            case qrRequiresKey = "qr_requires_key"
            case allowedIn = "allowed_in"
            case keyChangeCooldownHoursStrict = "key_change_cooldown_hours_strict"
            case sessionMinutes = "session_minutes"
        }
    }

    package struct Emergency: Decodable, Sendable, Equatable {
        package var dailyLimit: Int
        package var delaySeconds: Int
        package var unlockMinutes: Int
        package var blockSameAppConsecutive: Bool
        package init(dailyLimit: Int, delaySeconds: Int, unlockMinutes: Int, blockSameAppConsecutive: Bool) {
            self.dailyLimit = dailyLimit
            self.delaySeconds = delaySeconds
            self.unlockMinutes = unlockMinutes
            self.blockSameAppConsecutive = blockSameAppConsecutive
        }
        enum CodingKeys: String, CodingKey {
            case dailyLimit = "daily_limit"
            case delaySeconds = "delay_seconds"
            case unlockMinutes = "unlock_minutes"
            case blockSameAppConsecutive = "block_same_app_consecutive"
        }
    }

    package struct Gate: Decodable, Sendable, Equatable {
        package var expiresAfterMinutes: Int
        package init(expiresAfterMinutes: Int) { self.expiresAfterMinutes = expiresAfterMinutes }
        enum CodingKeys: String, CodingKey {
            case expiresAfterMinutes = "expires_after_minutes"
        }
    }

    /// A8: how long the unlock records and the event log are kept, and how often the cleanup runs.
    package struct Retention: Decodable, Sendable, Equatable {
        /// `event_log` (A8: 30 days).
        package var eventLogDays = 30
        /// `unlock_attempt`, `unlock_grant`, `quest_session`, `unlock_grant_extension` (A8: 30
        /// days); `daily_app_limits` follows them.
        package var unlockDays = 30
        /// A8: the cleanup runs on app start "if last cleanup > 24h".
        package var cleanupEveryHours = 24

        package init() {}

        enum CodingKeys: String, CodingKey {
            case eventLogDays = "event_log_days"
            case unlockDays = "unlock_days"
            case cleanupEveryHours = "cleanup_every_hours"
        }

        /// The store's policy: these periods for Earned's tables (MIGA's usage events are not Earned's).
        package var policy: RetentionPolicy {
            RetentionPolicy(
                eventLogDays: eventLogDays, unlockDays: unlockDays, dailyAppLimitsDays: unlockDays,
                minimumHoursBetweenRuns: cleanupEveryHours)
        }
    }

    enum CodingKeys: String, CodingKey {
        case declaredParams = "params"
        case questBlocked = "quest_blocked"
        case emergencyBlocked = "emergency_blocked"
    }

    /// Decoded in the order of the file's fields: the params, the knobs, then the functions.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        declaredParams = try container.decodeIfPresent(RuleParams.self, forKey: .declaredParams)
        knobs = try Knobs(from: decoder)
        questBlocked = try container.decode(LuaFunction.self, forKey: .questBlocked)
        emergencyBlocked = try container.decode(LuaFunction.self, forKey: .emergencyBlocked)
    }

    /// The values v1.1 fixes: (path, value, the document's words).
    static let v1_1Fixed: [(String, Int, String)] = [
        ("quest.unlock_minutes", 5, "quest unlock_minutes fixed to 5 in v1.1"),
        ("quest.max_unlocks_per_app_per_day", 2, "quest max/cooldown fixed to 2 and 15 in v1.1"),
        ("quest.cooldown_minutes_per_app", 15, "quest max/cooldown fixed to 2 and 15 in v1.1"),
        ("emergency.daily_limit", 1, "emergency settings fixed in v1.1"),
        ("emergency.delay_seconds", 60, "emergency settings fixed in v1.1"),
        ("emergency.unlock_minutes", 5, "emergency settings fixed in v1.1"),
    ]

    func parameterProblems(in file: RuleFile) -> [RuleProblem] {
        var problems: [RuleProblem] = []
        func require(_ ok: Bool, _ path: String, _ message: @autoclosure () -> String) {
            if !ok { problems.append(file.problem(at: path, "\(path): \(message())")) }
        }
        let values: [String: Int] = [
            "quest.unlock_minutes": quest.unlockMinutes, "quest.max_unlocks_per_app_per_day": quest.maxUnlocksPerAppPerDay,
            "quest.cooldown_minutes_per_app": quest.cooldownMinutesPerApp, "emergency.daily_limit": emergency.dailyLimit,
            "emergency.delay_seconds": emergency.delaySeconds, "emergency.unlock_minutes": emergency.unlockMinutes,
        ]
        if specVersion == .v1_1 {
            for (path, fixed, words) in QuestPolicy.v1_1Fixed {
                let value = values[path]!
                require(
                    value == fixed, path,
                    "must be \(fixed) (\"\(words)\"), found \(value); declare spec_version = \"experimental\" to change it")
            }
            require(
                emergency.blockSameAppConsecutive, "emergency.block_same_app_consecutive",
                "must be true (\"emergency settings fixed in v1.1\"); declare spec_version = \"experimental\" to change it")
        }
        require((1...240).contains(quest.unlockMinutes), "quest.unlock_minutes", "must be between 1 and 240, found \(quest.unlockMinutes)")
        require(
            (0...100).contains(quest.maxUnlocksPerAppPerDay), "quest.max_unlocks_per_app_per_day",
            "must be between 0 and 100, found \(quest.maxUnlocksPerAppPerDay)")
        require(
            (0...24 * 60).contains(quest.cooldownMinutesPerApp), "quest.cooldown_minutes_per_app",
            "must be between 0 and 1440, found \(quest.cooldownMinutesPerApp)")
        require(
            Set(quest.enabledTypes).count == quest.enabledTypes.count, "quest.enabled_types",
            "lists a quest type twice: \(quest.enabledTypes.map(\.rawValue))")
        let strictness = Set(Strictness.allCases.map(\.rawValue))
        require(
            Set(quest.allowedIn.keys) == strictness, "quest.allowed_in",
            "needs exactly GENTLE, STRICT and HARD, found \(quest.allowedIn.keys.sorted())")
        require(quest.allowedIn["HARD"] != true, "quest.allowed_in.HARD", "must be false: quests are DISALLOWED_IN_HARD_MODE (A4.2)")
        require(
            (0...24 * 30).contains(quest.keyChangeCooldownHoursStrict), "quest.key_change_cooldown_hours_strict",
            "must be between 0 and 720 hours, found \(quest.keyChangeCooldownHoursStrict)")
        require(
            (1...24 * 60).contains(quest.sessionMinutes), "quest.session_minutes",
            "must be between 1 and 1440, found \(quest.sessionMinutes)")
        require(
            (1...24 * 60).contains(gate.expiresAfterMinutes), "gate.expires_after_minutes",
            "must be between 1 and 1440, found \(gate.expiresAfterMinutes)")
        // At least 2 days: the day in progress and the one before are always whole, in any time zone.
        require(
            (2...3660).contains(retention.eventLogDays), "retention.event_log_days",
            "must be between 2 and 3660 days, found \(retention.eventLogDays)")
        require(
            (2...3660).contains(retention.unlockDays), "retention.unlock_days",
            "must be between 2 and 3660 days, found \(retention.unlockDays)")
        require(
            (1...720).contains(retention.cleanupEveryHours), "retention.cleanup_every_hours",
            "must be between 1 and 720 hours, found \(retention.cleanupEveryHours)")
        require(
            (0...100).contains(emergency.dailyLimit), "emergency.daily_limit", "must be between 0 and 100, found \(emergency.dailyLimit)")
        require(
            (0...3600).contains(emergency.delaySeconds), "emergency.delay_seconds",
            "must be between 0 and 3600, found \(emergency.delaySeconds)")
        require(
            (1...240).contains(emergency.unlockMinutes), "emergency.unlock_minutes",
            "must be between 1 and 240, found \(emergency.unlockMinutes)")
        return problems
    }
}

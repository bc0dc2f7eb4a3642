import LuaHost
import RulesModel

extension EarnedEvent {
    /// Parses the fields of an Earned event of `type` (without `at`, `user` and `type`).
    static func parse(_ type: String, _ table: LuaTable) throws(EngineError) -> EarnedEvent {
        let fields = LuaValue.table(table)
        func none() throws(EngineError) {
            if let extra = table.stringKeys.first {
                throw EngineError(.invalidEvent, "\(extra): unknown field (a \(type) event has only at, user and type)")
            }
        }
        switch type {
        case "mode":
            let definition = try EngineEvent.decode(ModeDefinition.self, fields)
            try name(definition.mode, "mode")
            for (i, window) in (definition.windows ?? []).enumerated() {
                guard !window.days.isEmpty, window.days.allSatisfy({ (1...7).contains($0) }), Set(window.days).count == window.days.count
                else {
                    throw EngineError(
                        .invalidEvent, "windows[\(i + 1)].days: expected distinct ISO weekdays 1 (Monday)…7 (Sunday), found \(window.days)")
                }
            }
            return .mode(definition)
        case "mode_override":
            let payload = try EngineEvent.decode(OverridePayload.self, fields)
            try name(payload.mode, "mode")
            var until: Timestamp?
            if let text = payload.until {
                guard let t = Timestamp(text) else {
                    throw EngineError(.invalidEvent, "until: expected an ISO-8601 time with an offset, found \"\(text)\"")
                }
                try t.checkInEngineRange("until", written: text)
                until = t
            }
            return .modeOverride(mode: payload.mode, state: payload.state, until: until)
        case "distracting_apps":
            return .distractingApps(try EngineEvent.decode(AppsPayload.self, fields).apps)
        case "qr_key":
            guard table.stringKeys.allSatisfy({ $0 == "value" }) else {
                throw EngineError(
                    .invalidEvent, "\(table.stringKeys.first { $0 != "value" }!): unknown field (a qr_key event has only value)")
            }
            switch table["value"] {
            case .nil: return .qrKey(nil)
            case .string(let value) where !value.isEmpty && value.count <= 256: return .qrKey(value)
            case let other:
                throw EngineError(.invalidEvent, "value: expected the key (1–256 characters) or null, found \(other.errorDescription)")
            }
        case "earned_habit":
            let definition = try EngineEvent.decode(EarnedHabitDefinition.self, fields)
            try name(definition.habit, "habit")
            return .habit(definition)
        case "earned_habit_completion":
            let payload = try EngineEvent.decode(HabitPayload.self, fields)
            try name(payload.habit, "habit")
            return .habitCompletion(habit: payload.habit)
        case "focus_start":
            let start = try EngineEvent.decode(FocusStart.self, fields)
            guard (1...24 * 60).contains(start.minutes) else {
                throw EngineError(.invalidEvent, "minutes: expected a planned length of 1–1440 minutes, found \(start.minutes)")
            }
            return .focusStart(start)
        case "focus_end":
            try none()
            return .focusEnd
        case "unlock_open", "unlock_cancel", "quest_complete", "quest_cancel":
            let app = try EngineEvent.decode(AppPayload.self, fields).app
            switch type {
            case "unlock_open": return .unlockOpen(app: app)
            case "unlock_cancel": return .unlockCancel(app: app)
            case "quest_complete": return .questComplete(app: app)
            default: return .questCancel(app: app)
            }
        case "quest_fail":
            let payload = try EngineEvent.decode(QuestFailPayload.self, fields)
            return .questFail(app: payload.app, reason: payload.reason)
        default:
            let payload = try EngineEvent.decode(ChoicePayload.self, fields)
            switch payload.option {
            case .creditsUnlock:
                guard let minutes = payload.minutes else {
                    throw EngineError(.invalidEvent, "minutes: required for a CREDITS_UNLOCK choice")
                }
                guard payload.quest_type == nil else { throw EngineError(.invalidEvent, "quest_type: only for a QUEST_UNLOCK choice") }
                return .unlockChoose(app: payload.app, .credits(minutes: minutes))
            case .questUnlock:
                guard let quest = payload.quest_type else {
                    throw EngineError(.invalidEvent, "quest_type: required for a QUEST_UNLOCK choice")
                }
                guard payload.minutes == nil else {
                    throw EngineError(
                        .invalidEvent, "minutes: only for a CREDITS_UNLOCK choice (a quest unlock lasts quests.lua's unlock_minutes)")
                }
                return .unlockChoose(app: payload.app, .quest(quest))
            case .emergencyUnlock:
                guard payload.minutes == nil, payload.quest_type == nil else {
                    throw EngineError(
                        .invalidEvent,
                        "\(payload.minutes != nil ? "minutes" : "quest_type"): an EMERGENCY_UNLOCK choice has no \(payload.minutes != nil ? "minutes" : "quest_type") (quests.lua sets its length)"
                    )
                }
                return .unlockChoose(app: payload.app, .emergency)
            }
        }
    }

    private static func name(_ text: String, _ field: String) throws(EngineError) {
        guard !text.isEmpty, text.count <= 200 else {
            throw EngineError(.invalidEvent, "\(field): expected a name (1–200 characters), found \"\(text)\"")
        }
    }

    private struct OverridePayload: Decodable { var mode: String; var state: ManualOverrideState; var until: String? }
    private struct AppsPayload: Decodable { var apps: [AppID] }
    private struct HabitPayload: Decodable { var habit: String }
    private struct AppPayload: Decodable { var app: AppID }
    private struct QuestFailPayload: Decodable { var app: AppID; var reason: QuestFailureReason }
    private struct ChoicePayload: Decodable { var app: AppID; var option: UnlockOptionType; var minutes: Int?; var quest_type: QuestType? }
}

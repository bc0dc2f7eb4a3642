import LuaHost
import RulesModel

extension EngineEvent {
    /// Parses one JSON line. Errors name the field and what was expected; unknown fields are
    /// rejected with a suggestion. A scenario's `expect` (an object) is allowed on any line, and
    /// left out of the event.
    public static func parse(_ line: String) throws(EngineError) -> EngineEvent {
        try parse(utf8: Array(line.utf8))
    }

    /// Parses one JSON line as read, which need not be UTF-8: a string in it that is not is
    /// refused, naming its field, rather than changed.
    public static func parse(utf8 line: [UInt8]) throws(EngineError) -> EngineEvent {
        let value: LuaValue
        do {
            value = try JSONLine.parse(utf8: line)
        } catch {
            throw EngineError(.invalidEvent, error.kind == .syntax ? "not valid JSON: \(error)" : error.fieldMessage)
        }
        guard var table = value.tableValue, !table.isSequence || table.isEmpty else {
            throw EngineError(.invalidEvent, "an event is a JSON object, found \(value.errorDescription)")
        }
        guard case .string(let atText) = table["at"] else {
            throw EngineError(
                .invalidEvent,
                table["at"].isNil
                    ? "at: required field is missing"
                    : "at: expected an ISO-8601 time with an offset, found \(table["at"].errorDescription)")
        }
        guard let at = Timestamp(atText) else {
            throw EngineError(
                .invalidEvent, "at: expected an ISO-8601 time with an offset (2026-03-02T08:30:00+01:00), found \"\(atText)\"")
        }
        try at.checkInEngineRange("at", written: atText)
        var user = "u1"
        switch table["user"] {
        case .nil: break
        case .string(let name) where !name.isEmpty && name.count <= 200: user = name
        case let other: throw EngineError(.invalidEvent, "user: expected a name (1–200 characters), found \(other.errorDescription)")
        }
        guard case .string(let type) = table["type"] else {
            throw EngineError(
                .invalidEvent,
                table["type"].isNil
                    ? "type: required field is missing"
                    : "type: expected a string, found \(table["type"].errorDescription)")
        }
        // A scenario line's expectations (docs/testing-rules.md): judged by `rulesrun test` and
        // `replay --check`, which read them from the line; no part of the event.
        switch table["expect"] {
        case .nil: break
        case .table(let expect) where !expect.isSequence || expect.isEmpty: break
        case let other:
            throw EngineError(
                .invalidEvent,
                "expect: expected an object from paths to values ({\"state.current_tier\": 1}), found \(other.errorDescription)")
        }
        table["at"] = .nil
        table["user"] = .nil
        table["type"] = .nil
        table["expect"] = .nil
        let fields = LuaValue.table(table)
        let kind: Kind
        switch type {
        case "settings":
            let change = try decode(SettingsChange.self, fields)
            guard change != SettingsChange() else {
                throw EngineError(
                    .invalidEvent,
                    "a settings event changes at least one of: commitment_deadline, checkin_window_close, timezone, personality_mode, notifications_enabled, day_starts_at"
                )
            }
            kind = .settings(change)
        case "subscription":
            let payload = try decode(SubscriptionPayload.self, fields)
            var expires: Timestamp?
            if let text = payload.expires_at {
                guard let t = Timestamp(text) else {
                    throw EngineError(.invalidEvent, "expires_at: expected an ISO-8601 time with an offset, found \"\(text)\"")
                }
                try t.checkInEngineRange("expires_at", written: text)
                expires = t
            }
            kind = .subscription(tier: payload.tier, expiresAt: expires)
        case "commitment":
            kind = .commitment(text: try decode(CommitmentPayload.self, fields).text)
        case "check_in":
            let result = try decode(CheckInPayload.self, fields).result
            guard result == "YES" || result == "NO" else {
                throw EngineError(
                    .invalidEvent, "result: expected \"YES\" or \"NO\" (a MISSED day is decided by the clock), found \"\(result)\"")
            }
            kind = .checkIn(result == "YES" ? .yes : .no)
        case "shield", "tick":
            if let extra = table.stringKeys.first {
                throw EngineError(.invalidEvent, "\(extra): unknown field (a \(type) event has only at, user and type)")
            }
            kind = type == "shield" ? .shield : .tick
        case "habit_task":
            kind = .habitTask(try decode(HabitTaskDefinition.self, fields))
        case "habit_completion":
            let payload = try decode(HabitCompletionPayload.self, fields)
            kind = .habitCompletion(task: payload.task, value: payload.value, forDay: payload.for_day)
        case "habit_skip":
            let payload = try decode(HabitDayPayload.self, fields)
            kind = .habitSkip(task: payload.task, day: payload.day)
        case "habit_freeze":
            let payload = try decode(HabitFreezePayload.self, fields)
            kind = .habitFreeze(task: payload.task, action: payload.action, day: payload.day)
        case "habit_uncheck":
            let payload = try decode(HabitDayPayload.self, fields)
            kind = .habitUncheck(task: payload.task, day: payload.day)
        case "miga":
            let payload = try decode(MigaPayload.self, fields)
            kind = .miga(payload.event, app: payload.app ?? "", pauseSeconds: payload.pause_seconds)
        case _ where EarnedEvent.typeNames.contains(type):
            kind = .earned(try EarnedEvent.parse(type, table))
        default:
            var message = "type: unknown event type \"\(type)\""
            if let suggestion = Suggestion.closest(to: type, among: typeNames) {
                message += " (did you mean \"\(suggestion)\"?)"
            } else {
                message += " (one of: \(typeNames.joined(separator: ", ")))"
            }
            throw EngineError(.invalidEvent, message)
        }
        return EngineEvent(at: at, user: user, kind: kind)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ value: LuaValue) throws(EngineError) -> T {
        do {
            return try LuaDecoder().decode(type, from: value)
        } catch let error as LuaError {
            // (A value type of the model that checks itself while decoding, a time of day or an
            // AppID, has its message without its own naming of the field: the path is enough.)
            throw EngineError(.invalidEvent, error.description)
        } catch {
            throw EngineError(.invalidEvent, "\(error)")
        }
    }

    private struct SubscriptionPayload: Decodable { var tier: SubscriptionTier; var expires_at: String? }
    private struct CommitmentPayload: Decodable { var text: String }
    private struct CheckInPayload: Decodable { var result: String }
    private struct HabitCompletionPayload: Decodable { var task: String; var value: Double?; var for_day: DayID? }
    private struct HabitDayPayload: Decodable { var task: String; var day: DayID? }
    private struct HabitFreezePayload: Decodable { var task: String; var action: FreezeAction; var day: DayID? }
    private struct MigaPayload: Decodable { var event: UsageEventType; var app: String?; var pause_seconds: Double? }
}

import GRDB
import RulesModel

/// Row ⇄ model conversions of Earned's unlock tables and event log.
package enum UnlockRows {
    static func attempt(_ row: Row) throws -> UnlockAttempt {
        let r = RowReader(row, "unlock_attempt")
        return UnlockAttempt(
            userID: try r.user(), attemptID: try r.string("attempt_id"), appID: try r.appID("app_id"),
            timestamp: try r.int64("ts_utc_ms"), timezoneID: try r.string("timezone_id"), dayID: try r.day("day_id"),
            effectiveModeID: try r.optional("effective_mode_id"), effectiveStrictness: try r.enumValue("effective_strictness"),
            availableOptions: try r.json("available_options_json"), chosenOptionType: try r.optionalEnum("chosen_option_type"),
            chosenOptionPayload: try r.optionalJSON("chosen_option_payload_json"), outcome: try r.enumValue("outcome"),
            denialReason: try r.optionalEnum("denial_reason"), grantID: try r.optional("grant_id"),
            createdAt: try r.int64("created_ts_utc_ms"), updatedAt: try r.int64("updated_ts_utc_ms"))
    }

    static func grant(_ row: Row) throws -> UnlockGrant {
        let r = RowReader(row, "unlock_grant")
        return UnlockGrant(
            userID: try r.user(), grantID: try r.string("grant_id"), appID: try r.appID("app_id"),
            createdAt: try r.int64("created_ts_utc_ms"), createdDayID: try r.day("created_day_id"),
            startsAt: try r.int64("starts_ts_utc_ms"), endsAt: try r.int64("ends_ts_utc_ms"), method: try r.enumValue("method"),
            sourceModeID: try r.optional("source_mode_id"), sourceAttemptID: try r.string("source_attempt_id"),
            metadata: try r.json("metadata_json"), revokedAt: try r.optional("revoked_ts_utc_ms"))
    }

    static func grantExtension(_ row: Row) throws -> UnlockGrantExtension {
        let r = RowReader(row, "unlock_grant_extension")
        return UnlockGrantExtension(
            userID: try r.user(), extensionID: try r.string("extension_id"), grantID: try r.string("grant_id"),
            timestamp: try r.int64("ts_utc_ms"), addedMinutes: try r.int("added_minutes"),
            newEndsAt: try r.int64("new_ends_ts_utc_ms"), method: try r.enumValue("method"), metadata: try r.json("metadata_json"))
    }

    static func questSession(_ row: Row) throws -> QuestSession {
        let r = RowReader(row, "quest_session")
        return QuestSession(
            userID: try r.user(), questSessionID: try r.string("quest_session_id"), attemptID: try r.string("attempt_id"),
            questType: try r.enumValue("quest_type"), createdAt: try r.int64("created_ts_utc_ms"),
            expiresAt: try r.int64("expires_ts_utc_ms"), state: try r.enumValue("state"), metadata: try r.json("metadata_json"),
            updatedAt: try r.int64("updated_ts_utc_ms"))
    }

    static func dailyAppLimits(_ row: Row) throws -> DailyAppLimits {
        let r = RowReader(row, "daily_app_limits")
        return DailyAppLimits(
            userID: try r.user(), dayID: try r.day("day_id"), appID: try r.appID("app_id"),
            questGrantsCount: try r.int("quest_grants_count"), lastQuestGrantStartAt: try r.optional("last_quest_grant_start_ts_utc_ms"))
    }

    static func event(_ row: Row) throws -> EventLogEntry {
        let r = RowReader(row, "event_log")
        let type: EventType = try r.enumValue("type")
        let payload: EventPayload
        do { payload = try EventPayload.decode(type: type, json: try r.string("payload_json")) } catch let error as ModelValidationError {
            throw r.corrupt(error.field, "\(error.rule), found \(error.found)")
        }
        return EventLogEntry(
            userID: try r.user(), eventID: try r.string("event_id"), timestamp: try r.int64("ts_utc_ms"),
            timezoneID: try r.string("timezone_id"), dayID: try r.day("day_id"), payload: payload,
            createdAt: try r.int64("created_ts_utc_ms"), syncStatus: try r.enumValue("sync_status"))
    }

    package static let insertEventSQL = """
        INSERT INTO event_log(event_id, user_id, ts_utc_ms, timezone_id, day_id, type, payload_json, created_ts_utc_ms, sync_status)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    package static func eventArguments(_ e: EventLogEntry) throws -> StatementArguments {
        let json = try e.payload.json()
        return ArgumentValues.of { event(e, payloadJSON: json, into: &$0) }
    }
}

import GRDB
import RulesModel

/// Row ⇄ model conversions of MIGA's tables.
package enum MigaRows {
    static func usageEvent(_ row: Row) throws -> UsageEvent {
        let r = RowReader(row, "miga_usage_event")
        return UsageEvent(
            id: try r.uuid("event_uuid"), userID: try r.user(), eventType: try r.enumValue("event_type"),
            timestamp: try r.int64("ts_utc_ms"), targetAppName: try r.string("target_app_name"),
            pauseDuration: try r.double("pause_duration"), timerDuration: try r.double("timer_duration"))
    }

    package static let insertUsageEventSQL = """
        INSERT INTO miga_usage_event(event_uuid, user_id, event_type, ts_utc_ms, target_app_name, pause_duration, timer_duration)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """

    package static func usageEventArguments(_ e: UsageEvent) -> StatementArguments { ArgumentValues.of { usageEvent(e, into: &$0) } }

    static func usageEvent<V: RowValues>(_ e: UsageEvent, into v: inout V) {
        v.add(e.id); v.add(e.userID.rawValue); v.add(e.eventType.rawValue); v.add(e.timestamp); v.add(e.targetAppName)
        v.add(e.pauseDuration); v.add(e.timerDuration)
    }

    static func selectedApp(_ row: Row) throws -> SelectedApp {
        let r = RowReader(row, "miga_selected_app")
        return SelectedApp(
            id: try r.uuid("app_uuid"), userID: try r.user(), appName: try r.string("app_name"), urlScheme: try r.string("url_scheme"),
            iconName: try r.string("icon_name"), isInstalled: try r.bool("is_installed"),
            dateAdded: try r.int64("date_added_ts_utc_ms"), orderIndex: try r.int("order_index"))
    }

    static func settings(_ row: Row) throws -> MigaSettings {
        let r = RowReader(row, "miga_settings")
        return MigaSettings(
            frePhase: try r.enumValue("fre_phase"), hasCompletedOnboarding: try r.bool("has_completed_onboarding"),
            gatewayTimerDuration: try r.double("gateway_timer_duration"), determinationLevel: try r.int("determination_level"),
            selectedInterestTags: try r.json("selected_interest_tags"))
    }
}

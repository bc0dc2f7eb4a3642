import GRDB
import RulesModel

extension Snapshot {
    /// MIGA usage events in `[from, to)`, optionally of one type, oldest first.
    public func usageEvents(_ userID: UserID, from: EpochMillis, to: EpochMillis, type: UsageEventType? = nil) throws -> [UsageEvent] {
        try Snapshot.requirePeriod(from, to)
        if let type {
            return try all(
                """
                SELECT * FROM miga_usage_event WHERE user_id = ? AND event_type = ? AND ts_utc_ms >= ? AND ts_utc_ms < ? ORDER BY ts_utc_ms, event_uuid
                """, [userID.rawValue, type.rawValue, from, to], MigaRows.usageEvent)
        }
        return try all(
            "SELECT * FROM miga_usage_event WHERE user_id = ? AND ts_utc_ms >= ? AND ts_utc_ms < ? ORDER BY ts_utc_ms, event_uuid",
            [userID.rawValue, from, to], MigaRows.usageEvent)
    }

    /// Counts of usage events per local day, event type and target app, for the days `fromDay…toDay`
    /// (inclusive). A local day is the UTC day of `timestamp + utcOffsetMinutes` (the caller
    /// passes the user's offset; MIGA's day boundary is local midnight).
    public func usageCountsPerDay(_ userID: UserID, fromDay: DayID, toDay: DayID, utcOffsetMinutes: Int) throws -> [UsageDayCount] {
        guard (-18 * 60...18 * 60).contains(utcOffsetMinutes) else {
            throw StoreError(.invalidState, "a UTC offset must be between -1080 and 1080 minutes, found \(utcOffsetMinutes)")
        }
        guard fromDay <= toDay else { throw StoreError(.invalidState, "a day range must not end (\(toDay)) before it starts (\(fromDay))") }
        let offset = Int64(utcOffsetMinutes) * Millis.minute
        let from = fromDay.utcStartMillis - offset
        let to = toDay.utcStartMillis + Millis.day - offset
        return try Row.fetchAll(
            cached: db,
            sql: """
                SELECT (ts_utc_ms + ?) / 86400000 AS day_ordinal, event_type, target_app_name, COUNT(*) AS n, SUM(pause_duration) AS pause
                FROM miga_usage_event WHERE user_id = ? AND ts_utc_ms >= ? AND ts_utc_ms < ?
                GROUP BY day_ordinal, event_type, target_app_name ORDER BY day_ordinal, event_type, target_app_name
                """, arguments: [offset, userID.rawValue, from, to]
        ).map { row in
            let r = RowReader(row, "miga_usage_event")
            guard let day = DayID(ordinal: try r.int("day_ordinal")) else { throw r.corrupt("ts_utc_ms", "a timestamp outside 1970…9999") }
            return UsageDayCount(
                day: day, eventType: try r.enumValue("event_type"), targetAppName: try r.string("target_app_name"),
                count: try r.int("n"), pauseSeconds: try r.double("pause"))
        }
    }

    /// The apps a user monitors, in launcher order.
    public func selectedApps(_ userID: UserID) throws -> [SelectedApp] {
        try all("SELECT * FROM miga_selected_app WHERE user_id = ? ORDER BY order_index, app_uuid", [userID.rawValue], MigaRows.selectedApp)
    }

    /// MIGA's settings of a user.
    public func migaSettings(_ userID: UserID) throws -> MigaSettings {
        try one("SELECT * FROM miga_settings WHERE user_id = ?", [userID.rawValue], "MIGA settings of user", "\(userID)", MigaRows.settings)
    }
}

import Foundation
import GRDB
import RulesModel

extension Snapshot {
    /// Pressure's settings of a user.
    public func pressureSettings(_ userID: UserID) throws -> UserSettings {
        try one(
            "SELECT * FROM pressure_settings WHERE user_id = ?", [userID.rawValue], "pressure settings of user", "\(userID)",
            PressureRows.settings)
    }

    /// Pressure's escalation state of a user.
    public func escalationState(_ userID: UserID) throws -> EscalationState {
        try one(
            "SELECT * FROM pressure_escalation_state WHERE user_id = ?", [userID.rawValue], "escalation state of user", "\(userID)",
            PressureRows.escalation)
    }

    /// The commitment of a day, if any.
    public func commitment(_ userID: UserID, on day: DayID) throws -> Commitment? {
        try Row.fetchOne(
            cached: db, sql: "SELECT * FROM pressure_commitment WHERE user_id = ? AND day_id = ?",
            arguments: [userID.rawValue, day.rawValue]
        ).map(PressureRows.commitment)
    }

    /// The commitments of the last `days` days ending on `endingOn` (inclusive), oldest first.
    /// Days without a record are absent.
    public func commitmentHistory(_ userID: UserID, lastDays days: Int, endingOn end: DayID) throws -> [Commitment] {
        let (from, to) = try Snapshot.lastDays(days, endingOn: end)
        return try all(
            "SELECT * FROM pressure_commitment WHERE user_id = ? AND day_id BETWEEN ? AND ? ORDER BY day_id",
            [userID.rawValue, from.rawValue, to.rawValue], PressureRows.commitment)
    }

    /// Notification log entries scheduled in `[from, to)`, in schedule order.
    public func notifications(_ userID: UserID, from: EpochMillis, to: EpochMillis) throws -> [NotificationLogEntry] {
        try Snapshot.requirePeriod(from, to)
        return try all(
            """
            SELECT * FROM pressure_notification WHERE user_id = ? AND scheduled_for_ts_utc_ms >= ? AND scheduled_for_ts_utc_ms < ?
            ORDER BY scheduled_for_ts_utc_ms, notification_id
            """, [userID.rawValue, from, to], PressureRows.notification)
    }
}

import Foundation
import GRDB
import RulesModel

/// The rows ``Store/createUser(_:day:timezoneID:now:makeUUID:)`` writes for a new user (checked
/// when made): `app_user`, every app's singleton rows (A5.1 for Earned: `economy_state`,
/// `user_settings`, `entitlement_state`, `emergency_state`, `focus_state`; Pressure's settings and
/// escalation state, the habit tracker's settings and four preset categories, MIGA's settings).
/// ``UserRecords`` starts from the same rows and ``BulkWriter`` writes them the same way.
struct NewUser: Sendable {
    let userID: UserID
    /// Earned's current `day_id` for the new economy state.
    let day: DayID
    let now: EpochMillis
    let earned: EarnedSettings
    let pressure: UserSettings
    let categories: [RulesModel.Category]

    init(_ userID: UserID, day: DayID, timezoneID: String, now: EpochMillis, makeUUID: () -> UUID) throws {
        try Millis.check(now, entity: "app_user", field: "created_ts_utc_ms")
        earned = EarnedSettings.defaults(timezoneID: timezoneID)
        try earned.validate()
        pressure = UserSettings(timezoneIdentifier: timezoneID)
        try pressure.validate()
        categories = Category.presets(for: userID, createdAt: now, makeID: makeUUID)
        self.userID = userID
        self.day = day
        self.now = now
    }

    /// Inserts the rows (the user must not exist yet).
    func insert(_ db: Database) throws {
        let u = userID.rawValue
        try db.execute(cached: "INSERT INTO app_user(user_id, created_ts_utc_ms) VALUES (?, ?)", arguments: [u, now])
        try db.execute(cached: "INSERT INTO entitlement_state(user_id, updated_ts_utc_ms) VALUES (?, ?)", arguments: [u, now])
        try db.execute(cached: "INSERT INTO user_settings(user_id, settings_json, updated_ts_utc_ms) VALUES (?, ?, ?)",
                       arguments: [u, try ModelJSON.encode(earned), now])
        try db.execute(cached: "INSERT INTO economy_state(user_id, current_day_id, updated_ts_utc_ms) VALUES (?, ?, ?)",
                       arguments: [u, day.rawValue, now])
        try db.execute(cached: "INSERT INTO emergency_state(user_id, updated_ts_utc_ms) VALUES (?, ?)", arguments: [u, now])
        try db.execute(cached: "INSERT INTO focus_state(user_id, updated_ts_utc_ms) VALUES (?, ?)", arguments: [u, now])
        try db.execute(cached: "INSERT INTO pressure_settings(user_id, timezone_identifier, updated_ts_utc_ms) VALUES (?, ?, ?)",
                       arguments: [u, pressure.timezoneIdentifier, now])
        try db.execute(cached: "INSERT INTO pressure_escalation_state(user_id, updated_ts_utc_ms) VALUES (?, ?)", arguments: [u, now])
        try db.execute(cached: "INSERT INTO tracker_settings(user_id, created_ts_utc_ms) VALUES (?, ?)", arguments: [u, now])
        try db.execute(cached: "INSERT INTO miga_settings(user_id, updated_ts_utc_ms) VALUES (?, ?)", arguments: [u, now])
        for category in categories { try Store.insertCategory(db, category) }
    }
}

import Foundation
import GRDB
import RulesModel

extension Store {
    /// Adds a user with every app's singleton rows (A5.1 for Earned: `economy_state`,
    /// `user_settings`, `entitlement_state`, `emergency_state`, `focus_state`; and Pressure's
    /// settings and escalation state, the habit tracker's settings and four preset categories,
    /// MIGA's settings), all in one transaction.
    ///
    /// - Parameters:
    ///   - day: Earned's current `day_id` for the new economy state.
    ///   - timezoneID: the user's IANA time zone (Earned settings, Pressure settings).
    ///   - makeUUID: the source of the preset categories' ids (inject a seeded one for reproducible simulations).
    public func createUser(_ userID: UserID, day: DayID, timezoneID: String = "UTC", now: EpochMillis,
                           makeUUID: () -> UUID = UUID.init) throws {
        try Millis.check(now, entity: "app_user", field: "created_ts_utc_ms")
        let earned = EarnedSettings.defaults(timezoneID: timezoneID)
        try earned.validate()
        let pressure = UserSettings(timezoneIdentifier: timezoneID)
        try pressure.validate()
        let categories = Category.presets(for: userID, createdAt: now, makeID: makeUUID)
        try write { db in
            if try Bool.fetchOne(cached: db, sql: "SELECT 1 FROM app_user WHERE user_id = ?", arguments: [userID.rawValue]) == true {
                throw StoreError(.constraint, "user \(userID) already exists")
            }
            try db.execute(cached: "INSERT INTO app_user(user_id, created_ts_utc_ms) VALUES (?, ?)", arguments: [userID.rawValue, now])
            try Self.insertSingletons(db, userID: userID, day: day, earned: earned, pressure: pressure, now: now)
            for category in categories { try Self.insertCategory(db, category) }
        }
    }

    static func insertSingletons(_ db: Database, userID: UserID, day: DayID, earned: EarnedSettings, pressure: UserSettings,
                                 now: EpochMillis) throws {
        let u = userID.rawValue
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
    }

    /// Throws ``StoreError/Code-swift.struct/notFound`` unless the user exists.
    static func requireUser(_ db: Database, _ userID: UserID) throws {
        guard try Bool.fetchOne(cached: db, sql: "SELECT 1 FROM app_user WHERE user_id = ?", arguments: [userID.rawValue]) == true else {
            throw StoreError.notFound("user", "\(userID)")
        }
    }

    /// The users of the database, in order.
    public func users() throws -> [UserID] {
        try writer.read { db in
            try Int64.fetchAll(cached: db, sql: "SELECT user_id FROM app_user ORDER BY user_id").compactMap(UserID.init(rawValue:))
        }
    }
}

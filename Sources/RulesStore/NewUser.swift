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
    let pressure: UserSettings
    /// Earned's default settings (`user_settings.settings_json`), and as JSON.
    let earned: EarnedSettings
    let earnedJSON: String
    let categories: [RulesModel.Category]

    init(_ userID: UserID, day: DayID, timezoneID: String, now: EpochMillis, makeUUID: () -> UUID) throws {
        try Millis.check(now, entity: "app_user", field: "created_ts_utc_ms")
        earned = EarnedSettings.defaults(timezoneID: timezoneID)
        try earned.validate()
        // Every simulated user starts in UTC: the same JSON, encoded once (0.7 % of an in-memory simulation).
        earnedJSON = try timezoneID == "UTC" ? Self.earnedJSONUTC.get() : ModelJSON.encode(earned)
        pressure = UserSettings(timezoneIdentifier: timezoneID)
        try pressure.validate()
        categories = Category.presets(for: userID, createdAt: now, makeID: makeUUID)
        for category in categories { try category.validate() }
        self.userID = userID
        self.day = day
        self.now = now
    }

    /// `earnedJSON` of a user created in UTC.
    private static let earnedJSONUTC = Result { try ModelJSON.encode(EarnedSettings.defaults(timezoneID: "UTC")) }

    /// The INSERT statements of the rows, prepared once for any number of users.
    struct Statements {
        let appUser, entitlement, earnedSettings, economy, emergency, focus, pressureSettings, escalation, tracker, miga,
            category: PreparedStatement

        init(_ db: Database) throws {
            appUser = try PreparedStatement(db, "INSERT INTO app_user(user_id, created_ts_utc_ms) VALUES (?, ?)")
            entitlement = try PreparedStatement(db, "INSERT INTO entitlement_state(user_id, updated_ts_utc_ms) VALUES (?, ?)")
            earnedSettings = try PreparedStatement(
                db, "INSERT INTO user_settings(user_id, settings_json, updated_ts_utc_ms) VALUES (?, ?, ?)")
            economy = try PreparedStatement(db, "INSERT INTO economy_state(user_id, current_day_id, updated_ts_utc_ms) VALUES (?, ?, ?)")
            emergency = try PreparedStatement(db, "INSERT INTO emergency_state(user_id, updated_ts_utc_ms) VALUES (?, ?)")
            focus = try PreparedStatement(db, "INSERT INTO focus_state(user_id, updated_ts_utc_ms) VALUES (?, ?)")
            pressureSettings = try PreparedStatement(
                db, "INSERT INTO pressure_settings(user_id, timezone_identifier, updated_ts_utc_ms) VALUES (?, ?, ?)")
            escalation = try PreparedStatement(db, "INSERT INTO pressure_escalation_state(user_id, updated_ts_utc_ms) VALUES (?, ?)")
            tracker = try PreparedStatement(db, "INSERT INTO tracker_settings(user_id, created_ts_utc_ms) VALUES (?, ?)")
            miga = try PreparedStatement(db, "INSERT INTO miga_settings(user_id, updated_ts_utc_ms) VALUES (?, ?)")
            category = try PreparedStatement(db, TrackerRows.insertCategorySQL)
        }
    }

    /// Inserts the rows (the user must not exist yet).
    func insert(_ s: Statements) throws {
        let u = userID.rawValue
        for statement in [s.appUser, s.entitlement, s.emergency, s.focus, s.escalation, s.tracker, s.miga] {
            try statement.run { v in
                v.add(u); v.add(now)
            }
        }
        try s.earnedSettings.run { v in
            v.add(u); v.add(earnedJSON); v.add(now)
        }
        try s.economy.run { v in
            v.add(u); v.add(day.rawValue); v.add(now)
        }
        try s.pressureSettings.run { v in
            v.add(u); v.add(pressure.timezoneIdentifier); v.add(now)
        }
        for c in categories { try s.category.run { TrackerRows.category(c, into: &$0) } }
    }
}

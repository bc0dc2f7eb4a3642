import GRDB
import RulesModel

extension Store {
    /// Replaces Earned's `settings_json` of a user (validated against A4.1 first).
    package func saveEarnedSettings(_ userID: UserID, _ settings: EarnedSettings, now: EpochMillis) throws {
        try earned(userID) { try $0.saveEarnedSettings(settings, now: now) }
    }

    /// Replaces Earned's entitlement of a user.
    package func saveEntitlement(_ state: EntitlementState) throws {
        try earned(state.userID) { try $0.saveEntitlement(state) }
    }

    /// Inserts or updates a mode with its windows and blocked apps (replacing the previous ones).
    package func saveMode(_ mode: Mode, windows: [ModeWindow] = [], blockedApps: [AppID] = []) throws {
        try earned(mode.userID) { try $0.saveMode(mode, windows: windows, blockedApps: blockedApps) }
    }

    /// Inserts or updates an Earned habit.
    package func saveHabit(_ habit: Habit) throws {
        try earned(habit.userID) { try $0.saveHabit(habit) }
    }

    /// Inserts or updates the label of an app.
    package func saveAppInfo(_ info: AppInfo) throws {
        try info.validate()
        try write { db in
            try Self.requireUser(db, info.userID)
            try db.execute(
                cached: """
                    INSERT INTO app_info(user_id, app_id, platform, display_name, user_alias, icon_uri, created_ts_utc_ms, updated_ts_utc_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(user_id, app_id) DO UPDATE SET display_name = excluded.display_name, user_alias = excluded.user_alias,
                      icon_uri = excluded.icon_uri, updated_ts_utc_ms = excluded.updated_ts_utc_ms
                    """,
                arguments: [
                    info.userID.rawValue, info.appID.rawValue, info.platform.rawValue, info.displayName, info.userAlias, info.iconURI,
                    info.createdAt, info.updatedAt,
                ])
        }
    }

    /// Replaces the user's global "Distracting Apps" list.
    package func setDistractingApps(_ userID: UserID, _ apps: [AppID], now: EpochMillis) throws {
        try earned(userID) { try $0.setDistractingApps(apps, now: now) }
    }
}

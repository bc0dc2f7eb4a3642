import GRDB
import RulesModel

extension Store {
    /// Replaces Earned's `settings_json` of a user (validated against A4.1 first).
    public func saveEarnedSettings(_ userID: UserID, _ settings: EarnedSettings, now: EpochMillis) throws {
        try Millis.check(now, entity: "EarnedUserSettings", field: "updated_ts_utc_ms")
        try settings.validate()
        try write { db in
            try Self.requireUser(db, userID)
            try db.execute(cached: "UPDATE user_settings SET settings_json = ?, updated_ts_utc_ms = ? WHERE user_id = ?",
                           arguments: [try ModelJSON.encode(settings), now, userID.rawValue])
        }
    }

    /// Replaces Earned's entitlement of a user.
    public func saveEntitlement(_ state: EntitlementState) throws {
        try state.validate()
        try write { db in
            try Self.requireUser(db, state.userID)
            try db.execute(cached: "UPDATE entitlement_state SET tier = ?, subscription_active = ?, updated_ts_utc_ms = ? WHERE user_id = ?",
                           arguments: [state.tier.rawValue, state.subscriptionActive, state.updatedAt, state.userID.rawValue])
        }
    }

    /// Inserts or updates a mode with its windows and blocked apps (replacing the previous ones).
    public func saveMode(_ mode: Mode, windows: [ModeWindow] = [], blockedApps: [AppID] = []) throws {
        try mode.validate()
        for window in windows {
            try window.validate()
            guard window.modeID == mode.modeID, window.userID == mode.userID else {
                throw ModelValidationError(entity: "ModeWindow", field: "mode_id", rule: "the saved mode \(mode.modeID)", found: window.modeID)
            }
        }
        try write { db in
            try Self.requireUser(db, mode.userID)
            try Self.requireOwner(db, table: "mode", idColumn: "mode_id", id: mode.modeID, userID: mode.userID)
            try db.execute(cached: """
                INSERT INTO mode(mode_id, user_id, name, priority, strictness, manual_state, manual_effective_at_ts_utc_ms,
                  manual_expires_at_ts_utc_ms, created_ts_utc_ms, updated_ts_utc_ms, deleted_ts_utc_ms, sync_status)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(mode_id) DO UPDATE SET name = excluded.name, priority = excluded.priority, strictness = excluded.strictness,
                  manual_state = excluded.manual_state, manual_effective_at_ts_utc_ms = excluded.manual_effective_at_ts_utc_ms,
                  manual_expires_at_ts_utc_ms = excluded.manual_expires_at_ts_utc_ms, updated_ts_utc_ms = excluded.updated_ts_utc_ms,
                  deleted_ts_utc_ms = excluded.deleted_ts_utc_ms, sync_status = excluded.sync_status
                """, arguments: [mode.modeID, mode.userID.rawValue, mode.name, mode.priority, mode.strictness.rawValue, mode.manualState.rawValue,
                                 mode.manualEffectiveAt, mode.manualExpiresAt, mode.createdAt, mode.updatedAt, mode.deletedAt, mode.syncStatus.rawValue])
            try db.execute(cached: "DELETE FROM mode_window WHERE mode_id = ?", arguments: [mode.modeID])
            for w in windows {
                try db.execute(cached: """
                    INSERT INTO mode_window(window_id, user_id, mode_id, days_of_week_mask, start_local_hhmm, end_local_hhmm, created_ts_utc_ms,
                      updated_ts_utc_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [w.windowID, w.userID.rawValue, w.modeID, w.daysOfWeekMask, w.startLocal.text, w.endLocal.text, w.createdAt, w.updatedAt])
            }
            try db.execute(cached: "DELETE FROM mode_blocked_app WHERE mode_id = ?", arguments: [mode.modeID])
            for app in Set(blockedApps).sorted() {
                try db.execute(cached: "INSERT INTO mode_blocked_app(mode_id, app_id, user_id, created_ts_utc_ms) VALUES (?, ?, ?, ?)",
                               arguments: [mode.modeID, app.rawValue, mode.userID.rawValue, mode.updatedAt])
            }
        }
    }

    /// Inserts or updates an Earned habit.
    public func saveHabit(_ habit: Habit) throws {
        try habit.validate()
        try write { db in
            try Self.requireUser(db, habit.userID)
            try Self.requireOwner(db, table: "habit", idColumn: "habit_id", id: habit.habitID, userID: habit.userID)
            try db.execute(cached: """
                INSERT INTO habit(habit_id, user_id, name, reward_credits, active, sort_order, created_ts_utc_ms, updated_ts_utc_ms,
                  deleted_ts_utc_ms, sync_status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(habit_id) DO UPDATE SET name = excluded.name, reward_credits = excluded.reward_credits, active = excluded.active,
                  sort_order = excluded.sort_order, updated_ts_utc_ms = excluded.updated_ts_utc_ms, deleted_ts_utc_ms = excluded.deleted_ts_utc_ms,
                  sync_status = excluded.sync_status
                """, arguments: [habit.habitID, habit.userID.rawValue, habit.name, habit.rewardCredits, habit.active, habit.sortOrder,
                                 habit.createdAt, habit.updatedAt, habit.deletedAt, habit.syncStatus.rawValue])
        }
    }

    /// Inserts or updates the label of an app.
    public func saveAppInfo(_ info: AppInfo) throws {
        try info.validate()
        try write { db in
            try Self.requireUser(db, info.userID)
            try db.execute(cached: """
                INSERT INTO app_info(user_id, app_id, platform, display_name, user_alias, icon_uri, created_ts_utc_ms, updated_ts_utc_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(user_id, app_id) DO UPDATE SET display_name = excluded.display_name, user_alias = excluded.user_alias,
                  icon_uri = excluded.icon_uri, updated_ts_utc_ms = excluded.updated_ts_utc_ms
                """, arguments: [info.userID.rawValue, info.appID.rawValue, info.platform.rawValue, info.displayName, info.userAlias, info.iconURI,
                                 info.createdAt, info.updatedAt])
        }
    }

    /// Replaces the user's global "Distracting Apps" list.
    public func setDistractingApps(_ userID: UserID, _ apps: [AppID], now: EpochMillis) throws {
        try Millis.check(now, entity: "DistractingApp", field: "created_ts_utc_ms")
        try write { db in
            try Self.requireUser(db, userID)
            try db.execute(cached: "DELETE FROM distracting_app WHERE user_id = ?", arguments: [userID.rawValue])
            for app in Set(apps).sorted() {
                try db.execute(cached: "INSERT INTO distracting_app(user_id, app_id, created_ts_utc_ms) VALUES (?, ?, ?)",
                               arguments: [userID.rawValue, app.rawValue, now])
            }
        }
    }

    /// Refuses to touch a row id that belongs to another user.
    static func requireOwner(_ db: Database, table: String, idColumn: String, id: String, userID: UserID) throws {
        if let owner = try Int64.fetchOne(cached: db, sql: "SELECT user_id FROM \(table) WHERE \(idColumn) = ?", arguments: [id]),
           owner != userID.rawValue {
            throw StoreError(.constraint, "\(table) \(id) belongs to another user")
        }
    }
}

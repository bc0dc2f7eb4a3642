import RulesModel

/// Model → row values of Earned's tables, each written once for the store's statements
/// (``ArgumentValues``) and the bulk writer's (``BoundValues``), with the SQL they fill.
extension EarnedRows {
    static func economy<V: RowValues>(_ e: EconomyState, into v: inout V) {
        v.add(e.currentDayID.rawValue); v.add(e.creditBalance); v.add(e.rolloverCap); v.add(e.dailyResetHourLocal); v.add(e.streakCount)
        v.add(e.streakBonusAwardedDayID?.rawValue); v.add(e.todayFocusQualified); v.add(e.todayHabitQualifiedCount); v.add(e.todayQualified)
        v.add(e.habitAwardsSuspendedUntilDayID?.rawValue); v.add(e.updatedAt); v.add(e.userID.rawValue)
    }

    static let updateEmergencySQL = """
        UPDATE emergency_state SET last_used_day_id = ?, used_count_today = ?, last_app_id_used = ?, updated_ts_utc_ms = ? WHERE user_id = ?
        """

    static func emergency<V: RowValues>(_ e: EmergencyState, into v: inout V) {
        v.add(e.lastUsedDayID?.rawValue); v.add(e.usedCountToday); v.add(e.lastAppIDUsed?.rawValue); v.add(e.updatedAt);
        v.add(e.userID.rawValue)
    }

    static let updateSettingsSQL = "UPDATE user_settings SET settings_json = ?, updated_ts_utc_ms = ? WHERE user_id = ?"
    static let updateEntitlementSQL =
        "UPDATE entitlement_state SET tier = ?, subscription_active = ?, updated_ts_utc_ms = ? WHERE user_id = ?"

    static func entitlement<V: RowValues>(_ e: EntitlementState, into v: inout V) {
        v.add(e.tier.rawValue); v.add(e.subscriptionActive); v.add(e.updatedAt); v.add(e.userID.rawValue)
    }

    static let updateFocusStateSQL = "UPDATE focus_state SET active_session_id = ?, updated_ts_utc_ms = ? WHERE user_id = ?"

    static func daySummary<V: RowValues>(_ d: DaySummary, into v: inout V) {
        v.add(d.userID.rawValue); v.add(d.dayID.rawValue); v.add(d.timezoneID); v.add(d.qualified); v.add(d.firstQualifiedAt)
        v.add(d.focusMinutesCompleted); v.add(d.creditsEarned); v.add(d.creditsSpent); v.add(d.unlockAttemptsCount)
        v.add(d.creditsUnlocksCount); v.add(d.questUnlocksCount); v.add(d.emergencyUnlocksCount); v.add(d.createdAt); v.add(d.updatedAt)
    }

    static let upsertModeSQL = """
        INSERT INTO mode(mode_id, user_id, name, priority, strictness, manual_state, manual_effective_at_ts_utc_ms,
          manual_expires_at_ts_utc_ms, created_ts_utc_ms, updated_ts_utc_ms, deleted_ts_utc_ms, sync_status)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(mode_id) DO UPDATE SET name = excluded.name, priority = excluded.priority, strictness = excluded.strictness,
          manual_state = excluded.manual_state, manual_effective_at_ts_utc_ms = excluded.manual_effective_at_ts_utc_ms,
          manual_expires_at_ts_utc_ms = excluded.manual_expires_at_ts_utc_ms, updated_ts_utc_ms = excluded.updated_ts_utc_ms,
          deleted_ts_utc_ms = excluded.deleted_ts_utc_ms, sync_status = excluded.sync_status
        """

    static func mode<V: RowValues>(_ m: Mode, into v: inout V) {
        v.add(m.modeID); v.add(m.userID.rawValue); v.add(m.name); v.add(m.priority); v.add(m.strictness.rawValue);
        v.add(m.manualState.rawValue)
        v.add(m.manualEffectiveAt); v.add(m.manualExpiresAt); v.add(m.createdAt); v.add(m.updatedAt); v.add(m.deletedAt);
        v.add(m.syncStatus.rawValue)
    }

    static let insertModeWindowSQL = """
        INSERT INTO mode_window(window_id, user_id, mode_id, days_of_week_mask, start_local_hhmm, end_local_hhmm, created_ts_utc_ms,
          updated_ts_utc_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """

    static func modeWindow<V: RowValues>(_ w: ModeWindow, into v: inout V) {
        v.add(w.windowID); v.add(w.userID.rawValue); v.add(w.modeID); v.add(w.daysOfWeekMask); v.add(w.startLocal.text);
        v.add(w.endLocal.text)
        v.add(w.createdAt); v.add(w.updatedAt)
    }

    static let insertModeBlockedAppSQL = "INSERT INTO mode_blocked_app(mode_id, app_id, user_id, created_ts_utc_ms) VALUES (?, ?, ?, ?)"
    static let insertDistractingAppSQL = "INSERT INTO distracting_app(user_id, app_id, created_ts_utc_ms) VALUES (?, ?, ?)"

    static let upsertHabitSQL = """
        INSERT INTO habit(habit_id, user_id, name, reward_credits, active, sort_order, created_ts_utc_ms, updated_ts_utc_ms,
          deleted_ts_utc_ms, sync_status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(habit_id) DO UPDATE SET name = excluded.name, reward_credits = excluded.reward_credits, active = excluded.active,
          sort_order = excluded.sort_order, updated_ts_utc_ms = excluded.updated_ts_utc_ms, deleted_ts_utc_ms = excluded.deleted_ts_utc_ms,
          sync_status = excluded.sync_status
        """

    static func habit<V: RowValues>(_ h: Habit, into v: inout V) {
        v.add(h.habitID); v.add(h.userID.rawValue); v.add(h.name); v.add(h.rewardCredits); v.add(h.active); v.add(h.sortOrder)
        v.add(h.createdAt); v.add(h.updatedAt); v.add(h.deletedAt); v.add(h.syncStatus.rawValue)
    }

    static func habitCompletion<V: RowValues>(_ c: HabitCompletion, into v: inout V) {
        v.add(c.completionID); v.add(c.userID.rawValue); v.add(c.habitID); v.add(c.timestamp); v.add(c.timezoneID); v.add(c.dayID.rawValue)
        v.add(c.awardedCredits); v.add(c.awardSuspended); v.add(c.createdAt)
    }

    static let insertFocusSessionSQL = """
        INSERT INTO focus_session(session_id, user_id, started_ts_utc_ms, ended_ts_utc_ms, timezone_id, day_id, planned_duration_minutes,
          actual_duration_minutes, completed, ended_early, strict, task_label, awarded_credits, qualifies, created_ts_utc_ms, updated_ts_utc_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static func focusSession<V: RowValues>(_ s: FocusSession, into v: inout V) {
        v.add(s.sessionID); v.add(s.userID.rawValue); v.add(s.startedAt); v.add(s.endedAt); v.add(s.timezoneID); v.add(s.dayID.rawValue)
        v.add(s.plannedDurationMinutes); v.add(s.actualDurationMinutes); v.add(s.completed); v.add(s.endedEarly); v.add(s.strict)
        v.add(s.taskLabel); v.add(s.awardedCredits); v.add(s.qualifies); v.add(s.createdAt); v.add(s.updatedAt)
    }

    static let updateFocusSessionSQL = """
        UPDATE focus_session SET ended_ts_utc_ms = ?, actual_duration_minutes = ?, completed = ?, ended_early = ?, awarded_credits = ?,
          qualifies = ?, updated_ts_utc_ms = ? WHERE session_id = ?
        """

    static let insertFocusBlockedAppSQL = "INSERT INTO focus_session_blocked_app(session_id, app_id, user_id) VALUES (?, ?, ?)"
}

extension UnlockRows {
    static let insertAttemptSQL = """
        INSERT INTO unlock_attempt(attempt_id, user_id, app_id, ts_utc_ms, timezone_id, day_id, effective_mode_id, effective_strictness,
          available_options_json, chosen_option_type, chosen_option_payload_json, outcome, denial_reason, grant_id, created_ts_utc_ms,
          updated_ts_utc_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// An attempt's row, with its options snapshot already encoded (`optionsJSON`).
    static func attempt<V: RowValues>(_ a: UnlockAttempt, optionsJSON: String, into v: inout V) throws {
        v.add(a.attemptID); v.add(a.userID.rawValue); v.add(a.appID.rawValue); v.add(a.timestamp); v.add(a.timezoneID);
        v.add(a.dayID.rawValue)
        v.add(a.effectiveModeID); v.add(a.effectiveStrictness.rawValue); v.add(optionsJSON)
        v.add(a.chosenOptionType?.rawValue); v.add(try a.chosenOptionPayload.map { try ModelJSON.encode($0) }); v.add(a.outcome.rawValue)
        v.add(a.denialReason?.rawValue); v.add(a.grantID); v.add(a.createdAt); v.add(a.updatedAt)
    }

    static let updateAttemptSQL = """
        UPDATE unlock_attempt SET chosen_option_type = ?, chosen_option_payload_json = ?, outcome = ?, denial_reason = ?,
          grant_id = ?, updated_ts_utc_ms = ? WHERE attempt_id = ?
        """

    static let insertGrantSQL = """
        INSERT INTO unlock_grant(grant_id, user_id, app_id, created_ts_utc_ms, created_day_id, starts_ts_utc_ms, ends_ts_utc_ms, method,
          source_mode_id, source_attempt_id, metadata_json, revoked_ts_utc_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static func grant<V: RowValues>(_ g: UnlockGrant, into v: inout V) throws {
        v.add(g.grantID); v.add(g.userID.rawValue); v.add(g.appID.rawValue); v.add(g.createdAt); v.add(g.createdDayID.rawValue)
        v.add(g.startsAt); v.add(g.endsAt); v.add(g.method.rawValue); v.add(g.sourceModeID); v.add(g.sourceAttemptID)
        v.add(try ModelJSON.encode(g.metadata)); v.add(g.revokedAt)
    }

    static let upsertCurrentGrantSQL = """
        INSERT INTO unlock_grant_current(user_id, app_id, grant_id, updated_ts_utc_ms) VALUES (?, ?, ?, ?)
        ON CONFLICT(user_id, app_id) DO UPDATE SET grant_id = excluded.grant_id, updated_ts_utc_ms = excluded.updated_ts_utc_ms
        """

    static let insertExtensionSQL = """
        INSERT INTO unlock_grant_extension(extension_id, user_id, grant_id, ts_utc_ms, added_minutes, new_ends_ts_utc_ms, method, metadata_json)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """

    static func grantExtension<V: RowValues>(_ e: UnlockGrantExtension, into v: inout V) throws {
        v.add(e.extensionID); v.add(e.userID.rawValue); v.add(e.grantID); v.add(e.timestamp); v.add(e.addedMinutes); v.add(e.newEndsAt)
        v.add(e.method.rawValue); v.add(try ModelJSON.encode(e.metadata))
    }

    static let insertQuestSQL = """
        INSERT INTO quest_session(quest_session_id, user_id, attempt_id, quest_type, created_ts_utc_ms, expires_ts_utc_ms, state,
          metadata_json, updated_ts_utc_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static func quest<V: RowValues>(_ q: QuestSession, into v: inout V) throws {
        v.add(q.questSessionID); v.add(q.userID.rawValue); v.add(q.attemptID); v.add(q.questType.rawValue); v.add(q.createdAt)
        v.add(q.expiresAt); v.add(q.state.rawValue); v.add(try ModelJSON.encode(q.metadata)); v.add(q.updatedAt)
    }

    static let upsertDailyAppLimitsSQL = """
        INSERT INTO daily_app_limits(user_id, day_id, app_id, quest_grants_count, last_quest_grant_start_ts_utc_ms) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT(user_id, day_id, app_id) DO UPDATE SET quest_grants_count = excluded.quest_grants_count,
          last_quest_grant_start_ts_utc_ms = excluded.last_quest_grant_start_ts_utc_ms
        """

    static func dailyAppLimits<V: RowValues>(_ l: DailyAppLimits, into v: inout V) {
        v.add(l.userID.rawValue); v.add(l.dayID.rawValue); v.add(l.appID.rawValue); v.add(l.questGrantsCount);
        v.add(l.lastQuestGrantStartAt)
    }

    static func event<V: RowValues>(_ e: EventLogEntry, payloadJSON: String, into v: inout V) {
        v.add(e.eventID); v.add(e.userID.rawValue); v.add(e.timestamp); v.add(e.timezoneID); v.add(e.dayID.rawValue); v.add(e.type.rawValue)
        v.add(payloadJSON); v.add(e.createdAt); v.add(e.syncStatus.rawValue)
    }
}

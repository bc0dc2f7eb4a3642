import GRDB
import RulesModel

/// Row ⇄ model conversions of Earned's state tables.
package enum EarnedRows {
    static func economy(_ row: Row) throws -> EconomyState {
        let r = RowReader(row, "economy_state")
        return EconomyState(
            userID: try r.user(), currentDayID: try r.day("current_day_id"), creditBalance: try r.int("credit_balance"),
            rolloverCap: try r.int("rollover_cap"), dailyResetHourLocal: try r.int("daily_reset_hour_local"),
            streakCount: try r.int("streak_count"), streakBonusAwardedDayID: try r.optionalDay("streak_bonus_awarded_day_id"),
            todayFocusQualified: try r.bool("today_focus_qualified"),
            todayHabitQualifiedCount: try r.int("today_habit_qualified_count"), todayQualified: try r.bool("today_qualified"),
            habitAwardsSuspendedUntilDayID: try r.optionalDay("habit_awards_suspended_until_day_id"),
            updatedAt: try r.int64("updated_ts_utc_ms"))
    }

    package static let updateEconomySQL = """
        UPDATE economy_state SET current_day_id = ?, credit_balance = ?, rollover_cap = ?, daily_reset_hour_local = ?,
          streak_count = ?, streak_bonus_awarded_day_id = ?, today_focus_qualified = ?, today_habit_qualified_count = ?,
          today_qualified = ?, habit_awards_suspended_until_day_id = ?, updated_ts_utc_ms = ? WHERE user_id = ?
        """

    package static func economyArguments(_ e: EconomyState) -> StatementArguments { ArgumentValues.of { economy(e, into: &$0) } }

    static func emergency(_ row: Row) throws -> EmergencyState {
        let r = RowReader(row, "emergency_state")
        return EmergencyState(
            userID: try r.user(), lastUsedDayID: try r.optionalDay("last_used_day_id"),
            usedCountToday: try r.int("used_count_today"), lastAppIDUsed: try r.optionalAppID("last_app_id_used"),
            updatedAt: try r.int64("updated_ts_utc_ms"))
    }

    static func entitlement(_ row: Row) throws -> EntitlementState {
        let r = RowReader(row, "entitlement_state")
        return EntitlementState(
            userID: try r.user(), tier: try r.enumValue("tier"), subscriptionActive: try r.bool("subscription_active"),
            updatedAt: try r.int64("updated_ts_utc_ms"))
    }

    static func userSettings(_ row: Row) throws -> EarnedUserSettings {
        let r = RowReader(row, "user_settings")
        return EarnedUserSettings(
            userID: try r.user(), settings: try r.json("settings_json"), updatedAt: try r.int64("updated_ts_utc_ms"),
            syncStatus: try r.enumValue("sync_status"))
    }

    static func focusState(_ row: Row) throws -> FocusState {
        let r = RowReader(row, "focus_state")
        return FocusState(
            userID: try r.user(), activeSessionID: try r.optional("active_session_id"), updatedAt: try r.int64("updated_ts_utc_ms"))
    }

    static func daySummary(_ row: Row) throws -> DaySummary {
        let r = RowReader(row, "day_summary")
        return DaySummary(
            userID: try r.user(), dayID: try r.day("day_id"), timezoneID: try r.string("timezone_id"),
            qualified: try r.bool("qualified"), firstQualifiedAt: try r.optional("first_qualified_ts_utc_ms"),
            focusMinutesCompleted: try r.int("focus_minutes_completed"), creditsEarned: try r.int("credits_earned"),
            creditsSpent: try r.int("credits_spent"), unlockAttemptsCount: try r.int("unlock_attempts_count"),
            creditsUnlocksCount: try r.int("credits_unlocks_count"), questUnlocksCount: try r.int("quest_unlocks_count"),
            emergencyUnlocksCount: try r.int("emergency_unlocks_count"), createdAt: try r.int64("created_ts_utc_ms"),
            updatedAt: try r.int64("updated_ts_utc_ms"))
    }

    package static let insertDaySummarySQL = """
        INSERT INTO day_summary(user_id, day_id, timezone_id, qualified, first_qualified_ts_utc_ms, focus_minutes_completed,
          credits_earned, credits_spent, unlock_attempts_count, credits_unlocks_count, quest_unlocks_count, emergency_unlocks_count,
          created_ts_utc_ms, updated_ts_utc_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(user_id, day_id) DO UPDATE SET timezone_id = excluded.timezone_id, qualified = excluded.qualified,
          first_qualified_ts_utc_ms = excluded.first_qualified_ts_utc_ms, focus_minutes_completed = excluded.focus_minutes_completed,
          credits_earned = excluded.credits_earned, credits_spent = excluded.credits_spent,
          unlock_attempts_count = excluded.unlock_attempts_count, credits_unlocks_count = excluded.credits_unlocks_count,
          quest_unlocks_count = excluded.quest_unlocks_count, emergency_unlocks_count = excluded.emergency_unlocks_count,
          updated_ts_utc_ms = excluded.updated_ts_utc_ms
        """

    package static func daySummaryArguments(_ d: DaySummary) -> StatementArguments { ArgumentValues.of { daySummary(d, into: &$0) } }

    static func mode(_ row: Row) throws -> Mode {
        let r = RowReader(row, "mode")
        return Mode(
            userID: try r.user(), modeID: try r.string("mode_id"), name: try r.string("name"), priority: try r.int("priority"),
            strictness: try r.enumValue("strictness"), manualState: try r.enumValue("manual_state"),
            manualEffectiveAt: try r.optional("manual_effective_at_ts_utc_ms"),
            manualExpiresAt: try r.optional("manual_expires_at_ts_utc_ms"),
            createdAt: try r.int64("created_ts_utc_ms"), updatedAt: try r.int64("updated_ts_utc_ms"),
            deletedAt: try r.optional("deleted_ts_utc_ms"), syncStatus: try r.enumValue("sync_status"))
    }

    static func modeWindow(_ row: Row) throws -> ModeWindow {
        let r = RowReader(row, "mode_window")
        return ModeWindow(
            userID: try r.user(), windowID: try r.string("window_id"), modeID: try r.string("mode_id"),
            daysOfWeekMask: try r.int("days_of_week_mask"), startLocal: try r.time("start_local_hhmm"),
            endLocal: try r.time("end_local_hhmm"), createdAt: try r.int64("created_ts_utc_ms"), updatedAt: try r.int64("updated_ts_utc_ms")
        )
    }

    static func habit(_ row: Row) throws -> Habit {
        let r = RowReader(row, "habit")
        return Habit(
            userID: try r.user(), habitID: try r.string("habit_id"), name: try r.string("name"), rewardCredits: try r.int("reward_credits"),
            active: try r.bool("active"), sortOrder: try r.int("sort_order"), createdAt: try r.int64("created_ts_utc_ms"),
            updatedAt: try r.int64("updated_ts_utc_ms"), deletedAt: try r.optional("deleted_ts_utc_ms"),
            syncStatus: try r.enumValue("sync_status"))
    }

    static func habitCompletion(_ row: Row) throws -> HabitCompletion {
        let r = RowReader(row, "habit_completion")
        return HabitCompletion(
            userID: try r.user(), completionID: try r.string("completion_id"), habitID: try r.string("habit_id"),
            timestamp: try r.int64("ts_utc_ms"), timezoneID: try r.string("timezone_id"), dayID: try r.day("day_id"),
            awardedCredits: try r.int("awarded_credits"), awardSuspended: try r.bool("award_suspended"),
            createdAt: try r.int64("created_ts_utc_ms"))
    }

    static let insertHabitCompletionSQL = """
        INSERT INTO habit_completion(completion_id, user_id, habit_id, ts_utc_ms, timezone_id, day_id, awarded_credits, award_suspended,
          created_ts_utc_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static func habitCompletionArguments(_ c: HabitCompletion) -> StatementArguments { ArgumentValues.of { habitCompletion(c, into: &$0) } }

    static func focusSession(_ row: Row) throws -> FocusSession {
        let r = RowReader(row, "focus_session")
        return FocusSession(
            userID: try r.user(), sessionID: try r.string("session_id"), startedAt: try r.int64("started_ts_utc_ms"),
            endedAt: try r.optional("ended_ts_utc_ms"), timezoneID: try r.string("timezone_id"), dayID: try r.day("day_id"),
            plannedDurationMinutes: try r.int("planned_duration_minutes"), actualDurationMinutes: try r.optional("actual_duration_minutes"),
            completed: try r.bool("completed"), endedEarly: try r.bool("ended_early"), strict: try r.bool("strict"),
            taskLabel: try r.optional("task_label"), awardedCredits: try r.int("awarded_credits"), qualifies: try r.bool("qualifies"),
            createdAt: try r.int64("created_ts_utc_ms"), updatedAt: try r.int64("updated_ts_utc_ms"))
    }
}

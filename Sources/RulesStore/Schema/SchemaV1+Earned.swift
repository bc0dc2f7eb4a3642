extension SchemaV1 {
    static let earnedState = """
        CREATE TABLE entitlement_state (
          user_id INTEGER PRIMARY KEY REFERENCES app_user(user_id),
          tier TEXT NOT NULL DEFAULT 'FREE' CHECK (\(oneOf("tier", "FREE", "PLUS", "PRO"))),
          subscription_active INTEGER NOT NULL DEFAULT 0 CHECK (subscription_active IN (0,1)),
          updated_ts_utc_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE user_settings (
          user_id INTEGER PRIMARY KEY REFERENCES app_user(user_id),
          settings_json TEXT NOT NULL CHECK (json_valid(settings_json)),
          updated_ts_utc_ms INTEGER NOT NULL,
          sync_status TEXT NOT NULL DEFAULT 'LOCAL_ONLY' CHECK (\(oneOf("sync_status", "LOCAL_ONLY", "PENDING", "SYNCED", "FAILED")))
        ) STRICT;

        CREATE TABLE economy_state (
          user_id INTEGER PRIMARY KEY REFERENCES app_user(user_id),
          current_day_id TEXT NOT NULL CHECK (\(day("current_day_id"))),
          credit_balance INTEGER NOT NULL DEFAULT 0 CHECK (credit_balance >= 0),
          rollover_cap INTEGER NOT NULL DEFAULT 10 CHECK (rollover_cap >= 0),
          daily_reset_hour_local INTEGER NOT NULL DEFAULT 4 CHECK (daily_reset_hour_local BETWEEN 0 AND 23),
          streak_count INTEGER NOT NULL DEFAULT 0 CHECK (streak_count >= 0),
          streak_bonus_awarded_day_id TEXT CHECK (streak_bonus_awarded_day_id IS NULL OR \(day("streak_bonus_awarded_day_id"))),
          today_focus_qualified INTEGER NOT NULL DEFAULT 0 CHECK (today_focus_qualified IN (0,1)),
          today_habit_qualified_count INTEGER NOT NULL DEFAULT 0 CHECK (today_habit_qualified_count >= 0),
          today_qualified INTEGER NOT NULL DEFAULT 0 CHECK (today_qualified IN (0,1)),
          habit_awards_suspended_until_day_id TEXT
            CHECK (habit_awards_suspended_until_day_id IS NULL OR \(day("habit_awards_suspended_until_day_id"))),
          updated_ts_utc_ms INTEGER NOT NULL,
          CHECK (today_focus_qualified = 0 OR today_qualified = 1)
        ) STRICT;

        CREATE TABLE emergency_state (
          user_id INTEGER PRIMARY KEY REFERENCES app_user(user_id),
          last_used_day_id TEXT CHECK (last_used_day_id IS NULL OR \(day("last_used_day_id"))),
          used_count_today INTEGER NOT NULL DEFAULT 0 CHECK (used_count_today >= 0),
          last_app_id_used TEXT,
          updated_ts_utc_ms INTEGER NOT NULL,
          CHECK (used_count_today = 0 OR (last_used_day_id IS NOT NULL AND last_app_id_used IS NOT NULL))
        ) STRICT;

        CREATE TABLE app_info (
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          app_id TEXT NOT NULL,
          platform TEXT NOT NULL CHECK (platform IN ('ios','android')),
          display_name TEXT,
          user_alias TEXT,
          icon_uri TEXT,
          created_ts_utc_ms INTEGER NOT NULL,
          updated_ts_utc_ms INTEGER NOT NULL,
          PRIMARY KEY (user_id, app_id)
        ) STRICT;
        CREATE INDEX idx_app_info_platform ON app_info(user_id, platform);

        CREATE TABLE distracting_app (
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          app_id TEXT NOT NULL,
          created_ts_utc_ms INTEGER NOT NULL,
          PRIMARY KEY (user_id, app_id)
        ) STRICT;

        CREATE TABLE day_summary (
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          day_id TEXT NOT NULL CHECK (\(day("day_id"))),
          timezone_id TEXT NOT NULL,
          qualified INTEGER NOT NULL DEFAULT 0 CHECK (qualified IN (0,1)),
          first_qualified_ts_utc_ms INTEGER,
          focus_minutes_completed INTEGER NOT NULL DEFAULT 0 CHECK (focus_minutes_completed >= 0),
          credits_earned INTEGER NOT NULL DEFAULT 0 CHECK (credits_earned >= 0),
          credits_spent INTEGER NOT NULL DEFAULT 0 CHECK (credits_spent >= 0),
          unlock_attempts_count INTEGER NOT NULL DEFAULT 0 CHECK (unlock_attempts_count >= 0),
          credits_unlocks_count INTEGER NOT NULL DEFAULT 0 CHECK (credits_unlocks_count >= 0),
          quest_unlocks_count INTEGER NOT NULL DEFAULT 0 CHECK (quest_unlocks_count >= 0),
          emergency_unlocks_count INTEGER NOT NULL DEFAULT 0 CHECK (emergency_unlocks_count >= 0),
          created_ts_utc_ms INTEGER NOT NULL,
          updated_ts_utc_ms INTEGER NOT NULL,
          PRIMARY KEY (user_id, day_id),
          CHECK (qualified = (first_qualified_ts_utc_ms IS NOT NULL))
        ) STRICT;
        """

    static let earnedModesAndHabits = """
        CREATE TABLE mode (
          mode_id TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
          priority INTEGER NOT NULL DEFAULT 0,
          strictness TEXT NOT NULL CHECK (\(oneOf("strictness", "GENTLE", "STRICT", "HARD"))),
          manual_state TEXT NOT NULL DEFAULT 'AUTO' CHECK (\(oneOf("manual_state", "AUTO", "FORCED_ON", "FORCED_OFF"))),
          manual_effective_at_ts_utc_ms INTEGER,
          manual_expires_at_ts_utc_ms INTEGER,
          created_ts_utc_ms INTEGER NOT NULL,
          updated_ts_utc_ms INTEGER NOT NULL,
          deleted_ts_utc_ms INTEGER,
          sync_status TEXT NOT NULL DEFAULT 'LOCAL_ONLY' CHECK (\(oneOf("sync_status", "LOCAL_ONLY", "PENDING", "SYNCED", "FAILED")))
        ) STRICT;
        CREATE INDEX idx_mode_user ON mode(user_id);
        CREATE INDEX idx_mode_updated ON mode(updated_ts_utc_ms);
        CREATE INDEX idx_mode_deleted ON mode(deleted_ts_utc_ms);

        CREATE TABLE mode_window (
          window_id TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          mode_id TEXT NOT NULL,
          days_of_week_mask INTEGER NOT NULL CHECK (days_of_week_mask BETWEEN 0 AND 127),
          start_local_hhmm TEXT NOT NULL CHECK (start_local_hhmm GLOB '[0-2][0-9]:[0-5][0-9]' AND start_local_hhmm <= '23:59'),
          end_local_hhmm TEXT NOT NULL CHECK (end_local_hhmm GLOB '[0-2][0-9]:[0-5][0-9]' AND end_local_hhmm <= '23:59'),
          created_ts_utc_ms INTEGER NOT NULL,
          updated_ts_utc_ms INTEGER NOT NULL,
          FOREIGN KEY (mode_id) REFERENCES mode(mode_id) ON DELETE CASCADE
        ) STRICT;
        CREATE INDEX idx_mode_window_mode ON mode_window(mode_id);

        CREATE TABLE mode_blocked_app (
          mode_id TEXT NOT NULL,
          app_id TEXT NOT NULL,
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          created_ts_utc_ms INTEGER NOT NULL,
          PRIMARY KEY (mode_id, app_id),
          FOREIGN KEY (mode_id) REFERENCES mode(mode_id) ON DELETE CASCADE
        ) STRICT;
        CREATE INDEX idx_mode_blocked_app_app ON mode_blocked_app(user_id, app_id);

        CREATE TABLE habit (
          habit_id TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
          reward_credits INTEGER NOT NULL DEFAULT 5 CHECK (reward_credits BETWEEN 0 AND 100),
          active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0,1)),
          sort_order INTEGER NOT NULL DEFAULT 0,
          created_ts_utc_ms INTEGER NOT NULL,
          updated_ts_utc_ms INTEGER NOT NULL,
          deleted_ts_utc_ms INTEGER,
          sync_status TEXT NOT NULL DEFAULT 'LOCAL_ONLY' CHECK (\(oneOf("sync_status", "LOCAL_ONLY", "PENDING", "SYNCED", "FAILED")))
        ) STRICT;
        CREATE INDEX idx_habit_user ON habit(user_id);
        CREATE INDEX idx_habit_updated ON habit(updated_ts_utc_ms);

        CREATE TABLE habit_completion (
          completion_id TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          habit_id TEXT NOT NULL,
          ts_utc_ms INTEGER NOT NULL,
          timezone_id TEXT NOT NULL,
          day_id TEXT NOT NULL CHECK (\(day("day_id"))),
          awarded_credits INTEGER NOT NULL DEFAULT 0 CHECK (awarded_credits BETWEEN 0 AND 100),
          award_suspended INTEGER NOT NULL DEFAULT 0 CHECK (award_suspended IN (0,1)),
          created_ts_utc_ms INTEGER NOT NULL,
          FOREIGN KEY (habit_id) REFERENCES habit(habit_id) ON DELETE RESTRICT,
          CHECK (award_suspended = 0 OR awarded_credits = 0)
        ) STRICT;
        CREATE UNIQUE INDEX uq_habit_completion_per_day ON habit_completion(habit_id, day_id);
        CREATE INDEX idx_habit_completion_day ON habit_completion(user_id, day_id);
        CREATE INDEX idx_habit_completion_ts ON habit_completion(ts_utc_ms);

        CREATE TABLE focus_session (
          session_id TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          started_ts_utc_ms INTEGER NOT NULL,
          ended_ts_utc_ms INTEGER CHECK (ended_ts_utc_ms IS NULL OR ended_ts_utc_ms >= started_ts_utc_ms),
          timezone_id TEXT NOT NULL,
          day_id TEXT NOT NULL CHECK (\(day("day_id"))),
          planned_duration_minutes INTEGER NOT NULL CHECK (planned_duration_minutes > 0),
          actual_duration_minutes INTEGER CHECK (actual_duration_minutes IS NULL OR actual_duration_minutes >= 0),
          completed INTEGER NOT NULL DEFAULT 0 CHECK (completed IN (0,1)),
          ended_early INTEGER NOT NULL DEFAULT 0 CHECK (ended_early IN (0,1)),
          strict INTEGER NOT NULL DEFAULT 1 CHECK (strict IN (0,1)),
          task_label TEXT,
          awarded_credits INTEGER NOT NULL DEFAULT 0 CHECK (awarded_credits >= 0),
          qualifies INTEGER NOT NULL DEFAULT 0 CHECK (qualifies IN (0,1)),
          created_ts_utc_ms INTEGER NOT NULL,
          updated_ts_utc_ms INTEGER NOT NULL,
          CHECK (NOT (completed = 1 AND ended_early = 1))
        ) STRICT;
        CREATE INDEX idx_focus_session_day ON focus_session(user_id, day_id);
        CREATE INDEX idx_focus_session_started ON focus_session(started_ts_utc_ms);

        CREATE TABLE focus_session_blocked_app (
          session_id TEXT NOT NULL,
          app_id TEXT NOT NULL,
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          PRIMARY KEY (session_id, app_id),
          FOREIGN KEY (session_id) REFERENCES focus_session(session_id) ON DELETE CASCADE
        ) STRICT;

        CREATE TABLE focus_state (
          user_id INTEGER PRIMARY KEY REFERENCES app_user(user_id),
          active_session_id TEXT,
          updated_ts_utc_ms INTEGER NOT NULL,
          FOREIGN KEY (active_session_id) REFERENCES focus_session(session_id) ON DELETE SET NULL
        ) STRICT;
        """
}

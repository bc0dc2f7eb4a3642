extension SchemaV1 {
    /// A CHECK that a column holds a 16-byte UUID.
    static func uuid(_ column: String) -> String { "length(\(column)) = 16" }

    static let pressure = """
        CREATE TABLE pressure_settings (
          user_id INTEGER PRIMARY KEY REFERENCES app_user(user_id),
          personality_mode TEXT NOT NULL DEFAULT 'PROFESSIONAL' CHECK (personality_mode IN ('PROFESSIONAL','BRUTAL')),
          commitment_deadline TEXT NOT NULL DEFAULT '09:00'
            CHECK (commitment_deadline BETWEEN '06:00' AND '12:00' AND commitment_deadline GLOB '[01][0-9]:[03]0'),
          checkin_window_close TEXT NOT NULL DEFAULT '22:00'
            CHECK (checkin_window_close BETWEEN '18:00' AND '23:59'
                   AND (checkin_window_close GLOB '[12][0-9]:[03]0' OR checkin_window_close = '23:59')),
          timezone_identifier TEXT NOT NULL CHECK (length(timezone_identifier) BETWEEN 1 AND 64),
          notifications_enabled INTEGER NOT NULL DEFAULT 0 CHECK (notifications_enabled IN (0,1)),
          onboarding_completed INTEGER NOT NULL DEFAULT 0 CHECK (onboarding_completed IN (0,1)),
          subscription_tier TEXT NOT NULL DEFAULT 'FREE' CHECK (subscription_tier IN ('FREE','PAID')),
          subscription_expiry_ts_utc_ms INTEGER,
          updated_ts_utc_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE pressure_escalation_state (
          user_id INTEGER PRIMARY KEY REFERENCES app_user(user_id),
          current_tier INTEGER NOT NULL DEFAULT 0 CHECK (current_tier BETWEEN 0 AND 3),
          consecutive_misses INTEGER NOT NULL DEFAULT 0 CHECK (consecutive_misses >= 0),
          consecutive_successes INTEGER NOT NULL DEFAULT 0 CHECK (consecutive_successes >= 0),
          current_streak INTEGER NOT NULL DEFAULT 0 CHECK (current_streak >= 0),
          longest_streak INTEGER NOT NULL DEFAULT 0 CHECK (longest_streak >= current_streak),
          restart_shields_remaining INTEGER NOT NULL DEFAULT 0 CHECK (restart_shields_remaining BETWEEN 0 AND 1),
          shield_reset_day_id TEXT CHECK (shield_reset_day_id IS NULL OR \(day("shield_reset_day_id"))),
          updated_ts_utc_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE pressure_commitment (
          commitment_id BLOB PRIMARY KEY CHECK (\(uuid("commitment_id"))),
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          day_id TEXT NOT NULL CHECK (\(day("day_id"))),
          text TEXT NOT NULL CHECK (length(text) <= 2800),
          locked_at_ts_utc_ms INTEGER,
          status TEXT NOT NULL DEFAULT 'PENDING' CHECK (\(oneOf("status", "PENDING", "YES", "NO", "MISSED"))),
          checked_in_at_ts_utc_ms INTEGER,
          escalation_tier_snap INTEGER CHECK (escalation_tier_snap BETWEEN 0 AND 3),
          shield_used INTEGER NOT NULL DEFAULT 0 CHECK (shield_used IN (0,1)),
          CHECK (text <> '' OR status = 'MISSED'),
          CHECK ((status IN ('YES','NO')) = (checked_in_at_ts_utc_ms IS NOT NULL)),
          CHECK (status = 'PENDING' OR locked_at_ts_utc_ms IS NOT NULL)
        ) STRICT, WITHOUT ROWID;
        CREATE UNIQUE INDEX uq_pressure_commitment_day ON pressure_commitment(user_id, day_id);

        -- One way only: PENDING -> YES | NO | MISSED, then never again; text is frozen once locked.
        CREATE TRIGGER pressure_commitment_status_one_way BEFORE UPDATE OF status ON pressure_commitment
        WHEN OLD.status <> 'PENDING' AND NEW.status IS NOT OLD.status
        BEGIN SELECT RAISE(ABORT, 'Commitment.status: a final status cannot change'); END;
        CREATE TRIGGER pressure_commitment_text_locked BEFORE UPDATE OF text ON pressure_commitment
        WHEN OLD.locked_at_ts_utc_ms IS NOT NULL AND NEW.text IS NOT OLD.text
        BEGIN SELECT RAISE(ABORT, 'Commitment.text: a locked commitment cannot change'); END;

        CREATE TABLE pressure_notification (
          notification_id BLOB PRIMARY KEY CHECK (\(uuid("notification_id"))),
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          scheduled_for_ts_utc_ms INTEGER NOT NULL,
          tier INTEGER NOT NULL CHECK (tier BETWEEN 0 AND 3),
          personality TEXT NOT NULL CHECK (personality IN ('PROFESSIONAL','BRUTAL')),
          delivered INTEGER NOT NULL DEFAULT 0 CHECK (delivered IN (0,1)),
          tapped INTEGER NOT NULL DEFAULT 0 CHECK (tapped IN (0,1)),
          CHECK (tapped = 0 OR delivered = 1)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX idx_pressure_notification_user ON pressure_notification(user_id, scheduled_for_ts_utc_ms);
        """

    static let habitTracker = """
        CREATE TABLE tracker_settings (
          user_id INTEGER PRIMARY KEY REFERENCES app_user(user_id),
          has_completed_onboarding INTEGER NOT NULL DEFAULT 0 CHECK (has_completed_onboarding IN (0,1)),
          created_ts_utc_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE tracker_category (
          category_id BLOB PRIMARY KEY CHECK (\(uuid("category_id"))),
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 50),
          is_preset INTEGER NOT NULL DEFAULT 0 CHECK (is_preset IN (0,1)),
          sort_order INTEGER NOT NULL DEFAULT 0 CHECK (sort_order >= 0),
          created_ts_utc_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX idx_tracker_category_user ON tracker_category(user_id);
        CREATE TRIGGER tracker_category_preset_kept BEFORE DELETE ON tracker_category WHEN OLD.is_preset = 1
        BEGIN SELECT RAISE(ABORT, 'Category: a preset category cannot be deleted'); END;

        -- task_key is an internal integer key so that completions stay small; task_id is the model's UUID.
        CREATE TABLE tracker_task (
          task_key INTEGER PRIMARY KEY,
          task_id BLOB NOT NULL UNIQUE CHECK (\(uuid("task_id"))),
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          category_id BLOB REFERENCES tracker_category(category_id) ON DELETE SET NULL,
          title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 100),
          icon_name TEXT,
          is_preset INTEGER NOT NULL DEFAULT 0 CHECK (is_preset IN (0,1)),
          preset_identifier TEXT,
          measurement_duration TEXT NOT NULL DEFAULT 'daily' CHECK (\(oneOf("measurement_duration", "daily", "weekly", "monthly"))),
          goal_type TEXT NOT NULL DEFAULT 'none'
            CHECK (\(oneOf("goal_type", "none", "repetitions", "time", "cups", "calories", "distance", "weight", "capacity"))),
          goal_value REAL CHECK (goal_value IS NULL OR goal_value > 0),
          goal_unit TEXT,
          frequency_type TEXT NOT NULL DEFAULT 'daily' CHECK (frequency_type IN ('daily','specificDays')),
          times_per_day INTEGER NOT NULL DEFAULT 1 CHECK (times_per_day BETWEEN 1 AND 100),
          scheduled_days TEXT NOT NULL DEFAULT '[1,2,3,4,5,6,7]' CHECK (json_valid(scheduled_days) AND json_type(scheduled_days) = 'array'),
          notification_enabled INTEGER NOT NULL DEFAULT 0 CHECK (notification_enabled IN (0,1)),
          notification_time TEXT CHECK (notification_time IS NULL OR notification_time GLOB '[0-2][0-9]:[0-5][0-9]'),
          color_token TEXT NOT NULL DEFAULT 'blue',
          sort_order INTEGER NOT NULL DEFAULT 0 CHECK (sort_order >= 0),
          created_ts_utc_ms INTEGER NOT NULL,
          updated_ts_utc_ms INTEGER NOT NULL CHECK (updated_ts_utc_ms >= created_ts_utc_ms),
          CHECK (goal_type <> 'none' OR (goal_value IS NULL AND goal_unit IS NULL)),
          CHECK (is_preset = (preset_identifier IS NOT NULL)),
          CHECK (notification_enabled = (notification_time IS NOT NULL))
        ) STRICT;
        CREATE INDEX idx_tracker_task_user ON tracker_task(user_id);
        CREATE INDEX idx_tracker_task_category ON tracker_task(category_id);

        CREATE TABLE tracker_completion (
          completion_id INTEGER PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          task_key INTEGER NOT NULL REFERENCES tracker_task(task_key) ON DELETE CASCADE,
          completed_at_ts_utc_ms INTEGER NOT NULL CHECK (completed_at_ts_utc_ms >= 0),
          value REAL CHECK (value IS NULL OR value >= 0)
        ) STRICT;
        CREATE INDEX idx_tracker_completion_task ON tracker_completion(task_key, completed_at_ts_utc_ms);
        """

    static let miga = """
        CREATE TABLE miga_settings (
          user_id INTEGER PRIMARY KEY REFERENCES app_user(user_id),
          fre_phase TEXT NOT NULL DEFAULT 'notStarted' CHECK (\(oneOf("fre_phase", "notStarted", "phase1Complete", "phase2Complete"))),
          has_completed_onboarding INTEGER NOT NULL DEFAULT 0 CHECK (has_completed_onboarding IN (0,1)),
          gateway_timer_duration REAL NOT NULL DEFAULT 30.0 CHECK (gateway_timer_duration BETWEEN 15.0 AND 45.0),
          determination_level INTEGER NOT NULL DEFAULT 5 CHECK (determination_level BETWEEN 1 AND 10),
          selected_interest_tags TEXT NOT NULL DEFAULT '[]'
            CHECK (json_valid(selected_interest_tags) AND json_type(selected_interest_tags) = 'array'),
          updated_ts_utc_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE miga_selected_app (
          app_uuid BLOB PRIMARY KEY CHECK (\(uuid("app_uuid"))),
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          app_name TEXT NOT NULL CHECK (length(app_name) BETWEEN 1 AND 100),
          url_scheme TEXT NOT NULL CHECK (length(url_scheme) BETWEEN 2 AND 200),
          icon_name TEXT NOT NULL CHECK (length(icon_name) BETWEEN 1 AND 100),
          is_installed INTEGER NOT NULL DEFAULT 1 CHECK (is_installed IN (0,1)),
          date_added_ts_utc_ms INTEGER NOT NULL,
          order_index INTEGER NOT NULL CHECK (order_index >= 0)
        ) STRICT;
        CREATE INDEX idx_miga_selected_app_user ON miga_selected_app(user_id, order_index);

        CREATE TABLE miga_usage_event (
          event_uuid BLOB PRIMARY KEY CHECK (\(uuid("event_uuid"))),
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          event_type TEXT NOT NULL CHECK (\(oneOf("event_type", "exit_to_focus", "deepen_pause", "proceed_to_app"))),
          ts_utc_ms INTEGER NOT NULL CHECK (ts_utc_ms >= 0),
          target_app_name TEXT NOT NULL,
          pause_duration REAL NOT NULL,
          timer_duration REAL NOT NULL CHECK (timer_duration BETWEEN 15.0 AND 45.0),
          CHECK (pause_duration >= 0 AND pause_duration <= timer_duration),
          CHECK (event_type <> 'proceed_to_app' OR length(target_app_name) > 0)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX idx_miga_usage_event_ts ON miga_usage_event(user_id, ts_utc_ms);
        CREATE INDEX idx_miga_usage_event_type ON miga_usage_event(user_id, event_type, ts_utc_ms);
        """
}

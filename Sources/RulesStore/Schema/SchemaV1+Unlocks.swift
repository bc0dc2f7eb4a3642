extension SchemaV1 {
    static let earnedUnlocks = """
        CREATE TABLE unlock_attempt (
          attempt_id TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          app_id TEXT NOT NULL,
          ts_utc_ms INTEGER NOT NULL,
          timezone_id TEXT NOT NULL,
          day_id TEXT NOT NULL CHECK (\(day("day_id"))),
          effective_mode_id TEXT,
          effective_strictness TEXT NOT NULL CHECK (\(oneOf("effective_strictness", "GENTLE", "STRICT", "HARD"))),
          available_options_json TEXT NOT NULL CHECK (json_valid(available_options_json)),
          chosen_option_type TEXT CHECK (\(oneOf("chosen_option_type", "CREDITS_UNLOCK", "QUEST_UNLOCK", "EMERGENCY_UNLOCK"))),
          chosen_option_payload_json TEXT CHECK (chosen_option_payload_json IS NULL OR json_valid(chosen_option_payload_json)),
          outcome TEXT NOT NULL DEFAULT 'PENDING' CHECK (\(oneOf("outcome", "PENDING", "GRANTED", "DENIED", "CANCELLED", "EXPIRED"))),
          denial_reason TEXT,
          grant_id TEXT,
          created_ts_utc_ms INTEGER NOT NULL,
          updated_ts_utc_ms INTEGER NOT NULL,
          FOREIGN KEY (effective_mode_id) REFERENCES mode(mode_id) ON DELETE SET NULL,
          CHECK (outcome <> 'GRANTED' OR grant_id IS NOT NULL),
          CHECK ((outcome = 'DENIED') = (denial_reason IS NOT NULL))
        ) STRICT;
        CREATE INDEX idx_unlock_attempt_day ON unlock_attempt(user_id, day_id);
        CREATE INDEX idx_unlock_attempt_app ON unlock_attempt(user_id, app_id);
        CREATE INDEX idx_unlock_attempt_ts ON unlock_attempt(ts_utc_ms);

        CREATE TABLE unlock_grant (
          grant_id TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          app_id TEXT NOT NULL,
          created_ts_utc_ms INTEGER NOT NULL,
          created_day_id TEXT NOT NULL CHECK (\(day("created_day_id"))),
          starts_ts_utc_ms INTEGER NOT NULL,
          ends_ts_utc_ms INTEGER NOT NULL CHECK (ends_ts_utc_ms > starts_ts_utc_ms),
          method TEXT NOT NULL CHECK (\(oneOf("method", "CREDITS", "QUEST", "EMERGENCY"))),
          source_mode_id TEXT,
          source_attempt_id TEXT NOT NULL,
          metadata_json TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata_json)),
          revoked_ts_utc_ms INTEGER,
          FOREIGN KEY (source_mode_id) REFERENCES mode(mode_id) ON DELETE SET NULL,
          FOREIGN KEY (source_attempt_id) REFERENCES unlock_attempt(attempt_id) ON DELETE CASCADE
        ) STRICT;
        CREATE INDEX idx_unlock_grant_app ON unlock_grant(user_id, app_id);
        CREATE INDEX idx_unlock_grant_end ON unlock_grant(ends_ts_utc_ms);
        CREATE INDEX idx_unlock_grant_attempt ON unlock_grant(source_attempt_id);

        CREATE TABLE unlock_grant_current (
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          app_id TEXT NOT NULL,
          grant_id TEXT NOT NULL,
          updated_ts_utc_ms INTEGER NOT NULL,
          PRIMARY KEY (user_id, app_id),
          FOREIGN KEY (grant_id) REFERENCES unlock_grant(grant_id) ON DELETE CASCADE
        ) STRICT;
        CREATE INDEX idx_unlock_grant_current_grant ON unlock_grant_current(grant_id);

        CREATE TABLE unlock_grant_extension (
          extension_id TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          grant_id TEXT NOT NULL,
          ts_utc_ms INTEGER NOT NULL,
          added_minutes INTEGER NOT NULL CHECK (added_minutes > 0),
          new_ends_ts_utc_ms INTEGER NOT NULL,
          method TEXT NOT NULL CHECK (\(oneOf("method", "CREDITS", "QUEST", "EMERGENCY"))),
          metadata_json TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata_json)),
          FOREIGN KEY (grant_id) REFERENCES unlock_grant(grant_id) ON DELETE CASCADE
        ) STRICT;
        CREATE INDEX idx_unlock_grant_extension_grant ON unlock_grant_extension(grant_id);

        CREATE TABLE quest_session (
          quest_session_id TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          attempt_id TEXT NOT NULL,
          quest_type TEXT NOT NULL CHECK (\(oneOf("quest_type", "BREATHING", "COPY_TEXT", "QR_SCAN"))),
          created_ts_utc_ms INTEGER NOT NULL,
          expires_ts_utc_ms INTEGER NOT NULL CHECK (expires_ts_utc_ms > created_ts_utc_ms),
          state TEXT NOT NULL DEFAULT 'ACTIVE' CHECK (\(oneOf("state", "ACTIVE", "COMPLETED", "FAILED", "EXPIRED", "CANCELLED"))),
          metadata_json TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata_json)),
          updated_ts_utc_ms INTEGER NOT NULL,
          FOREIGN KEY (attempt_id) REFERENCES unlock_attempt(attempt_id) ON DELETE CASCADE
        ) STRICT;
        CREATE INDEX idx_quest_session_attempt ON quest_session(attempt_id);

        CREATE TABLE daily_app_limits (
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          day_id TEXT NOT NULL CHECK (\(day("day_id"))),
          app_id TEXT NOT NULL,
          quest_grants_count INTEGER NOT NULL DEFAULT 0 CHECK (quest_grants_count >= 0),
          last_quest_grant_start_ts_utc_ms INTEGER,
          PRIMARY KEY (user_id, day_id, app_id)
        ) STRICT;
        CREATE INDEX idx_daily_app_limits_app ON daily_app_limits(user_id, app_id);

        CREATE TABLE event_log (
          event_id TEXT PRIMARY KEY,
          user_id INTEGER NOT NULL REFERENCES app_user(user_id),
          ts_utc_ms INTEGER NOT NULL,
          timezone_id TEXT NOT NULL,
          day_id TEXT NOT NULL CHECK (\(day("day_id"))),
          type TEXT NOT NULL CHECK (\(oneOf("type", "DAY_ROLLOVER", "CREDITS_EARNED", "CREDITS_SPENT", "STREAK_QUALIFIED",
            "STREAK_BONUS_AWARDED", "HABIT_AWARD_SUSPENDED", "UNLOCK_ATTEMPT_CREATED", "UNLOCK_OPTION_SELECTED", "UNLOCK_GRANTED", "UNLOCK_DENIED",
            "QUEST_STARTED", "QUEST_COMPLETED", "QUEST_FAILED", "QUEST_CANCELLED", "QUEST_EXPIRED", "EMERGENCY_USED", "FOCUS_STARTED", "FOCUS_ENDED"))),
          payload_json TEXT NOT NULL CHECK (json_valid(payload_json) AND json_type(payload_json) = 'object'),
          created_ts_utc_ms INTEGER NOT NULL,
          sync_status TEXT NOT NULL DEFAULT 'LOCAL_ONLY' CHECK (\(oneOf("sync_status", "LOCAL_ONLY", "PENDING", "SYNCED", "FAILED")))
        ) STRICT;
        CREATE INDEX idx_event_day ON event_log(user_id, day_id);
        CREATE INDEX idx_event_ts ON event_log(ts_utc_ms);
        CREATE INDEX idx_event_type ON event_log(user_id, type);

        -- The event log is append-only: rows are only ever inserted, and deleted by retention.
        CREATE TRIGGER event_log_append_only BEFORE UPDATE ON event_log
        BEGIN SELECT RAISE(ABORT, 'event_log is append-only: rows cannot be updated'); END;
        """
}

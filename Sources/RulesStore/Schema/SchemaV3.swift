import GRDB

/// Schema version 3 (issue 17): habit tasks' frequencies, start dates, goal directions and params,
/// and the marks users put on a task's days (skips, freezes).
///
/// `tracker_task` is rebuilt (SQLite cannot change a CHECK): the seed's columns and rows stay as
/// they were, `frequency_type` accepts the new kinds, and the new columns are added with the
/// values that keep every existing task's meaning (no start date, `atLeast`, no params).
/// `tracker_day_mark` holds one row per mark: `skip` and `freezeUsed` at most once per task and
/// day, `freezeEquipped` any number of times.
enum SchemaV3 {
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE tracker_task_v3 (
                  task_key INTEGER PRIMARY KEY,
                  task_id BLOB NOT NULL UNIQUE CHECK (\(SchemaV1.uuid("task_id"))),
                  user_id INTEGER NOT NULL REFERENCES app_user(user_id),
                  category_id BLOB REFERENCES tracker_category(category_id) ON DELETE SET NULL,
                  title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 100),
                  icon_name TEXT,
                  is_preset INTEGER NOT NULL DEFAULT 0 CHECK (is_preset IN (0,1)),
                  preset_identifier TEXT,
                  measurement_duration TEXT NOT NULL DEFAULT 'daily' CHECK (measurement_duration IN ('daily','weekly','monthly')),
                  goal_type TEXT NOT NULL DEFAULT 'none'
                    CHECK (goal_type IN ('none','repetitions','time','cups','calories','distance','weight','capacity')),
                  goal_value REAL CHECK (goal_value IS NULL OR goal_value > 0),
                  goal_unit TEXT,
                  frequency_type TEXT NOT NULL DEFAULT 'daily'
                    CHECK (frequency_type IN ('daily','specificDays','timesInDays','everyNDays','daysOfMonth')),
                  times_per_day INTEGER NOT NULL DEFAULT 1 CHECK (times_per_day BETWEEN 1 AND 100),
                  scheduled_days TEXT NOT NULL DEFAULT '[1,2,3,4,5,6,7]' CHECK (json_valid(scheduled_days) AND json_type(scheduled_days) = 'array'),
                  notification_enabled INTEGER NOT NULL DEFAULT 0 CHECK (notification_enabled IN (0,1)),
                  notification_time TEXT CHECK (notification_time IS NULL OR notification_time GLOB '[0-2][0-9]:[0-5][0-9]'),
                  color_token TEXT NOT NULL DEFAULT 'blue',
                  sort_order INTEGER NOT NULL DEFAULT 0 CHECK (sort_order >= 0),
                  created_ts_utc_ms INTEGER NOT NULL,
                  updated_ts_utc_ms INTEGER NOT NULL CHECK (updated_ts_utc_ms >= created_ts_utc_ms),
                  frequency_times INTEGER CHECK (frequency_times IS NULL OR frequency_times BETWEEN 1 AND 365),
                  frequency_days INTEGER CHECK (frequency_days IS NULL OR frequency_days BETWEEN 2 AND 365),
                  days_of_month TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(days_of_month) AND json_type(days_of_month) = 'array'),
                  start_day_id TEXT CHECK (start_day_id IS NULL OR start_day_id GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                  goal_direction TEXT NOT NULL DEFAULT 'atLeast' CHECK (goal_direction IN ('atLeast','atMost')),
                  params TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params) AND json_type(params) = 'object'),
                  CHECK (goal_type <> 'none' OR (goal_value IS NULL AND goal_unit IS NULL)),
                  CHECK (is_preset = (preset_identifier IS NOT NULL)),
                  CHECK (notification_enabled = (notification_time IS NOT NULL)),
                  CHECK ((frequency_type = 'timesInDays') = (frequency_times IS NOT NULL)),
                  CHECK ((frequency_type IN ('timesInDays','everyNDays')) = (frequency_days IS NOT NULL))
                ) STRICT;
                INSERT INTO tracker_task_v3(task_key, task_id, user_id, category_id, title, icon_name, is_preset, preset_identifier,
                  measurement_duration, goal_type, goal_value, goal_unit, frequency_type, times_per_day, scheduled_days,
                  notification_enabled, notification_time, color_token, sort_order, created_ts_utc_ms, updated_ts_utc_ms)
                SELECT task_key, task_id, user_id, category_id, title, icon_name, is_preset, preset_identifier,
                  measurement_duration, goal_type, goal_value, goal_unit, frequency_type, times_per_day, scheduled_days,
                  notification_enabled, notification_time, color_token, sort_order, created_ts_utc_ms, updated_ts_utc_ms
                FROM tracker_task;
                DROP TABLE tracker_task;
                ALTER TABLE tracker_task_v3 RENAME TO tracker_task;
                CREATE INDEX idx_tracker_task_user ON tracker_task(user_id);
                CREATE INDEX idx_tracker_task_category ON tracker_task(category_id);

                CREATE TABLE tracker_day_mark (
                  mark_id INTEGER PRIMARY KEY,
                  user_id INTEGER NOT NULL REFERENCES app_user(user_id),
                  task_key INTEGER NOT NULL REFERENCES tracker_task(task_key) ON DELETE CASCADE,
                  day_id TEXT NOT NULL CHECK (day_id GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                  kind TEXT NOT NULL CHECK (kind IN ('skip','freezeUsed','freezeEquipped')),
                  created_ts_utc_ms INTEGER NOT NULL CHECK (created_ts_utc_ms >= 0)
                ) STRICT;
                CREATE INDEX idx_tracker_day_mark_task ON tracker_day_mark(task_key, day_id);
                CREATE UNIQUE INDEX idx_tracker_day_mark_once ON tracker_day_mark(task_key, day_id, kind) WHERE kind <> 'freezeEquipped';
                """)
    }
}

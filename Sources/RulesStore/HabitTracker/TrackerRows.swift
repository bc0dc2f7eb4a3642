import Foundation
import GRDB
import RulesModel

/// Row ⇄ model conversions of the habit tracker's tables.
package enum TrackerRows {
    static func category(_ row: Row) throws -> RulesModel.Category {
        let r = RowReader(row, "tracker_category")
        return Category(
            id: try r.uuid("category_id"), userID: try r.user(), name: try r.string("name"), isPreset: try r.bool("is_preset"),
            sortOrder: try r.int("sort_order"), createdAt: try r.int64("created_ts_utc_ms"))
    }

    static let insertCategorySQL = """
        INSERT INTO tracker_category(category_id, user_id, name, is_preset, sort_order, created_ts_utc_ms) VALUES (?, ?, ?, ?, ?, ?)
        """

    static func category<V: RowValues>(_ c: RulesModel.Category, into v: inout V) {
        v.add(c.id); v.add(c.userID.rawValue); v.add(c.name); v.add(c.isPreset); v.add(c.sortOrder); v.add(c.createdAt)
    }

    static func task(_ row: Row) throws -> HabitTask {
        let r = RowReader(row, "tracker_task")
        let days: [Int] = try r.json("scheduled_days")
        let weekdays = try days.map { value in
            guard let day = Weekday(rawValue: value) else { throw r.corrupt("scheduled_days", "unknown ISO weekday \(value)") }
            return day
        }
        return HabitTask(
            id: try r.uuid("task_id"), userID: try r.user(), categoryID: try r.optionalUUID("category_id"),
            title: try r.string("title"), iconName: try r.optional("icon_name"), isPreset: try r.bool("is_preset"),
            presetIdentifier: try r.optional("preset_identifier"), measurementDuration: try r.enumValue("measurement_duration"),
            goalType: try r.enumValue("goal_type"), goalValue: try r.optional("goal_value"), goalUnit: try r.optional("goal_unit"),
            frequencyType: try r.enumValue("frequency_type"), timesPerDay: try r.int("times_per_day"), scheduledDays: weekdays,
            notificationEnabled: try r.bool("notification_enabled"), notificationTime: try r.optionalTime("notification_time"),
            colorToken: try r.string("color_token"), sortOrder: try r.int("sort_order"),
            createdAt: try r.int64("created_ts_utc_ms"), updatedAt: try r.int64("updated_ts_utc_ms"),
            frequencyTimes: try r.optional("frequency_times"), frequencyDays: try r.optional("frequency_days"),
            daysOfMonth: try r.json("days_of_month"), startDate: try r.optionalDay("start_day_id"),
            goalDirection: try r.enumValue("goal_direction"), params: try r.json("params"))
    }

    static func taskArguments(_ t: HabitTask) throws -> StatementArguments { try ArgumentValues.of { try task(t, into: &$0) } }

    static func task<V: RowValues>(_ t: HabitTask, into v: inout V) throws {
        v.add(t.id); v.add(t.userID.rawValue); v.add(t.categoryID); v.add(t.title); v.add(t.iconName); v.add(t.isPreset)
        v.add(t.presetIdentifier); v.add(t.measurementDuration.rawValue); v.add(t.goalType.rawValue); v.add(t.goalValue); v.add(t.goalUnit)
        v.add(t.frequencyType.rawValue); v.add(t.timesPerDay); v.add(try ModelJSON.encode(t.scheduledDays.sorted().map(\.rawValue)))
        v.add(t.notificationEnabled); v.add(t.notificationTime?.text); v.add(t.colorToken); v.add(t.sortOrder); v.add(t.createdAt)
        v.add(t.updatedAt); v.add(t.frequencyTimes); v.add(t.frequencyDays); v.add(try ModelJSON.encode(t.daysOfMonth.sorted()))
        v.add(t.startDate?.rawValue); v.add(t.goalDirection.rawValue); v.add(try ModelJSON.encode(t.params))
    }

    static let insertTaskSQL = """
        INSERT INTO tracker_task(task_id, user_id, category_id, title, icon_name, is_preset, preset_identifier, measurement_duration,
          goal_type, goal_value, goal_unit, frequency_type, times_per_day, scheduled_days, notification_enabled, notification_time,
          color_token, sort_order, created_ts_utc_ms, updated_ts_utc_ms, frequency_times, frequency_days, days_of_month, start_day_id,
          goal_direction, params) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static let upsertTaskSQL =
        insertTaskSQL + """
             ON CONFLICT(task_id) DO UPDATE SET category_id = excluded.category_id, title = excluded.title, icon_name = excluded.icon_name,
              is_preset = excluded.is_preset, preset_identifier = excluded.preset_identifier, measurement_duration = excluded.measurement_duration,
              goal_type = excluded.goal_type, goal_value = excluded.goal_value, goal_unit = excluded.goal_unit,
              frequency_type = excluded.frequency_type, times_per_day = excluded.times_per_day, scheduled_days = excluded.scheduled_days,
              notification_enabled = excluded.notification_enabled, notification_time = excluded.notification_time,
              color_token = excluded.color_token, sort_order = excluded.sort_order, updated_ts_utc_ms = excluded.updated_ts_utc_ms,
              frequency_times = excluded.frequency_times, frequency_days = excluded.frequency_days, days_of_month = excluded.days_of_month,
              start_day_id = excluded.start_day_id, goal_direction = excluded.goal_direction, params = excluded.params
            """

    static func completion(_ row: Row) throws -> TaskCompletion {
        let r = RowReader(row, "tracker_completion")
        return TaskCompletion(
            id: try r.int64("completion_id"), userID: try r.user(), taskID: try r.uuid("task_id"),
            completedAt: try r.int64("completed_at_ts_utc_ms"), value: try r.optional("value"))
    }

    static let completionColumns = """
        c.completion_id, c.user_id, t.task_id, c.completed_at_ts_utc_ms, c.value
        FROM tracker_completion c JOIN tracker_task t ON t.task_key = c.task_key
        """

    package static let insertCompletionSQL = """
        INSERT INTO tracker_completion(user_id, task_key, completed_at_ts_utc_ms, value) VALUES (?, ?, ?, ?)
        """

    static func dayMark(_ row: Row) throws -> DayMark {
        let r = RowReader(row, "tracker_day_mark")
        return DayMark(
            userID: try r.user(), taskID: try r.uuid("task_id"), day: try r.day("day_id"), kind: try r.enumValue("kind"),
            createdAt: try r.int64("created_ts_utc_ms"))
    }

    static let dayMarkColumns = """
        m.user_id, t.task_id, m.day_id, m.kind, m.created_ts_utc_ms
        FROM tracker_day_mark m JOIN tracker_task t ON t.task_key = m.task_key
        """

    package static let insertDayMarkSQL = """
        INSERT INTO tracker_day_mark(user_id, task_key, day_id, kind, created_ts_utc_ms) VALUES (?, ?, ?, ?, ?)
        """

    static func settings(_ row: Row) throws -> HabitTrackerSettings {
        let r = RowReader(row, "tracker_settings")
        return HabitTrackerSettings(
            hasCompletedOnboarding: try r.bool("has_completed_onboarding"), createdAt: try r.int64("created_ts_utc_ms"))
    }
}

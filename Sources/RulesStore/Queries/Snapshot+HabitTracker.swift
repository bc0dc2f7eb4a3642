import Foundation
import GRDB
import RulesModel

extension Snapshot {
    /// The habit tracker's categories of a user, in `sortOrder`.
    public func categories(_ userID: UserID) throws -> [RulesModel.Category] {
        try all(
            "SELECT * FROM tracker_category WHERE user_id = ? ORDER BY sort_order, name, category_id", [userID.rawValue],
            TrackerRows.category)
    }

    /// The habit tasks of a user, in `sortOrder`.
    public func tasks(_ userID: UserID) throws -> [HabitTask] {
        try all(
            "SELECT * FROM tracker_task WHERE user_id = ? ORDER BY sort_order, created_ts_utc_ms, task_id", [userID.rawValue],
            TrackerRows.task)
    }

    /// One task of a user, if it exists.
    public func task(_ userID: UserID, id: UUID) throws -> HabitTask? {
        try Row.fetchOne(
            cached: db, sql: "SELECT * FROM tracker_task WHERE user_id = ? AND task_id = ?", arguments: [userID.rawValue, id.blob]
        )
        .map(TrackerRows.task)
    }

    /// Completions in `[from, to)`, of one task or of all the user's tasks, oldest first.
    public func completions(_ userID: UserID, taskID: UUID? = nil, from: EpochMillis, to: EpochMillis) throws -> [TaskCompletion] {
        try Snapshot.requirePeriod(from, to)
        if let taskID {
            return try all(
                """
                SELECT \(TrackerRows.completionColumns) WHERE t.task_id = ? AND t.user_id = ?
                  AND c.completed_at_ts_utc_ms >= ? AND c.completed_at_ts_utc_ms < ?
                ORDER BY c.completed_at_ts_utc_ms, c.completion_id
                """, [taskID.blob, userID.rawValue, from, to], TrackerRows.completion)
        }
        return try all(
            """
            SELECT \(TrackerRows.completionColumns) WHERE t.user_id = ? AND c.completed_at_ts_utc_ms >= ? AND c.completed_at_ts_utc_ms < ?
            ORDER BY c.completed_at_ts_utc_ms, c.completion_id
            """, [userID.rawValue, from, to], TrackerRows.completion)
    }

    /// The number of completions per task in `[from, to)` (tasks without any are absent).
    public func completionCounts(_ userID: UserID, from: EpochMillis, to: EpochMillis) throws -> [UUID: Int] {
        try Snapshot.requirePeriod(from, to)
        var counts: [UUID: Int] = [:]
        for row in try Row.fetchAll(
            cached: db,
            sql: """
                SELECT t.task_id, COUNT(*) AS n FROM tracker_task t JOIN tracker_completion c ON c.task_key = t.task_key
                WHERE t.user_id = ? AND c.completed_at_ts_utc_ms >= ? AND c.completed_at_ts_utc_ms < ? GROUP BY t.task_key
                """, arguments: [userID.rawValue, from, to])
        {
            let r = RowReader(row, "tracker_task")
            counts[try r.uuid("task_id")] = try r.int("n")
        }
        return counts
    }

    /// The habit tracker's settings of a user.
    public func trackerSettings(_ userID: UserID) throws -> HabitTrackerSettings {
        try one(
            "SELECT * FROM tracker_settings WHERE user_id = ?", [userID.rawValue], "tracker settings of user", "\(userID)",
            TrackerRows.settings)
    }
}

import Foundation
import GRDB
import RulesModel

/// Issue 17: marks on a task's days (skips, freezes) and unchecking a day's completion.
extension Store {
    /// Records a mark on one day of a user's task. A second skip or used freeze on the same task
    /// and day is refused (``StoreError/Code-swift.struct/constraint``); equipped freezes add up.
    package func addDayMark(_ mark: DayMark) throws {
        try mark.validate()
        try write { db in
            let (key, _) = try Self.requireTask(db, mark.userID, mark.taskID)
            if mark.kind.isOncePerDay,
                try Bool.fetchOne(
                    cached: db, sql: "SELECT 1 FROM tracker_day_mark WHERE task_key = ? AND day_id = ? AND kind = ?",
                    arguments: [key, mark.day.rawValue, mark.kind.rawValue]) == true
            {
                throw StoreError.duplicateDayMark(mark)
            }
            try db.execute(
                cached: TrackerRows.insertDayMarkSQL,
                arguments: [mark.userID.rawValue, key, mark.day.rawValue, mark.kind.rawValue, mark.createdAt])
        }
    }

    /// Deletes the latest completion of a user's task in `[from, to)` (the latest recorded of those
    /// at the latest instant) and returns it; nil, deleting nothing, when there is none.
    @discardableResult
    package func deleteLatestCompletion(_ userID: UserID, taskID: UUID, from: EpochMillis, to: EpochMillis) throws -> TaskCompletion? {
        try Snapshot.requirePeriod(from, to)
        return try write { db in
            let (key, _) = try Self.requireTask(db, userID, taskID)
            guard
                let row = try Row.fetchOne(
                    cached: db,
                    sql: """
                        SELECT \(TrackerRows.completionColumns) WHERE c.task_key = ? AND c.completed_at_ts_utc_ms >= ? AND c.completed_at_ts_utc_ms < ?
                        ORDER BY c.completed_at_ts_utc_ms DESC, c.completion_id DESC LIMIT 1
                        """, arguments: [key, from, to])
            else { return nil }
            let completion = try TrackerRows.completion(row)
            try db.execute(cached: "DELETE FROM tracker_completion WHERE completion_id = ?", arguments: [completion.id])
            return completion
        }
    }

    package func dayMarks(_ userID: UserID, taskID: UUID?, fromDay: DayID, toDay: DayID) throws -> [DayMark] {
        try read { try $0.dayMarks(userID, taskID: taskID, fromDay: fromDay, toDay: toDay) }
    }
}

extension StoreError {
    static func duplicateDayMark(_ mark: DayMark) -> StoreError {
        StoreError(.constraint, "DayMark: task \(mark.taskID.uuidString) already has a \(mark.kind.rawValue) on \(mark.day.rawValue)")
    }
}

extension Snapshot {
    /// The marks on days `fromDay…toDay` (inclusive), of one task or all the user's tasks, by day,
    /// then in the order they were recorded.
    package func dayMarks(_ userID: UserID, taskID: UUID? = nil, fromDay: DayID, toDay: DayID) throws -> [DayMark] {
        if let taskID {
            return try all(
                """
                SELECT \(TrackerRows.dayMarkColumns) WHERE t.task_id = ? AND t.user_id = ? AND m.day_id BETWEEN ? AND ?
                ORDER BY m.day_id, m.mark_id
                """, [taskID.blob, userID.rawValue, fromDay.rawValue, toDay.rawValue], TrackerRows.dayMark)
        }
        return try all(
            """
            SELECT \(TrackerRows.dayMarkColumns) WHERE t.user_id = ? AND m.day_id BETWEEN ? AND ? ORDER BY m.day_id, m.mark_id
            """, [userID.rawValue, fromDay.rawValue, toDay.rawValue], TrackerRows.dayMark)
    }
}

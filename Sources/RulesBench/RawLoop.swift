import Foundation
import GRDB
import RulesModel
import RulesStore

/// The benchmark's baseline: the same rows as the bulk path, turned into statement arguments
/// beforehand (not timed), then written by a plain loop of prepared statements with no
/// validation and no checks (timed).
enum RawLoop {
    static let statements = [
        BulkWriter.Session.upsertCommitmentSQL, PressureRows.updateEscalationSQL, PressureRows.insertNotificationSQL,
        TrackerRows.insertCompletionSQL, MigaRows.insertUsageEventSQL, EarnedRows.updateEconomySQL,
        EarnedRows.insertDaySummarySQL, UnlockRows.insertEventSQL,
    ]

    /// (statement index, arguments) for every row of `days`, in the bulk path's order.
    static func prepare(_ days: [UserDay], store: Store) throws -> [(Int, StatementArguments)] {
        let keys: [UUID: Int64] = try store.read { snapshot in
            var keys: [UUID: Int64] = [:]
            for row in try Row.fetchAll(snapshot.db, sql: "SELECT task_id, task_key FROM tracker_task") {
                keys[try RowReader(row, "tracker_task").uuid("task_id")] = row["task_key"]
            }
            return keys
        }
        var rows: [(Int, StatementArguments)] = []
        for day in days {
            let u = day.userID.rawValue
            if let c = day.commitment { rows.append((0, PressureRows.commitmentArguments(c))) }
            if let s = day.escalationState {
                rows.append((1, PressureRows.escalationArguments(s, user: day.userID, now: day.day.utcStartMillis)))
            }
            for n in day.notifications { rows.append((2, PressureRows.notificationArguments(n))) }
            for c in day.taskCompletions { rows.append((3, [u, keys[c.taskID], c.completedAt, c.value])) }
            for e in day.usageEvents { rows.append((4, MigaRows.usageEventArguments(e))) }
            if let e = day.economyState { rows.append((5, EarnedRows.economyArguments(e))) }
            if let s = day.daySummary { rows.append((6, EarnedRows.daySummaryArguments(s))) }
            for e in day.events { rows.append((7, try UnlockRows.eventArguments(e))) }
        }
        return rows
    }

    static func write(_ rows: [(Int, StatementArguments)], into store: Store) throws {
        try store.write { db in
            let prepared = try statements.map { try db.makeStatement(sql: $0) }
            for (index, arguments) in rows { try prepared[index].execute(arguments: arguments) }
        }
    }
}

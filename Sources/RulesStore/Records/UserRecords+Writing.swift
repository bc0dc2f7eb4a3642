import Foundation
import GRDB
import RulesModel

extension UserRecords {
    /// Inserts the user's rows (validated when they were recorded; the schema's constraints are
    /// checked here). The integer keys SQLite assigns (`task_key`, `completion_id`) follow the
    /// order the tasks and completions were recorded in.
    func write(_ db: Database) throws {
        try user.insert(db)
        try db.execute(cached: PressureRows.updateSettingsSQL, arguments: PressureRows.settingsArguments(settings.value, user: userID, now: settings.updatedAt))
        try db.execute(cached: PressureRows.updateEscalationSQL,
                       arguments: PressureRows.escalationArguments(escalation.value, user: userID, now: escalation.updatedAt))
        for commitment in commitments.values.sorted(by: { $0.day < $1.day }) {
            try db.execute(cached: PressureRows.insertCommitmentSQL, arguments: PressureRows.commitmentArguments(commitment))
        }
        for entry in notifications {
            try db.execute(cached: PressureRows.insertNotificationSQL, arguments: PressureRows.notificationArguments(entry))
        }
        var taskKeys: [UUID: Int64] = [:]
        for task in tasks {
            try db.execute(cached: TrackerRows.insertTaskSQL, arguments: try TrackerRows.taskArguments(task))
            taskKeys[task.id] = db.lastInsertedRowID
        }
        for completion in completions {
            try db.execute(cached: TrackerRows.insertCompletionSQL,
                           arguments: [userID.rawValue, taskKeys[completion.taskID], completion.completedAt, completion.value])
        }
        for event in usageEvents {
            try db.execute(cached: MigaRows.insertUsageEventSQL, arguments: MigaRows.usageEventArguments(event))
        }
        if let engineState {
            try db.execute(cached: EngineStateRow.insertSQL, arguments: engineState.arguments)
        }
    }
}

extension BulkWriter {
    /// Writes the rows of users held in memory (each of them new to the database) in one
    /// transaction, in the order given; the first problem throws and nothing is written.
    public func write(_ users: [UserRecords]) throws {
        try write { add in try add(users) }
    }

    /// Writes the rows of users held in memory (each of them new to the database) in one
    /// transaction, as `body` hands them to `add`, in that order. When anything throws, nothing is
    /// written. (One large transaction writes each page of the file once, where a transaction per
    /// batch of users rewrites the pages their rows share.)
    public func write(_ body: (_ add: ([UserRecords]) throws -> Void) throws -> Void) throws {
        try store.write { db in
            try body { users in
                for user in users { try user.write(db) }
            }
        }
    }
}

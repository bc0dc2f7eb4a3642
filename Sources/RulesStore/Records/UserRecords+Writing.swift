import Foundation
import GRDB
import RulesModel

extension UserRecords {
    /// Writes users' rows through statements prepared once for a whole bulk write. The rows were
    /// validated when they were recorded; the schema's constraints are checked here. The integer
    /// keys SQLite assigns (`task_key`, `completion_id`) follow the order the tasks and
    /// completions were recorded in.
    struct Writer {
        let db: Database
        let newUser: NewUser.Statements
        let settings: PreparedStatement
        let escalation: PreparedStatement
        let commitment: PreparedStatement
        let notification: PreparedStatement
        let task: PreparedStatement
        let completion: PreparedStatement
        let dayMark: PreparedStatement
        let deleteCompletion: PreparedStatement
        let usageEvent: PreparedStatement
        let exposure: PreparedStatement
        let engineState: PreparedStatement
        let earned: EarnedRecords.Statements

        init(_ db: Database) throws {
            self.db = db
            newUser = try NewUser.Statements(db)
            settings = try PreparedStatement(db, PressureRows.updateSettingsSQL)
            escalation = try PreparedStatement(db, PressureRows.updateEscalationSQL)
            commitment = try PreparedStatement(db, PressureRows.insertCommitmentSQL)
            notification = try PreparedStatement(db, PressureRows.insertNotificationSQL)
            task = try PreparedStatement(db, TrackerRows.insertTaskSQL)
            completion = try PreparedStatement(db, TrackerRows.insertCompletionSQL)
            dayMark = try PreparedStatement(db, TrackerRows.insertDayMarkSQL)
            deleteCompletion = try PreparedStatement(db, "DELETE FROM tracker_completion WHERE completion_id = ?")
            usageEvent = try PreparedStatement(db, MigaRows.insertUsageEventSQL)
            exposure = try PreparedStatement(db, ExposureRows.insertSQL)
            engineState = try PreparedStatement(db, EngineStateRow.insertSQL)
            earned = try EarnedRecords.Statements(db)
        }

        /// Writes the rows of `users`: each user's own rows in user order (SQLite numbers tasks and
        /// completions in that order), then the rows keyed by random UUIDs (commitments,
        /// notifications, MIGA usage events) table by table in key order, which walks each table's
        /// B-tree from left to right instead of jumping around it.
        func write(_ users: [UserRecords]) throws {
            for user in users {
                try user.user.insert(newUser)
                let id = user.userID
                try settings.run { PressureRows.settings(user.settings.value, user: id, now: user.settings.updatedAt, into: &$0) }
                try escalation.run { PressureRows.escalation(user.escalation.value, user: id, now: user.escalation.updatedAt, into: &$0) }
                var taskKeys: [UUID: Int64] = [:]
                for row in user.tasks {
                    try task.run { try TrackerRows.task(row, into: &$0) }
                    taskKeys[row.id] = db.lastInsertedRowID
                }
                var completionIDs: [Int: Int64] = [:]
                for (index, write) in user.completionWrites.enumerated() {
                    switch write {
                    case .insert(let row):
                        try completion.run { v in
                            v.add(id.rawValue); v.add(taskKeys[row.taskID]); v.add(row.completedAt); v.add(row.value)
                        }
                        completionIDs[index] = db.lastInsertedRowID
                    case .delete(let insert):
                        try deleteCompletion.run { v in v.add(completionIDs[insert]!) }
                    }
                }
                for row in user.dayMarks {
                    try dayMark.run { v in
                        v.add(id.rawValue); v.add(taskKeys[row.taskID]); v.add(row.day.rawValue); v.add(row.kind.rawValue);
                        v.add(row.createdAt)
                    }
                }
                for row in user.exposures {
                    try exposure.run { ExposureRows.values(row, into: &$0) }
                }
                if let row = user.engineState {
                    try engineState.run { row.values(into: &$0) }
                }
                try user.earned?.write(earned)
            }
            for row in users.flatMap({ $0.commitments.values }).sorted(by: { $0.id.precedes($1.id) }) {
                try commitment.run { PressureRows.commitment(row, into: &$0) }
            }
            for row in users.flatMap(\.notifications).sorted(by: { $0.id.precedes($1.id) }) {
                try notification.run { PressureRows.notification(row, into: &$0) }
            }
            for row in users.flatMap(\.usageEvents).sorted(by: { $0.id.precedes($1.id) }) {
                try usageEvent.run { MigaRows.usageEvent(row, into: &$0) }
            }
        }
    }
}

extension BulkWriter {
    /// Writes the rows of users held in memory (each of them new to the database) in one
    /// transaction, in the order given; the first problem throws and nothing is written.
    package func write(_ users: [UserRecords]) throws {
        try write { add in try add(users) }
    }

    /// Writes the rows of users held in memory (each of them new to the database) in one
    /// transaction, as `body` hands them to `add`, in that order. When anything throws, nothing is
    /// written. (One large transaction writes each page of the file once, where a transaction per
    /// batch of users rewrites the pages their rows share.)
    ///
    /// Into a file opened for a bulk load (``StoreOptions/bulkLoad``), the indexes that only speed
    /// up reads (not UNIQUE) are dropped first and built again at the end, in the same
    /// transaction: one sort each instead of millions of insertions at random places (10,000 users:
    /// the writer's 41.6 s became 26.4 s plus 6.2 s of index building).
    package func write(_ body: (_ add: ([UserRecords]) throws -> Void) throws -> Void) throws {
        try store.write { db in
            let deferred = store.bulkLoad ? try Self.dropReadIndexes(db) : []
            let writer = try UserRecords.Writer(db)
            try body { users in try writer.write(users) }
            for sql in deferred { try db.execute(sql: sql) }
        }
    }

    /// Drops the indexes that are not UNIQUE and returns the statements that create them again.
    package static func dropReadIndexes(_ db: Database) throws -> [String] {
        let indexes = try Row.fetchAll(
            db,
            sql: """
                SELECT name, sql FROM sqlite_master
                WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE INDEX%' ORDER BY name
                """)
        for index in indexes { try db.execute(sql: "DROP INDEX \(index["name"] as String)") }
        return indexes.map { $0["sql"] }
    }
}

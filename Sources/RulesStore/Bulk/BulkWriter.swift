import Foundation
import GRDB
import RulesModel

/// The bulk path for simulations: many users' days written in one transaction through cached
/// prepared statements (`Database.cachedStatement`).
///
/// Every record is validated as a model value and checked against its user-day (same user, same
/// day, the task it completes belongs to the user) before anything is written; the first problem
/// throws and the whole batch is rolled back, so the database holds whole batches, hence whole
/// user-days, only — also when the process dies in the middle.
package struct BulkWriter: Sendable {
    package let store: Store

    package init(store: Store) { self.store = store }

    /// Writes `days` in one transaction.
    ///
    /// - Parameter afterEachUserDay: called inside the transaction after each user-day with its
    ///   index (progress reporting; the fault test uses it to kill the process mid-write).
    @discardableResult
    package func write(_ days: [UserDay], afterEachUserDay: ((Int) -> Void)? = nil) throws -> BulkWriteReport {
        try store.write { db in
            var session = Session(db: db)
            var rows = 0
            for (index, day) in days.enumerated() {
                rows += try session.write(day)
                afterEachUserDay?(index)
            }
            return BulkWriteReport(userDays: days.count, rows: rows)
        }
    }

    /// The per-transaction state: statement cache lookups and memoized users and tasks.
    package struct Session {
        let db: Database
        var users: Set<Int64> = []
        var tasks: [UUID: (key: Int64, user: Int64, goal: GoalType)] = [:]

        init(db: Database) { self.db = db }

        mutating func write(_ day: UserDay) throws -> Int {
            try check(day)
            let u = day.userID.rawValue
            if let c = day.commitment {
                try db.cachedStatement(sql: Self.upsertCommitmentSQL).execute(arguments: PressureRows.commitmentArguments(c))
            }
            if let s = day.escalationState {
                try db.cachedStatement(sql: PressureRows.updateEscalationSQL)
                    .execute(arguments: PressureRows.escalationArguments(s, user: day.userID, now: day.day.utcStartMillis))
            }
            for n in day.notifications {
                try db.cachedStatement(sql: PressureRows.insertNotificationSQL).execute(arguments: PressureRows.notificationArguments(n))
            }
            for c in day.taskCompletions {
                let task = try task(c.taskID, user: u)
                guard task.goal != .none || c.value == nil else {
                    throw ModelValidationError(
                        entity: "TaskCompletion", field: "value", rule: "nil for a task whose goalType is none",
                        found: "\(c.value ?? 0)")
                }
                try db.cachedStatement(sql: TrackerRows.insertCompletionSQL).execute(arguments: [u, task.key, c.completedAt, c.value])
            }
            for e in day.usageEvents {
                try db.cachedStatement(sql: MigaRows.insertUsageEventSQL).execute(arguments: MigaRows.usageEventArguments(e))
            }
            if let e = day.economyState {
                try db.cachedStatement(sql: EarnedRows.updateEconomySQL).execute(arguments: EarnedRows.economyArguments(e))
            }
            if let s = day.daySummary {
                try db.cachedStatement(sql: EarnedRows.insertDaySummarySQL).execute(arguments: EarnedRows.daySummaryArguments(s))
            }
            for c in day.habitCompletions {
                try db.cachedStatement(sql: EarnedRows.insertHabitCompletionSQL).execute(arguments: EarnedRows.habitCompletionArguments(c))
            }
            for e in day.events {
                try db.cachedStatement(sql: UnlockRows.insertEventSQL).execute(arguments: try UnlockRows.eventArguments(e))
            }
            return day.rowCount
        }

        /// Validates every record and its belonging to the user-day.
        mutating func check(_ day: UserDay) throws {
            let u = day.userID.rawValue
            if !users.contains(u) {
                try Store.requireUser(db, day.userID)
                users.insert(u)
            }
            func same(_ entity: String, _ user: UserID) throws {
                guard user == day.userID else {
                    throw ModelValidationError(
                        entity: entity, field: "user_id", rule: "the user-day's user \(day.userID)", found: "\(user)")
                }
            }
            func sameDay(_ entity: String, _ field: String, _ other: DayID) throws {
                guard other == day.day else {
                    throw ModelValidationError(entity: entity, field: field, rule: "the user-day's day \(day.day)", found: other.rawValue)
                }
            }
            if let c = day.commitment { try c.validate(); try same("Commitment", c.userID); try sameDay("Commitment", "date", c.day) }
            try day.escalationState?.validate()
            for n in day.notifications { try n.validate(); try same("NotificationLogEntry", n.userID) }
            for c in day.taskCompletions { try c.validate(); try same("TaskCompletion", c.userID) }
            for e in day.usageEvents { try e.validate(); try same("UsageEvent", e.userID) }
            if let e = day.economyState { try e.validate(); try same("EconomyState", e.userID) }
            if let s = day.daySummary { try s.validate(); try same("DaySummary", s.userID); try sameDay("DaySummary", "day_id", s.dayID) }
            for c in day.habitCompletions {
                try c.validate()
                try same("HabitCompletion", c.userID)
                try sameDay("HabitCompletion", "day_id", c.dayID)
            }
            for e in day.events { try e.validate(); try same("EventLogEntry", e.userID) }
        }

        mutating func task(_ id: UUID, user: Int64) throws -> (key: Int64, user: Int64, goal: GoalType) {
            if let task = tasks[id], task.user == user { return task }
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT task_key, user_id, goal_type FROM tracker_task WHERE task_id = ?"),
                    arguments: [id.blob])
            else {
                throw StoreError.notFound("HabitTask", id.uuidString)
            }
            let r = RowReader(row, "tracker_task")
            let task = (key: try r.int64("task_key"), user: try r.int64("user_id"), goal: try r.enumValue("goal_type", GoalType.self))
            guard task.user == user else { throw StoreError.notFound("HabitTask \(id.uuidString) of user", "\(user)") }
            tasks[id] = task
            return task
        }

        package static let upsertCommitmentSQL =
            PressureRows.insertCommitmentSQL + """
                 ON CONFLICT(user_id, day_id) DO UPDATE SET text = excluded.text, locked_at_ts_utc_ms = excluded.locked_at_ts_utc_ms,
                  status = excluded.status, checked_in_at_ts_utc_ms = excluded.checked_in_at_ts_utc_ms,
                  escalation_tier_snap = excluded.escalation_tier_snap, shield_used = excluded.shield_used
                """
    }
}

import Foundation
import GRDB
import RulesModel

extension Store {
    static func insertCategory(_ db: Database, _ category: RulesModel.Category) throws {
        try category.validate()
        try db.execute(cached: TrackerRows.insertCategorySQL, arguments: ArgumentValues.of { TrackerRows.category(category, into: &$0) })
    }

    /// Adds a custom category (presets are seeded by ``createUser(_:day:timezoneID:now:makeUUID:)``).
    package func addCategory(_ category: RulesModel.Category) throws {
        guard !category.isPreset else { throw StoreError.invalidState("Category: only the four seeded categories are presets") }
        try write { db in
            try Self.requireUser(db, category.userID)
            try Self.insertCategory(db, category)
        }
    }

    /// Deletes a custom category; its tasks become uncategorized. Presets cannot be deleted.
    package func deleteCategory(_ userID: UserID, id: UUID) throws {
        try write { db in
            guard
                let row = try Row.fetchOne(
                    cached: db, sql: "SELECT * FROM tracker_category WHERE category_id = ? AND user_id = ?",
                    arguments: [id.blob, userID.rawValue])
            else {
                throw StoreError.notFound("Category", id.uuidString)
            }
            guard try !TrackerRows.category(row).isPreset else {
                throw StoreError.invalidState("Category \(id.uuidString) is a preset; presets cannot be deleted")
            }
            try db.execute(cached: "DELETE FROM tracker_category WHERE category_id = ?", arguments: [id.blob])
        }
    }

    /// Inserts or updates a habit task (validated; its category must be the same user's).
    package func saveTask(_ task: HabitTask) throws {
        try task.validate()
        try write { db in
            try Self.requireUser(db, task.userID)
            if let categoryID = task.categoryID {
                let owner = try Int64.fetchOne(
                    cached: db, sql: "SELECT user_id FROM tracker_category WHERE category_id = ?", arguments: [categoryID.blob])
                guard owner == task.userID.rawValue else {
                    throw StoreError.notFound("Category \(categoryID.uuidString) of user", "\(task.userID)")
                }
            }
            if let owner = try Int64.fetchOne(
                cached: db, sql: "SELECT user_id FROM tracker_task WHERE task_id = ?", arguments: [task.id.blob]),
                owner != task.userID.rawValue
            {
                throw StoreError(.constraint, "HabitTask \(task.id.uuidString) belongs to another user")
            }
            try db.execute(cached: TrackerRows.upsertTaskSQL, arguments: try TrackerRows.taskArguments(task))
        }
    }

    /// Deletes a task and, by cascade, all its completions.
    package func deleteTask(_ userID: UserID, id: UUID) throws {
        try write { db in
            try db.execute(cached: "DELETE FROM tracker_task WHERE task_id = ? AND user_id = ?", arguments: [id.blob, userID.rawValue])
            guard db.changesCount == 1 else { throw StoreError.notFound("HabitTask \(id.uuidString) of user", "\(userID)") }
        }
    }

    /// Records a completion (checked against its task's goal type) and returns it with its id.
    @discardableResult
    package func addCompletion(_ completion: TaskCompletion) throws -> TaskCompletion {
        try completion.validate()
        guard completion.id == nil else { throw StoreError.invalidState("TaskCompletion.id is assigned by the store; pass nil") }
        return try write { db in
            let (key, task) = try Self.requireTask(db, completion.userID, completion.taskID)
            try completion.validate(against: task)
            try Self.insert(completion, taskKey: key, db)
            var stored = completion
            stored.id = db.lastInsertedRowID
            return stored
        }
    }

    /// Deletes one completion (FR-5, managing completions).
    package func deleteCompletion(_ userID: UserID, id: Int64) throws {
        try write { db in
            try db.execute(
                cached: "DELETE FROM tracker_completion WHERE completion_id = ? AND user_id = ?", arguments: [id, userID.rawValue])
            guard db.changesCount == 1 else { throw StoreError.notFound("TaskCompletion \(id) of user", "\(userID)") }
        }
    }

    /// Replaces the habit tracker's settings of a user.
    package func saveTrackerSettings(_ userID: UserID, _ settings: HabitTrackerSettings) throws {
        try settings.validate()
        try write { db in
            try Self.requireUser(db, userID)
            try db.execute(
                cached: "UPDATE tracker_settings SET has_completed_onboarding = ?, created_ts_utc_ms = ? WHERE user_id = ?",
                arguments: [settings.hasCompletedOnboarding, settings.createdAt, userID.rawValue])
        }
    }

    /// The row of a completion of the task whose `task_key` is `key` (``addCompletion(_:)``).
    static func insert(_ completion: TaskCompletion, taskKey key: Int64, _ db: Database) throws {
        try db.execute(
            cached: TrackerRows.insertCompletionSQL,
            arguments: [completion.userID.rawValue, key, completion.completedAt, completion.value])
    }

    /// The `task_key` of a user's task (SQLite's number of its row), which the rows of its
    /// completions and marks refer to.
    static func taskKey(_ db: Database, _ userID: UserID, _ taskID: UUID) throws -> Int64 {
        guard
            let key = try Int64.fetchOne(
                cached: db, sql: "SELECT task_key FROM tracker_task WHERE task_id = ? AND user_id = ?",
                arguments: [taskID.blob, userID.rawValue])
        else { throw StoreError.notFound("HabitTask \(taskID.uuidString) of user", "\(userID)") }
        return key
    }

    /// The internal key and the model of a user's task.
    static func requireTask(_ db: Database, _ userID: UserID, _ taskID: UUID) throws -> (Int64, HabitTask) {
        guard
            let row = try Row.fetchOne(
                cached: db, sql: "SELECT * FROM tracker_task WHERE task_id = ? AND user_id = ?",
                arguments: [taskID.blob, userID.rawValue])
        else {
            throw StoreError.notFound("HabitTask \(taskID.uuidString) of user", "\(userID)")
        }
        return (try RowReader(row, "tracker_task").int64("task_key"), try TrackerRows.task(row))
    }
}

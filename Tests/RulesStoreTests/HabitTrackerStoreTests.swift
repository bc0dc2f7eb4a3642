import Foundation
import GRDB
@testable import RulesStore
import RulesModel
import Testing

@Suite struct HabitTrackerStoreTests {
    func task(_ f: Fixture, goal: GoalType = .time, category: UUID? = nil) -> HabitTask {
        HabitTask(
            userID: f.user, categoryID: category, title: "Meditate", goalType: goal, goalValue: goal == .none ? nil : 10,
            goalUnit: goal == .none ? nil : "min", createdAt: f.now, updatedAt: f.now)
    }

    @Test func presetCategoriesCannotBeDeletedCustomOnesNullifyTheirTasks() throws {
        let f = try Fixture()
        let health = try #require(try f.store.read { try $0.categories(f.user) }.first)
        try expectUnchanged(f.store) { try f.store.deleteCategory(f.user, id: health.id) }
        #expect(throws: DatabaseError.self) { try f.raw("DELETE FROM tracker_category WHERE is_preset = 1") }
        let mine = RulesModel.Category(userID: f.user, name: "My Goals", sortOrder: 4, createdAt: f.now)
        try f.store.addCategory(mine)
        let meditate = task(f, category: mine.id)
        try f.store.saveTask(meditate)
        try f.store.deleteCategory(f.user, id: mine.id)
        #expect(try f.store.read { try $0.task(f.user, id: meditate.id) }?.categoryID == nil)
        #expect(try f.store.checkInvariants() == [])
    }

    @Test func completionsFollowTheirTaskAndItsGoal() throws {
        let f = try Fixture()
        let timed = task(f), plain = task(f, goal: .none)
        try f.store.saveTask(timed)
        try f.store.saveTask(plain)
        let first = try f.store.addCompletion(TaskCompletion(userID: f.user, taskID: timed.id, completedAt: f.now, value: 12))
        #expect(first.id != nil)
        try f.store.addCompletion(TaskCompletion(userID: f.user, taskID: plain.id, completedAt: f.now + 1))
        try expectUnchanged(f.store) {
            try f.store.addCompletion(TaskCompletion(userID: f.user, taskID: plain.id, completedAt: f.now, value: 1))
        }
        try expectUnchanged(f.store) { try f.store.addCompletion(TaskCompletion(userID: f.user, taskID: UUID(), completedAt: f.now)) }
        try expectUnchanged(f.store) {
            try f.store.addCompletion(TaskCompletion(userID: f.user, taskID: timed.id, completedAt: f.now, value: .nan))
        }
        let period = try f.store.read { try $0.completions(f.user, from: f.now, to: f.now + 2) }
        #expect(period.map(\.value) == [12, nil])
        #expect(try f.store.read { try $0.completionCounts(f.user, from: f.now, to: f.now + 2) } == [timed.id: 1, plain.id: 1])
        // Deleting a task cascades to its completions.
        try f.store.deleteTask(f.user, id: timed.id)
        #expect(try f.count("tracker_completion") == 1)
        #expect(try f.store.checkInvariants() == [])
    }

    @Test func anotherUsersTaskOrCategoryIsNotReachable() throws {
        let f = try Fixture()
        try f.store.createUser(UserID(2), day: f.day, now: f.now)
        let theirs = try #require(try f.store.read { try $0.categories(UserID(2)) }.first)
        try expectUnchanged(f.store) { try f.store.saveTask(self.task(f, category: theirs.id)) }
        let mine = task(f)
        try f.store.saveTask(mine)
        try expectUnchanged(f.store) { try f.store.addCompletion(TaskCompletion(userID: UserID(2), taskID: mine.id, completedAt: f.now)) }
    }
}

/// Schema version 3 (issue 17): the tasks' new columns and the day marks.
@Suite struct HabitDayMarkStoreTests {
    @Test func aVersion2DatabaseKeepsItsTasksAndCompletionsAndGainsTheNewColumns() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("v2.sqlite")
        let queue = try DatabaseQueue(path: path)
        try Migrations.migrator.migrate(queue, upTo: "0002_engine_state")
        let taskID = UUID()
        try queue.write { db in
            try db.execute(sql: "INSERT INTO app_user(user_id, created_ts_utc_ms) VALUES (1, 0)")
            try db.execute(
                sql: """
                    INSERT INTO tracker_task(task_id, user_id, title, frequency_type, scheduled_days, created_ts_utc_ms, updated_ts_utc_ms)
                    VALUES (?, 1, 'Read', 'specificDays', '[1,3]', 5, 6)
                    """, arguments: [taskID.blob])
            try db.execute(sql: "INSERT INTO tracker_completion(user_id, task_key, completed_at_ts_utc_ms) VALUES (1, 1, 10)")
        }
        try queue.close()
        let store = try Store.open(path: path, options: StoreOptions(deviceID: "d"))
        #expect(try store.migrationLevel() == Migrations.currentVersion)
        let task = try #require(try store.read { try $0.task(UserID(1), id: taskID) })
        #expect(task.frequencyType == .specificDays && task.scheduledDays == [.monday, .wednesday] && task.createdAt == 5)
        #expect(task.startDate == nil && task.goalDirection == .atLeast && task.params.isEmpty && task.daysOfMonth.isEmpty)
        #expect(try store.completions(UserID(1), taskID: taskID, from: 0, to: 100).map(\.completedAt) == [10])
        // The completions still cascade with their task, and the marks do too.
        try store.addDayMark(DayMark(userID: UserID(1), taskID: taskID, day: try DayID("2026-03-02"), kind: .skip, createdAt: 20))
        try store.writer.write { db in
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            try db.execute(sql: "DELETE FROM tracker_task")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tracker_completion") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tracker_day_mark") == 0)
        }
    }

    @Test func marksAndUnchecksKeepTheirRulesAndATaskRoundTripsItsNewFields() throws {
        let f = try Fixture()
        var task = HabitTask(
            userID: f.user, title: "Gym", frequencyType: .timesInDays, createdAt: f.now, updatedAt: f.now,
            frequencyTimes: 3, frequencyDays: 7, startDate: f.day, goalDirection: .atLeast,
            params: ["freeze_max": .integer(2), "ratio": .number(0.5), "strict": .boolean(false), "mode": .string("x")])
        try f.store.saveTask(task)
        #expect(try f.store.read { try $0.task(f.user, id: task.id) } == task)
        task.frequencyType = .daysOfMonth
        task.frequencyTimes = nil
        task.frequencyDays = nil
        task.daysOfMonth = [31, 1]
        try f.store.saveTask(task)
        #expect(try f.store.read { try $0.task(f.user, id: task.id) }?.daysOfMonth == [1, 31])

        let skip = DayMark(userID: f.user, taskID: task.id, day: f.day, kind: .skip, createdAt: f.now)
        try f.store.addDayMark(skip)
        try expectUnchanged(f.store) { try f.store.addDayMark(skip) }
        try f.store.addDayMark(DayMark(userID: f.user, taskID: task.id, day: f.day, kind: .freezeEquipped, createdAt: f.now))
        try f.store.addDayMark(DayMark(userID: f.user, taskID: task.id, day: f.day, kind: .freezeEquipped, createdAt: f.now + 1))
        try expectUnchanged(f.store) {
            try f.store.addDayMark(DayMark(userID: f.user, taskID: UUID(), day: f.day, kind: .skip, createdAt: f.now))
        }
        #expect(
            try f.store.dayMarks(f.user, taskID: task.id, fromDay: f.day, toDay: f.day).map(\.kind) == [
                .skip, .freezeEquipped, .freezeEquipped,
            ])

        for at in [f.now, f.now, f.now + 5] { try f.store.addCompletion(TaskCompletion(userID: f.user, taskID: task.id, completedAt: at)) }
        let latest = try f.store.deleteLatestCompletion(f.user, taskID: task.id, from: f.now, to: f.now + 5)
        #expect(latest?.completedAt == f.now && latest?.id == 2)  // the later recorded of the two at the latest instant
        #expect(try f.store.deleteLatestCompletion(f.user, taskID: task.id, from: f.now + 6, to: f.now + 7) == nil)
        #expect(try f.store.completions(f.user, taskID: task.id, from: 0, to: .max).compactMap(\.id) == [1, 3])
        #expect(try f.store.checkInvariants() == [])
    }
}

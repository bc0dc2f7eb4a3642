import Foundation
import GRDB
@testable import RulesStore
import RulesModel
import Testing

@Suite struct HabitTrackerStoreTests {
    func task(_ f: Fixture, goal: GoalType = .time, category: UUID? = nil) -> HabitTask {
        HabitTask(userID: f.user, categoryID: category, title: "Meditate", goalType: goal, goalValue: goal == .none ? nil : 10,
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
        try expectUnchanged(f.store) { try f.store.addCompletion(TaskCompletion(userID: f.user, taskID: plain.id, completedAt: f.now, value: 1)) }
        try expectUnchanged(f.store) { try f.store.addCompletion(TaskCompletion(userID: f.user, taskID: UUID(), completedAt: f.now)) }
        try expectUnchanged(f.store) { try f.store.addCompletion(TaskCompletion(userID: f.user, taskID: timed.id, completedAt: f.now, value: .nan)) }
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

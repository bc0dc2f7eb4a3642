import Foundation
import GRDB
@testable import RulesStore
import RulesModel
import Testing

@Suite struct BulkWriterTests {
    static func cohortStore() throws -> (Fixture, SyntheticCohort, [UserID: [HabitTask]]) {
        let f = try Fixture()
        let cohort = SyntheticCohort(seed: 3, startDay: f.day.adding(days: 1)!, tasksPerUser: 4)
        var tasks: [UserID: [HabitTask]] = [:]
        for u in 2...4 {
            let user = UserID(Int64(u))
            try cohort.setUp(f.store, user: user)
            tasks[user] = cohort.tasks(for: user)
        }
        return (f, cohort, tasks)
    }

    @Test func manyUsersDaysInOneTransaction() throws {
        let (f, cohort, tasks) = try Self.cohortStore()
        let days = try tasks.keys.sorted().flatMap { user in
            try (0..<10).map { try cohort.userDay(user, dayIndex: $0, tasks: tasks[user]!) }
        }
        let report = try BulkWriter(store: f.store).write(days)
        #expect(report.userDays == 30 && report.rows == days.reduce(0) { $0 + $1.rowCount })
        #expect(try f.count("pressure_commitment") == 30 && f.count("pressure_notification") == 90 && f.count("miga_usage_event") == 60)
        #expect(try f.count("event_log") == 27)
        #expect(try f.store.checkInvariants() == [])
        // The same seed gives the same database.
        let (g, cohort2, tasks2) = try Self.cohortStore()
        try BulkWriter(store: g.store).write(
            try tasks2.keys.sorted().flatMap { user in
                try (0..<10).map { try cohort2.userDay(user, dayIndex: $0, tasks: tasks2[user]!) }
            })
        #expect(
            try f.store.dump().replacingOccurrences(of: "test-device", with: "")
                == g.store.dump().replacingOccurrences(of: "test-device", with: ""))
    }

    @Test func oneInvalidRecordRefusesTheWholeBatch() throws {
        let (f, cohort, tasks) = try Self.cohortStore()
        var days = try (0..<5).map { try cohort.userDay(UserID(2), dayIndex: $0, tasks: tasks[UserID(2)]!) }
        days[3].usageEvents[0].pauseDuration = 99
        try expectUnchanged(f.store) { try BulkWriter(store: f.store).write(days) }
        // A record of another user inside a user-day.
        var foreign = try (0..<2).map { try cohort.userDay(UserID(2), dayIndex: $0, tasks: tasks[UserID(2)]!) }
        foreign[1].notifications[0].userID = UserID(3)
        let error = try #require(throws: ModelValidationError.self) { try BulkWriter(store: f.store).write(foreign) }
        #expect(error.description == "NotificationLogEntry.user_id: the user-day's user 2, found 3")
        // A completion of another user's task.
        var stolen = [try cohort.userDay(UserID(2), dayIndex: 0, tasks: tasks[UserID(3)]!)]
        for i in stolen[0].taskCompletions.indices { stolen[0].taskCompletions[i].userID = UserID(2) }
        try expectUnchanged(f.store) { try BulkWriter(store: f.store).write(stolen) }
        // A final status cannot be rewritten by a later batch (the one-way trigger).
        try BulkWriter(store: f.store).write([try cohort.userDay(UserID(2), dayIndex: 0, tasks: tasks[UserID(2)]!)])
        var rewritten = try cohort.userDay(UserID(2), dayIndex: 0, tasks: tasks[UserID(2)]!)
        rewritten.notifications = []
        rewritten.usageEvents = []
        rewritten.taskCompletions = []
        rewritten.events = []
        var commitment = try #require(rewritten.commitment)
        commitment.status = commitment.status == .yes ? .missed : .yes
        commitment.checkedInAt = commitment.status == .yes ? commitment.lockedAt! + 1 : nil
        rewritten.commitment = commitment
        let before = try f.store.dump()
        #expect(throws: DatabaseError.self) { try BulkWriter(store: f.store).write([rewritten]) }
        #expect(try f.store.dump() == before)
    }

    @Test func errorBeforeCommitLeavesNothing() throws {
        let (f, cohort, tasks) = try Self.cohortStore()
        let days = try (0..<5).map { try cohort.userDay(UserID(4), dayIndex: $0, tasks: tasks[UserID(4)]!) }
        f.store.faultHooks.beforeCommit = { _ in throw InjectedFault() }
        try expectUnchanged(f.store) { try BulkWriter(store: f.store).write(days) }
    }
}

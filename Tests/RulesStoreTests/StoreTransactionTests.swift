import Foundation
@testable import RulesStore
import RulesModel
import Testing

/// `Store.transaction`: several operations commit together, or none does.
@Suite struct StoreTransactionTests {
    @Test func operationsInsideATransactionCommitTogether() throws {
        let f = try Fixture()
        let deadline = f.day.utcStartMillis + 9 * Millis.hour
        try f.store.transaction {
            try f.store.addCommitment(Commitment(userID: f.user, day: f.day, text: "Write the tests"))
            try f.store.lockCommitment(f.user, on: f.day, at: deadline)
            // Reads inside see the transaction's own writes.
            #expect(try f.store.read { try $0.commitment(f.user, on: f.day) }?.lockedAt == deadline)
            try f.store.recordCheckIn(
                f.user, on: f.day, status: .yes, at: deadline + Millis.hour,
                escalation: EscalationState(currentStreak: 1, longestStreak: 1))
            try f.store.saveEngineState(EngineStateRow(userID: f.user, name: "u1", processedUntil: deadline + Millis.hour, stateJSON: "{}"))
        }
        #expect(try f.store.read { try $0.commitment(f.user, on: f.day) }?.status == .yes)
        #expect(try f.store.read { try $0.engineState(named: "u1") }?.userID == f.user)
        #expect(try f.store.checkInvariants() == [])
    }

    @Test func anErrorLeavesNothingOfTheTransaction() throws {
        let f = try Fixture()
        let deadline = f.day.utcStartMillis + 9 * Millis.hour
        try expectUnchanged(f.store) {
            try f.store.transaction {
                try f.store.addCommitment(Commitment(userID: f.user, day: f.day, text: "Write the tests"))
                _ = try f.store.transaction {  // nested: a savepoint of the outer one
                    try f.store.lockCommitment(f.user, on: f.day, at: deadline)
                }
                try f.store.saveEngineState(EngineStateRow(userID: f.user, name: "u1", processedUntil: deadline, stateJSON: "{}"))
                throw InjectedFault()
            }
        }
        try expectUnchanged(f.store) {
            try f.store.transaction {
                try f.store.addCommitment(Commitment(userID: f.user, day: f.day, text: "Write the tests"))
                // A store error half-way (a second commitment the same day) rolls back the first.
                try f.store.addCommitment(Commitment(userID: f.user, day: f.day, text: "Another one"))
            }
        }
    }

    @Test func aFailingNestedTransactionRollsBackOnlyItself() throws {
        let f = try Fixture()
        let deadline = f.day.utcStartMillis + 9 * Millis.hour
        try f.store.transaction {
            try f.store.addCommitment(Commitment(userID: f.user, day: f.day, text: "Write the tests"))
            #expect(throws: InjectedFault.self) {
                try f.store.transaction {
                    try f.store.lockCommitment(f.user, on: f.day, at: deadline)
                    throw InjectedFault()
                }
            }
            // The savepoint's lock is gone; the outer transaction's commitment is still there.
            #expect(try f.store.read { try $0.commitment(f.user, on: f.day) }?.lockedAt == nil)
            try f.store.transaction {
                try f.store.saveEngineState(EngineStateRow(userID: f.user, name: "u1", processedUntil: deadline, stateJSON: "{}"))
            }
        }
        #expect(try f.store.read { try $0.commitment(f.user, on: f.day) }?.text == "Write the tests")
        #expect(try f.store.read { try $0.engineState(named: "u1") } != nil)
    }

    @Test func engineStateNamesAreUnique() throws {
        let f = try Fixture()
        try f.store.saveEngineState(EngineStateRow(userID: f.user, name: "u1", processedUntil: 0, stateJSON: "{}"))
        #expect(try f.store.read { try $0.nextUserID() } == UserID(f.user.rawValue + 1))
        try expectUnchanged(f.store) {
            try f.store.saveEngineState(EngineStateRow(userID: f.user, name: "u1", processedUntil: 0, stateJSON: "not json"))
        }
    }
}

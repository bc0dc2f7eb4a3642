import Foundation
import GRDB
@testable import RulesStore
import RulesModel
import Testing

@Suite struct PressureStoreTests {
    @Test func commitmentLifecycleIsOneWay() throws {
        let f = try Fixture()
        let deadline = f.day.utcStartMillis + 9 * Millis.hour
        try f.store.addCommitment(Commitment(userID: f.user, day: f.day, text: "Ship the report"))
        try f.store.editCommitmentText(f.user, on: f.day, text: "Ship the report and the slides")
        try f.store.lockCommitment(f.user, on: f.day, at: deadline)
        try expectUnchanged(f.store) { try f.store.editCommitmentText(f.user, on: f.day, text: "Something easier") }
        let escalation = EscalationState(currentStreak: 1, longestStreak: 1)
        let done = try f.store.recordCheckIn(f.user, on: f.day, status: .yes, at: deadline + 8 * Millis.hour, escalation: escalation)
        #expect(done.status == .yes && done.checkedInAt == deadline + 8 * Millis.hour && done.escalationTierSnapshot == .baseline)
        #expect(try f.store.read { try $0.escalationState(f.user) } == escalation)
        // YES then NO is not allowed: the check-in is final (through the API and in SQL).
        let error = try #require(throws: ModelValidationError.self) {
            try f.store.recordCheckIn(f.user, on: f.day, status: .no, at: deadline + 9 * Millis.hour, escalation: .initial)
        }
        #expect(error.description == "Commitment.status: one-way PENDING → YES | NO | MISSED, found YES → NO")
        #expect(throws: DatabaseError.self) { try f.raw("UPDATE pressure_commitment SET status = 'NO'") }
        try expectUnchanged(f.store) { try f.store.addCommitment(Commitment(userID: f.user, day: f.day, text: "Second one")) }
        #expect(try f.store.checkInvariants() == [])
    }

    @Test func dayWithoutCommitmentBecomesAnEmptyMissedRecord() throws {
        let f = try Fixture()
        let deadline = f.day.utcStartMillis + 9 * Millis.hour
        let id = UUID()
        let missed = EscalationState(currentTier: .nudge, consecutiveMisses: 1)
        let record = try f.store.lockCommitment(f.user, on: f.day, at: deadline, ifMissing: (id, missed))
        #expect(
            record
                == Commitment(
                    id: id, userID: f.user, day: f.day, text: "", lockedAt: deadline, status: .missed,
                    escalationTierSnapshot: .baseline))
        #expect(try f.store.read { try $0.commitment(f.user, on: f.day) } == record)
        #expect(try f.store.read { try $0.escalationState(f.user) }.currentTier == .nudge)
        // Without the miss's escalation state, a missing commitment is an error, not a silent record.
        try expectUnchanged(f.store) { try f.store.lockCommitment(f.user, on: f.day.adding(days: 1)!, at: deadline + Millis.day) }
    }

    @Test func invalidInputNeverReachesTheDatabase() throws {
        let f = try Fixture()
        let long = String(repeating: "é", count: 281)
        try expectUnchanged(f.store) { try f.store.addCommitment(Commitment(userID: f.user, day: f.day, text: long)) }
        try expectUnchanged(f.store) { try f.store.addCommitment(Commitment(userID: UserID(9), day: f.day, text: "Nobody")) }
        try expectUnchanged(f.store) {
            try f.store.savePressureSettings(f.user, UserSettings(commitmentDeadline: LocalTime(hour: 5, minute: 30)), now: f.now)
        }
        try expectUnchanged(f.store) {
            try f.store.saveEscalationState(f.user, EscalationState(restartShieldsRemaining: 2), now: f.now)
        }
        try f.store.savePressureSettings(
            f.user,
            UserSettings(
                personalityMode: .brutal, checkinWindowClose: LocalTime(hour: 23, minute: 59),
                timezoneIdentifier: "America/Vancouver"), now: f.now)
        #expect(try f.store.read { try $0.pressureSettings(f.user) }.checkinWindowClose.text == "23:59")
    }

    @Test func notificationLogAndHistoryQueries() throws {
        let f = try Fixture()
        for offset in 0..<5 {
            let day = f.day.adding(days: offset)!
            try f.store.addCommitment(Commitment(userID: f.user, day: day, text: "Day \(offset)"))
            try f.store.logNotification(
                NotificationLogEntry(
                    userID: f.user, scheduledFor: day.utcStartMillis + 15 * Millis.hour, tier: .nudge,
                    personality: .professional))
        }
        let history = try f.store.read { try $0.commitmentHistory(f.user, lastDays: 3, endingOn: f.day.adding(days: 4)!) }
        #expect(history.map(\.text) == ["Day 2", "Day 3", "Day 4"])
        let from = f.day.utcStartMillis, to = f.day.adding(days: 2)!.utcStartMillis
        let entries = try f.store.read { try $0.notifications(f.user, from: from, to: to) }
        #expect(entries.count == 2)
        try f.store.markNotification(entries[0].id, delivered: false, tapped: true)
        let marked = try f.store.read { try $0.notifications(f.user, from: from, to: to) }[0]
        #expect(marked.delivered && marked.tapped)
        #expect(throws: StoreError.self) { try f.store.read { try $0.notifications(f.user, from: to, to: from) } }
        #expect(throws: StoreError.self) { try f.store.read { try $0.commitmentHistory(f.user, lastDays: 0, endingOn: f.day) } }
    }
}

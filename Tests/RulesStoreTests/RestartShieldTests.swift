import Foundation
@testable import RulesStore
import RulesModel
import Testing

@Suite struct RestartShieldTests {
    @Test func shieldSpendsExactlyOneAndOnlyOnANoOrMissedDay() throws {
        let f = try Fixture()
        let deadline = f.day.utcStartMillis + 9 * Millis.hour
        try f.store.saveEscalationState(f.user, EscalationState(currentStreak: 4, longestStreak: 6, restartShieldsRemaining: 1), now: f.now)
        try f.store.addCommitment(Commitment(userID: f.user, day: f.day, text: "Write 500 words", lockedAt: deadline))
        let afterNo = EscalationState(
            currentTier: .nudge, consecutiveMisses: 1, currentStreak: 0, longestStreak: 6, restartShieldsRemaining: 1)
        try f.store.recordCheckIn(f.user, on: f.day, status: .no, at: deadline + Millis.hour, escalation: afterNo)
        // Spending nothing, or two, is refused.
        try expectUnchanged(f.store) {
            try f.store.useRestartShield(f.user, on: f.day, at: deadline + 2 * Millis.hour, escalation: afterNo)
        }
        let shielded = EscalationState(
            currentTier: .baseline, consecutiveMisses: 0, currentStreak: 0, longestStreak: 6, restartShieldsRemaining: 0)
        let commitment = try f.store.useRestartShield(f.user, on: f.day, at: deadline + 2 * Millis.hour, escalation: shielded)
        #expect(commitment.shieldUsed)
        #expect(try f.store.read { try $0.escalationState(f.user) } == shielded)
        try expectUnchanged(f.store) {
            try f.store.useRestartShield(f.user, on: f.day, at: deadline + 3 * Millis.hour, escalation: shielded)
        }
        // Not on a YES day.
        let next = f.day.adding(days: 1)!
        try f.store.addCommitment(Commitment(userID: f.user, day: next, text: "Again", lockedAt: deadline + Millis.day))
        try f.store.recordCheckIn(f.user, on: next, status: .yes, at: deadline + Millis.day + Millis.hour, escalation: shielded)
        try expectUnchanged(f.store) {
            try f.store.useRestartShield(f.user, on: next, at: deadline + Millis.day + 2 * Millis.hour, escalation: shielded)
        }
    }
}

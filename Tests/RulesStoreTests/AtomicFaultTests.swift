import Foundation
@testable import RulesStore
import RulesModel
import Testing

/// An error thrown inside any atomic operation — an SQLite constraint, a validation error, or
/// any Swift error — leaves the database exactly as it was: the full dump (every table, every
/// row) is compared before and after.
@Suite struct AtomicFaultTests {
    /// Each operation, applied to a fixture prepared for it.
    static let operations: [(String, @Sendable (Fixture) throws -> Void)] = [
        (
            "rollOverDay",
            { f in
                try f.store.rollOverDay(
                    DayRollover(userID: f.user, toDayID: f.day.adding(days: 1)!, carriedCredits: 10, timezoneID: "UTC", at: f.now))
            }
        ),
        ("createUnlockAttempt", { f in try f.store.createUnlockAttempt(f.attempt("a9")) }),
        (
            "grantCreditsUnlock",
            { f in
                try f.store.grantCreditsUnlock(CreditsUnlock(userID: f.user, attemptID: "a1", minutes: 5, costCredits: 10, at: f.now))
            }
        ),
        (
            "completeQuest",
            { f in
                try f.store.completeQuest(QuestCompletion(userID: f.user, questSessionID: "q2", unlockMinutes: 5, at: f.now + 1))
            }
        ),
        (
            "grantEmergencyUnlock",
            { f in
                try f.store.grantEmergencyUnlock(
                    EmergencyUnlock(userID: f.user, attemptID: "a1", delaySeconds: 60, unlockMinutes: 5, at: f.now))
            }
        ),
        (
            "completeFocusSession",
            { f in
                try f.store.completeFocusSession(
                    FocusCompletion(
                        userID: f.user, sessionID: "s1", endedAt: f.now + 1_500_000, actualMinutes: 25,
                        completed: true, awardedCredits: 10, qualifies: true,
                        streak: StreakUpdate(method: .focus, newStreakCount: 2, bonusCredits: 5)))
            }
        ),
        (
            "recordHabitCompletion",
            { f in
                try f.store.recordHabitCompletion(
                    HabitCompletionRecord(
                        completion: HabitCompletion(
                            userID: f.user, completionID: "c1", habitID: "habit_read", timestamp: f.now, timezoneID: "UTC",
                            dayID: f.day, awardedCredits: 5, createdAt: f.now),
                        streak: StreakUpdate(method: .habits, newStreakCount: 1), suspendAwardsUntil: f.day))
            }
        ),
    ]

    /// A fixture where every operation above would succeed.
    static func prepared() throws -> Fixture {
        let f = try Fixture()
        try f.setUpEarned(credits: 30)
        try f.store.createUnlockAttempt(f.attempt("a1"))
        try f.store.createUnlockAttempt(f.attempt("a2", app: f.tiktok))
        try f.store.startQuest(
            QuestSession(
                userID: f.user, questSessionID: "q2", attemptID: "a2", questType: .breathing, createdAt: f.now,
                expiresAt: f.now + Millis.hour, updatedAt: f.now))
        try f.store.startFocusSession(
            FocusSession(
                userID: f.user, sessionID: "s1", startedAt: f.now, timezoneID: "UTC", dayID: f.day,
                plannedDurationMinutes: 25, createdAt: f.now, updatedAt: f.now))
        return f
    }

    @Test(arguments: operations.indices)
    func operationsSucceedOnThePreparedFixture(index: Int) throws {
        let f = try Self.prepared()
        let before = try f.store.dump()
        try Self.operations[index].1(f)
        #expect(try f.store.dump() != before, "\(Self.operations[index].0) changed nothing")
        #expect(try f.store.checkInvariants().isEmpty)
    }

    @Test(arguments: operations.indices)
    func swiftErrorAtTheLastMomentRollsEverythingBack(index: Int) throws {
        let f = try Self.prepared()
        let (name, operation) = Self.operations[index]
        let seen = SeenOperations()
        f.store.faultHooks.beforeCommit = { operation in
            seen.add(operation)
            throw InjectedFault()
        }
        try expectUnchanged(f.store) { try operation(f) }
        #expect(seen.names.contains { $0.hasPrefix(name) }, "the fault was injected in \(seen.names), not \(name)")
        f.store.faultHooks.beforeCommit = nil
        #expect(try f.store.checkInvariants().isEmpty)
    }

    @Test func sqliteConstraintInTheMiddleRollsBackWhatWasAlreadyWritten() throws {
        let f = try Self.prepared()
        // The grant id collides with an existing grant: the INSERT fails after the credits were
        // spent and two events were logged in the same transaction.
        try f.store.grantCreditsUnlock(
            CreditsUnlock(userID: f.user, attemptID: "a1", minutes: 5, costCredits: 10, at: f.now, grantID: "g-taken"))
        try f.store.createUnlockAttempt(f.attempt("a3", app: f.tiktok))
        try expectUnchanged(f.store) {
            try f.store.grantCreditsUnlock(
                CreditsUnlock(userID: f.user, attemptID: "a3", minutes: 5, costCredits: 10, at: f.now, grantID: "g-taken"))
        }
    }

    @Test func validationErrorInTheMiddleRollsBackWhatWasAlreadyWritten() throws {
        let f = try Self.prepared()
        // 0 minutes is refused when the grant is built, after the credits were spent.
        try expectUnchanged(f.store) {
            try f.store.grantCreditsUnlock(CreditsUnlock(userID: f.user, attemptID: "a1", minutes: 0, costCredits: 10, at: f.now))
        }
        // An invalid streak update is refused after the session was ended and credits awarded.
        try expectUnchanged(f.store) {
            try f.store.completeFocusSession(
                FocusCompletion(
                    userID: f.user, sessionID: "s1", endedAt: f.now + 1, actualMinutes: 25,
                    completed: true, awardedCredits: 10, qualifies: true,
                    streak: StreakUpdate(method: .focus, newStreakCount: 0)))
        }
    }

    @Test func replayedOperationFailsOnItsEventIDAndChangesNothing() throws {
        let f = try Self.prepared()
        let rollover = DayRollover(userID: f.user, toDayID: f.day.adding(days: 1)!, carriedCredits: 0, timezoneID: "UTC", at: f.now)
        try f.store.rollOverDay(rollover)
        try expectUnchanged(f.store) { try f.store.rollOverDay(rollover) }
    }
}

final class SeenOperations: @unchecked Sendable {
    private let lock = NSLock()
    private var _names: [String] = []
    func add(_ name: String) { lock.withLock { _names.append(name) } }
    var names: [String] { lock.withLock { _names } }
}

/// Absurd numbers from a buggy rule get an error, never an overflow trap.
@Suite struct HostileNumberTests {
    @Test func extremeTimestampsAndDurationsAreRefused() throws {
        let f = try AtomicFaultTests.prepared()
        try expectUnchanged(f.store) {
            try f.store.grantEmergencyUnlock(
                EmergencyUnlock(userID: f.user, attemptID: "a1", delaySeconds: 60, unlockMinutes: .max, at: f.now))
        }
        try expectUnchanged(f.store) {
            try f.store.grantCreditsUnlock(CreditsUnlock(userID: f.user, attemptID: "a1", minutes: 5, costCredits: 1, at: .max))
        }
        try expectUnchanged(f.store) {
            try f.store.grantCreditsUnlock(CreditsUnlock(userID: f.user, attemptID: "a1", minutes: .max, costCredits: 1, at: f.now))
        }
        try expectUnchanged(f.store) {
            try f.store.completeQuest(QuestCompletion(userID: f.user, questSessionID: "q2", unlockMinutes: 5, at: .min))
        }
        try expectUnchanged(f.store) { try f.store.applyRetention(now: f.now, policy: RetentionPolicy(migaUsageDays: .max)) }
        try f.raw("UPDATE economy_state SET credit_balance = ?", [EconomyState.maxCredits])
        try expectUnchanged(f.store) {
            try f.store.completeFocusSession(
                FocusCompletion(
                    userID: f.user, sessionID: "s1", endedAt: f.now + 1, actualMinutes: 1, completed: true,
                    awardedCredits: 10, qualifies: false))
        }
        try expectUnchanged(f.store) {
            try f.store.completeFocusSession(
                FocusCompletion(
                    userID: f.user, sessionID: "s1", endedAt: f.now + 1, actualMinutes: 1, completed: true,
                    awardedCredits: .max, qualifies: false))
        }
        let error = try #require(throws: ModelValidationError.self) {
            try f.store.rollOverDay(
                DayRollover(userID: f.user, toDayID: f.day.adding(days: 1)!, carriedCredits: 0, timezoneID: "UTC", at: -1))
        }
        #expect(
            error.description == "DayRollover.at: a UTC epoch-millisecond timestamp between 1970 and 9999 (0…253402300799999), found -1")
        #expect(throws: ModelValidationError.self) {
            try SyntheticCohort(seed: 1, startDay: f.day).userDay(f.user, dayIndex: Int.max, tasks: [])
        }
    }
}

import Foundation
@testable import RulesStore
import RulesModel
import Testing

@Suite struct RetentionTests {
    @Test func retentionFollowsA8AndMIGAAsAFunctionOfNow() throws {
        let f = try Fixture()
        try f.setUpEarned(credits: 100)
        // An attempt and grant 40 days ago, one 10 days ago; MIGA events 100 and 80 days ago.
        let old = f.now - 40 * Millis.day, recent = f.now - 10 * Millis.day
        try f.store.createUnlockAttempt(f.attempt("old", at: old, day: DayID(utcMillis: old)))
        try f.store.grantCreditsUnlock(CreditsUnlock(userID: f.user, attemptID: "old", minutes: 5, costCredits: 10, at: old))
        try f.store.createUnlockAttempt(f.attempt("recent", app: f.tiktok, at: recent, day: DayID(utcMillis: recent)))
        try f.store.grantCreditsUnlock(CreditsUnlock(userID: f.user, attemptID: "recent", minutes: 5, costCredits: 10, at: recent))
        for (days, type) in [(100, UsageEventType.exitToFocus), (80, .deepenPause)] {
            try f.store.recordUsageEvent(
                UsageEvent(
                    userID: f.user, eventType: type, timestamp: f.now - Int64(days) * Millis.day,
                    targetAppName: "", pauseDuration: 3, timerDuration: 30))
        }
        // Retention reads no clock: as of the oldest attempt, nothing is old enough to go.
        #expect(try f.store.applyRetention(now: old).totalDeleted == 0)
        let report = try f.store.applyRetention(now: f.now)
        #expect(
            report.deleted == ["event_log": 4, "unlock_attempt": 1, "unlock_grant": 1, "unlock_grant_current": 1, "miga_usage_event": 1])
        #expect(try f.json("SELECT attempt_id FROM unlock_attempt") == ["recent"])
        #expect(try f.count("event_log", "ts_utc_ms < \(f.now - 30 * Millis.day)") == 0)
        #expect(try f.count("day_summary") == 2)  // kept indefinitely
        #expect(try f.json("SELECT event_type FROM miga_usage_event") == ["deepen_pause"])
        #expect(try f.json("SELECT value FROM meta WHERE key = 'last_retention_cleanup_ts_utc_ms'") == ["\(f.now)"])
        #expect(try f.store.checkInvariants() == [])
        let dump = try f.store.dump()
        try f.store.compact()
        #expect(try f.store.dump() == dump && f.store.integrityCheck() == ["ok"])
    }

    @Test func attemptWhoseGrantIsExtendedByAKeptAttemptIsKept() throws {
        let f = try Fixture()
        try f.setUpEarned(credits: 100)
        // A 29-minute grant from 30 days and 1 minute ago, extended 2 minutes later by a kept attempt.
        let first = f.now - 30 * Millis.day - Millis.minute
        try f.store.createUnlockAttempt(f.attempt("first", at: first, day: DayID(utcMillis: first)))
        try f.store.grantCreditsUnlock(CreditsUnlock(userID: f.user, attemptID: "first", minutes: 30, costCredits: 10, at: first))
        let second = first + 2 * Millis.minute
        try f.store.createUnlockAttempt(f.attempt("second", at: second, day: DayID(utcMillis: second)))
        try f.store.grantCreditsUnlock(CreditsUnlock(userID: f.user, attemptID: "second", minutes: 5, costCredits: 10, at: second))
        try f.store.applyRetention(now: f.now)
        #expect(try f.json("SELECT attempt_id FROM unlock_attempt ORDER BY attempt_id") == ["first", "second"])
        #expect(try f.store.checkInvariants() == [])
        // Once the kept attempt ages out too, both go.
        try f.store.applyRetention(now: f.now + Millis.day)
        #expect(try f.count("unlock_attempt") == 0 && f.count("unlock_grant") == 0 && f.count("unlock_grant_extension") == 0)
        #expect(try f.store.checkInvariants() == [])
    }

    @Test func cleanupRunsOnlyWhenTheLastOneIsOlderThan24Hours() throws {
        let f = try Fixture()
        #expect(try f.store.applyRetentionIfDue(now: f.now) != nil)
        #expect(try f.store.applyRetentionIfDue(now: f.now + 23 * Millis.hour) == nil)
        // A8: "if last cleanup > 24h".
        #expect(try f.store.applyRetentionIfDue(now: f.now + 24 * Millis.hour) == nil)
        #expect(try f.store.applyRetentionIfDue(now: f.now + 24 * Millis.hour + 1) != nil)
    }

    @Test func badPolicyIsRefused() throws {
        let f = try Fixture()
        let error = try #require(throws: ModelValidationError.self) {
            try f.store.applyRetention(now: f.now, policy: RetentionPolicy(eventLogDays: 0))
        }
        #expect(error.description == "RetentionPolicy.eventLogDays: between 1 and 36500 days, found 0")
    }
}

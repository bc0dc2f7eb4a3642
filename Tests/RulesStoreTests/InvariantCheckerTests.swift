import Foundation
import GRDB
@testable import RulesStore
import RulesModel
import Testing

/// `checkInvariants` reports every violation, each with its invariant, table and key. The rows
/// are damaged with raw SQL (foreign keys and triggers are what the store relies on; a damaged
/// or hand-edited file bypasses the store's API).
@Suite struct InvariantCheckerTests {
    static func damaged() throws -> Fixture {
        let f = try Fixture()
        try f.setUpEarned(credits: 30)
        try f.store.createUnlockAttempt(f.attempt("a1"))
        try f.store.grantCreditsUnlock(CreditsUnlock(userID: f.user, attemptID: "a1", minutes: 5, costCredits: 10, at: f.now))
        #expect(try f.store.checkInvariants() == [])
        return f
    }

    @Test func soundDatabaseHasNoViolation() throws {
        let f = try Self.damaged()
        try f.store.createUser(UserID(2), day: f.day, now: f.now)
        #expect(try f.store.checkInvariants() == [])
    }

    /// Once A8's cleanup pruned a day's `event_log`, that day's `day_summary` is no longer
    /// checked against it; the days the engine's cleanups left whole still are.
    @Test func aDayWhoseLogWasPrunedIsNotCheckedAndAWholeDayIs() throws {
        let f = try Fixture()
        try f.setUpEarned(credits: 100)
        let old = f.now - 40 * Millis.day, recent = f.now - 10 * Millis.day
        try f.store.createUnlockAttempt(f.attempt("old", at: old, day: DayID(utcMillis: old)))
        try f.store.createUnlockAttempt(f.attempt("recent", app: f.tiktok, at: recent, day: DayID(utcMillis: recent)))
        #expect(try f.store.checkInvariants() == [])
        try f.store.applyEarnedRetention(f.user, now: f.now)
        #expect(try f.count("unlock_attempt") == 1 && f.count("event_log", "day_id = '\(DayID(utcMillis: old))'") == 0)
        // Nothing says the day was pruned: its summary disagrees with its (empty) log.
        #expect(try f.store.checkInvariants().map(\.key) == ["user_id=1,day_id=\(DayID(utcMillis: old))"])
        // The engine records, in the user's state, from when its pruned tables are whole.
        let state = #"{"earned": {"cleanup": {"at": \#(f.now), "wholeFrom": \#(f.now - 30 * Millis.day)}}}"#
        try f.store.saveEngineState(EngineStateRow(userID: f.user, name: "u1", processedUntil: f.now, stateJSON: state))
        #expect(try f.store.checkInvariants() == [])
        try f.raw("UPDATE day_summary SET unlock_attempts_count = 2 WHERE day_id = ?", [DayID(utcMillis: recent).rawValue])
        let found = try f.store.checkInvariants()
        #expect(found.map(\.invariant) == ["day_summary_log"])
        #expect(found.map(\.key) == ["user_id=1,day_id=\(DayID(utcMillis: recent))"])
    }

    @Test func missingSingletonIsA51() throws {
        let f = try Self.damaged()
        try f.raw("DELETE FROM focus_state WHERE user_id = 1")
        try f.raw("DELETE FROM pressure_settings WHERE user_id = 1")
        let found = try f.store.checkInvariants()
        #expect(found.map(\.invariant) == ["A5.1", "A5.1"])
        #expect(found.map(\.table) == ["focus_state", "pressure_settings"])
        #expect(found.first?.key == "user_id=1")
    }

    @Test func grantedAttemptWithoutItsGrantIsA53() throws {
        let f = try Self.damaged()
        try f.raw("UPDATE unlock_attempt SET grant_id = 'nowhere' WHERE attempt_id = 'a1'")
        let found = try f.store.checkInvariants()
        #expect(
            found.contains(
                InvariantViolation(
                    invariant: "A5.3", table: "unlock_attempt", key: "attempt_id=a1",
                    message: "a GRANTED attempt must reference an existing unlock_grant")))
    }

    @Test func badAppIDIsA55AndEveryBadRowIsReported() throws {
        let f = try Self.damaged()
        try f.raw("INSERT INTO distracting_app(user_id, app_id, created_ts_utc_ms) VALUES (1, 'com.example', 0), (1, 'Android:x', 0)")
        let found = try f.store.checkInvariants().filter { $0.invariant == "A5.5" }
        #expect(found.map(\.key) == ["user_id=1,app_id=Android:x", "user_id=1,app_id=com.example"])
    }

    @Test func rowBreakingAModelRuleIsReportedWithTheModelMessage() throws {
        let f = try Self.damaged()
        let long = String(repeating: "x", count: 312)
        try f.raw(
            "INSERT INTO pressure_commitment(commitment_id, user_id, day_id, text, status) VALUES (?, 1, '2026-02-01', ?, 'PENDING')",
            [UUID().blob, long])
        let found = try f.store.checkInvariants()
        #expect(found.count == 1)
        #expect(found.first?.invariant == "valid_row")
        #expect(found.first?.message == "Commitment.text: at most 280 characters, found 312")
    }

    @Test func crossUserReferenceIsReported() throws {
        let f = try Self.damaged()
        try f.store.createUser(UserID(2), day: f.day, now: f.now)
        try f.raw("UPDATE mode_window SET user_id = 2 WHERE window_id = 'w1'")
        let found = try f.store.checkInvariants()
        #expect(
            found == [
                InvariantViolation(
                    invariant: "same_user", table: "mode_window", key: "window_id=w1",
                    message: "references a mode row of another user")
            ])
    }

    @Test func aDayMarkOfAnotherUsersTaskIsReported() throws {
        let f = try Fixture()
        try f.store.createUser(UserID(2), day: f.day, now: f.now)
        let task = HabitTask(userID: f.user, title: "Read", createdAt: f.now, updatedAt: f.now)
        try f.store.saveTask(task)
        try f.store.addDayMark(DayMark(userID: f.user, taskID: task.id, day: f.day, kind: .skip, createdAt: f.now))
        #expect(try f.store.checkInvariants() == [])
        try f.raw("UPDATE tracker_day_mark SET user_id = 2")
        #expect(
            try f.store.checkInvariants() == [
                InvariantViolation(
                    invariant: "same_user", table: "tracker_day_mark", key: "mark_id=1",
                    message: "references a tracker_task row of another user")
            ])
    }

    @Test func danglingForeignKeyAndMissingMetaAreReported() throws {
        let f = try Self.damaged()
        try f.raw("DELETE FROM meta WHERE key = 'device_id'")
        try f.raw("DELETE FROM habit WHERE habit_id = 'habit_read'", foreignKeys: false)
        try f.raw(
            "INSERT INTO habit_completion(completion_id, user_id, habit_id, ts_utc_ms, timezone_id, day_id, created_ts_utc_ms) VALUES ('c9', 1, 'habit_gone', 0, 'UTC', '2026-02-01', 0)",
            foreignKeys: false)
        let found = try f.store.checkInvariants()
        #expect(found.contains { $0.invariant == "meta" && $0.key == "key=device_id" })
        #expect(found.contains { $0.invariant == "foreign_key" && $0.table == "habit_completion" })
    }

    @Test func sqlConstraintsRefuseBadRowsOutright() throws {
        let f = try Self.damaged()
        // STRICT types, CHECKs and triggers stop these before any checker is needed.
        #expect(throws: DatabaseError.self) { try f.raw("UPDATE economy_state SET credit_balance = -1") }
        #expect(throws: DatabaseError.self) { try f.raw("UPDATE economy_state SET credit_balance = 'lots'") }
        #expect(throws: DatabaseError.self) { try f.raw("UPDATE unlock_attempt SET outcome = 'MAYBE'") }
        #expect(throws: DatabaseError.self) { try f.raw("UPDATE unlock_attempt SET grant_id = NULL") }
        #expect(throws: DatabaseError.self) { try f.raw("UPDATE event_log SET payload_json = '{}'") }
        #expect(throws: DatabaseError.self) {
            try f.raw(
                "INSERT INTO unlock_grant_current(user_id, app_id, grant_id, updated_ts_utc_ms) VALUES (1, 'android:com.instagram.android', 'a1.grant', 0)"
            )
        }
        #expect(throws: DatabaseError.self) { try f.raw("UPDATE pressure_settings SET commitment_deadline = '06:15'") }
        #expect(throws: DatabaseError.self) { try f.raw("UPDATE miga_settings SET gateway_timer_duration = 50.0") }
        #expect(try f.store.checkInvariants() == [])
    }

    @Test func focusAndQualificationStateMustAgree() throws {
        let f = try Self.damaged()
        try f.store.startFocusSession(
            FocusSession(
                userID: f.user, sessionID: "s1", startedAt: f.now, timezoneID: "UTC", dayID: f.day,
                plannedDurationMinutes: 25, createdAt: f.now, updatedAt: f.now))
        #expect(try f.store.checkInvariants() == [])
        try f.raw("UPDATE focus_state SET active_session_id = NULL")
        try f.raw("UPDATE economy_state SET today_qualified = 1")
        let found = try f.store.checkInvariants()
        #expect(
            found == [
                InvariantViolation(
                    invariant: "focus_state", table: "focus_session", key: "session_id=s1",
                    message: "an open focus session must be the user's active session"),
                InvariantViolation(
                    invariant: "economy_today", table: "economy_state", key: "user_id=1",
                    message: "today_qualified disagrees with the current day's day_summary.qualified"),
            ])
    }
}

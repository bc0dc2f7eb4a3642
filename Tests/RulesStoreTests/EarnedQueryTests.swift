import Foundation
@testable import RulesStore
import RulesModel
import Testing

/// The read-only queries rules will get as snapshots, and the isolation of users in one file.
@Suite struct EarnedQueryTests {
    @Test func modesHabitsAppsAndSettings() throws {
        let f = try Fixture()
        try f.setUpEarned()
        #expect(try f.store.read { try $0.modes(f.user) }.map(\.modeID) == ["mode_work"])
        #expect(try f.store.read { try $0.modeWindows(f.user, modeID: "mode_work") }.map(\.windowID) == ["w1"])
        #expect(try f.store.read { try $0.blockedApps(f.user, modeID: "mode_work") } == [f.instagram, f.tiktok])
        // Saving a mode again replaces its windows and blocked apps.
        try f.store.saveMode(
            Mode(userID: f.user, modeID: "mode_work", name: "Deep work", strictness: .hard, createdAt: f.now, updatedAt: f.now + 1),
            blockedApps: [f.tiktok])
        #expect(try f.store.read { try $0.modeWindows(f.user, modeID: "mode_work") }.isEmpty)
        #expect(try f.store.read { try $0.blockedApps(f.user, modeID: "mode_work") } == [f.tiktok])
        #expect(try f.store.read { try $0.modes(f.user) }.first?.strictness == .hard)
        #expect(try f.store.read { try $0.habits(f.user) }.map(\.habitID) == ["habit_read", "habit_walk"])
        try f.store.setDistractingApps(f.user, [f.tiktok, f.instagram, f.tiktok], now: f.now)
        #expect(try f.store.read { try $0.distractingApps(f.user) } == [f.instagram, f.tiktok])
        try f.store.saveAppInfo(
            AppInfo(
                userID: f.user, appID: f.instagram, displayName: "Instagram", iconURI: "content://icon",
                createdAt: f.now, updatedAt: f.now))
        try expectUnchanged(f.store) {
            try f.store.saveAppInfo(AppInfo(userID: f.user, appID: f.tiktok, iconURI: "content://icon", createdAt: f.now, updatedAt: f.now))
        }
        var settings = EarnedSettings.defaults(timezoneID: "Europe/Paris")
        settings.creditCosts.minutes30 = 60
        try f.store.saveEarnedSettings(f.user, settings, now: f.now)
        #expect(try f.store.read { try $0.earnedSettings(f.user) } == settings)
        settings.creditCosts.minutes15 = 5
        try expectUnchanged(f.store) { try f.store.saveEarnedSettings(f.user, settings, now: f.now) }
        try f.store.saveEntitlement(EntitlementState(userID: f.user, tier: .pro, subscriptionActive: true, updatedAt: f.now))
        #expect(try f.store.read { try $0.entitlement(f.user) }.tier == .pro)
    }

    @Test func historyQueriesCoverTheirPeriodsExactly() throws {
        let f = try Fixture()
        try f.setUpEarned()
        var day = f.day
        for index in 0..<4 {
            if index > 0 {
                day = day.adding(days: 1)!
                try f.store.rollOverDay(
                    DayRollover(userID: f.user, toDayID: day, carriedCredits: 0, timezoneID: "UTC", at: day.utcStartMillis))
            }
            let at = day.utcStartMillis + 8 * Millis.hour
            try f.store.recordHabitCompletion(
                HabitCompletionRecord(
                    completion: HabitCompletion(
                        userID: f.user, completionID: "c\(index)", habitID: "habit_read", timestamp: at, timezoneID: "UTC", dayID: day,
                        awardedCredits: 5, createdAt: at)))
            try f.store.startFocusSession(
                FocusSession(
                    userID: f.user, sessionID: "s\(index)", startedAt: at, timezoneID: "UTC", dayID: day,
                    plannedDurationMinutes: 25, createdAt: at, updatedAt: at))
            try f.store.completeFocusSession(
                FocusCompletion(
                    userID: f.user, sessionID: "s\(index)", endedAt: at + Millis.minute, actualMinutes: 1,
                    completed: false, awardedCredits: 0, qualifies: false))
        }
        let last = day
        #expect(
            try f.store.read { try $0.daySummaries(f.user, lastDays: 2, endingOn: last) }.map(\.dayID) == [last.adding(days: -1)!, last])
        #expect(
            try f.store.read { try $0.habitCompletions(f.user, fromDay: f.day.adding(days: 1)!, toDay: last) }.map(\.completionID)
                == ["c1", "c2", "c3"])
        let start = f.day.utcStartMillis
        #expect(try f.store.read { try $0.habitCompletions(f.user, from: start, to: start + Millis.day) }.map(\.completionID) == ["c0"])
        #expect(try f.store.read { try $0.focusSessions(f.user, fromDay: last, toDay: last) }.map(\.sessionID) == ["s3"])
        let rollovers = try f.store.read { try $0.events(f.user, from: 0, to: .max, type: .dayRollover) }
        #expect(rollovers.map(\.dayID) == (1...3).map { f.day.adding(days: $0)! })
        #expect(
            try f.store.read { try $0.events(f.user, from: start, to: start + Millis.day) }.map(\.type)
                == [.creditsEarned, .focusStarted, .focusEnded])
        #expect(try f.store.checkInvariants() == [])
    }

    @Test func usersOfOneFileCannotTouchEachOther() throws {
        let f = try Fixture()
        try f.setUpEarned(credits: 50)
        let other = UserID(2)
        try f.store.createUser(other, day: f.day, now: f.now)
        try f.store.createUnlockAttempt(f.attempt("a1"))
        try expectUnchanged(f.store) {
            try f.store.grantCreditsUnlock(CreditsUnlock(userID: other, attemptID: "a1", minutes: 5, costCredits: 1, at: f.now))
        }
        try expectUnchanged(f.store) { try f.store.denyUnlockAttempt(other, attemptID: "a1", reason: .cooldownActive, at: f.now) }
        try expectUnchanged(f.store) {
            try f.store.saveMode(
                Mode(userID: other, modeID: "mode_work", name: "Mine now", strictness: .gentle, createdAt: f.now, updatedAt: f.now))
        }
        try expectUnchanged(f.store) {
            try f.store.recordHabitCompletion(
                HabitCompletionRecord(
                    completion: HabitCompletion(
                        userID: other, completionID: "cx", habitID: "habit_read", timestamp: f.now, timezoneID: "UTC", dayID: f.day,
                        createdAt: f.now)))
        }
        var foreign = f.attempt("a2")
        foreign.userID = other
        try expectUnchanged(f.store) { try f.store.createUnlockAttempt(foreign) }  // mode_work is user 1's
        #expect(try f.store.read { try $0.unlockAttempt(other, attemptID: "a1") } == nil)
        #expect(try f.store.read { try $0.economyState(other) }.creditBalance == 0)
        try f.store.closeUnlockAttempt(f.user, attemptID: "a1", outcome: .cancelled, at: f.now + 1)
        #expect(try f.store.read { try $0.unlockAttempt(f.user, attemptID: "a1") }?.outcome == .cancelled)
        try expectUnchanged(f.store) { try f.store.closeUnlockAttempt(f.user, attemptID: "a1", outcome: .expired, at: f.now + 2) }
        #expect(try f.store.checkInvariants() == [])
    }
}

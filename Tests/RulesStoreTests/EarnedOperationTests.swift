import Foundation
@testable import RulesStore
import RulesModel
import Testing

@Suite struct EarnedOperationTests {
    @Test func dayRolloverCarriesCreditsResetsTodayAndLogsTheEvent() throws {
        let f = try Fixture()
        try f.setUpEarned(credits: 25)
        try f.raw(
            "UPDATE economy_state SET today_qualified = 1, today_focus_qualified = 1, today_habit_qualified_count = 2, streak_count = 4")
        let next = f.day.adding(days: 1)!
        try f.store.rollOverDay(
            DayRollover(userID: f.user, toDayID: next, carriedCredits: 10, timezoneID: "UTC", at: next.utcStartMillis + 4 * Millis.hour))
        let economy = try f.store.read { try $0.economyState(f.user) }
        #expect(economy.currentDayID == next && economy.creditBalance == 10 && economy.streakCount == 4)
        #expect(!economy.todayQualified && !economy.todayFocusQualified && economy.todayHabitQualifiedCount == 0)
        #expect(try f.store.read { try $0.daySummaries(f.user, lastDays: 1, endingOn: next) }.map(\.dayID) == [next])
        #expect(try f.events() == [#"DAY_ROLLOVER {"carried_credits":10,"from_day_id":"2026-02-01","to_day_id":"2026-02-02"}"#])
        #expect(try f.store.checkInvariants().isEmpty)
    }

    @Test func dayRolloverRefusesGoingBackOrCreatingCredits() throws {
        let f = try Fixture()
        try f.setUpEarned(credits: 5)
        try expectUnchanged(f.store) {
            try f.store.rollOverDay(DayRollover(userID: f.user, toDayID: f.day, carriedCredits: 0, timezoneID: "UTC", at: f.now))
        }
        try expectUnchanged(f.store) {
            try f.store.rollOverDay(
                DayRollover(userID: f.user, toDayID: f.day.adding(days: 1)!, carriedCredits: 6, timezoneID: "UTC", at: f.now))
        }
    }

    @Test func unlockAttemptIsCountedAndLogged() throws {
        let f = try Fixture()
        try f.setUpEarned()
        try f.store.createUnlockAttempt(f.attempt("a1"))
        #expect(try f.store.read { try $0.daySummaries(f.user, lastDays: 1, endingOn: f.day) }.first?.unlockAttemptsCount == 1)
        #expect(try f.store.read { try $0.unlockAttemptCounts(f.user, on: f.day) } == [f.instagram: 1])
        #expect(
            try f.events() == [
                #"UNLOCK_ATTEMPT_CREATED {"app_id":"android:com.instagram.android","attempt_id":"a1","mode_id":"mode_work","strictness":"STRICT"}"#
            ])
        let stored = try #require(try f.store.read { try $0.unlockAttempt(f.user, attemptID: "a1") })
        #expect(stored == f.attempt("a1"))
    }

    @Test func creditsUnlockSpendsGrantsAndExtendsTheCurrentGrant() throws {
        let f = try Fixture()
        try f.setUpEarned(credits: 40)
        try f.store.createUnlockAttempt(f.attempt("a1"))
        let grant = try f.store.grantCreditsUnlock(CreditsUnlock(userID: f.user, attemptID: "a1", minutes: 5, costCredits: 10, at: f.now))
        #expect(grant.grantID == "a1.grant" && grant.startsAt == f.now && grant.endsAt == f.now + 5 * Millis.minute)
        #expect(try f.store.read { try $0.economyState(f.user) }.creditBalance == 30)
        let attempt = try #require(try f.store.read { try $0.unlockAttempt(f.user, attemptID: "a1") })
        #expect(attempt.outcome == .granted && attempt.grantID == "a1.grant" && attempt.chosenOptionType == .creditsUnlock)
        #expect(
            Array(try f.events().dropFirst()) == [
                #"UNLOCK_OPTION_SELECTED {"attempt_id":"a1","option_payload":{"cost_credits":10,"minutes":5},"option_type":"CREDITS_UNLOCK"}"#,
                #"CREDITS_SPENT {"amount":10,"app_id":"android:com.instagram.android","attempt_id":"a1","unlock_minutes":5}"#,
                #"UNLOCK_GRANTED {"app_id":"android:com.instagram.android","attempt_id":"a1","ends_ts_utc_ms":1769940300000,"grant_id":"a1.grant","method":"CREDITS","starts_ts_utc_ms":1769940000000}"#,
            ])
        // A second unlock while the grant runs extends it (A6.3).
        let later = f.now + 2 * Millis.minute
        try f.store.createUnlockAttempt(f.attempt("a2", at: later))
        let extended = try f.store.grantCreditsUnlock(
            CreditsUnlock(userID: f.user, attemptID: "a2", minutes: 15, costCredits: 25, at: later))
        #expect(extended.grantID == "a1.grant" && extended.endsAt == f.now + 20 * Millis.minute)
        #expect(try f.count("unlock_grant") == 1 && f.count("unlock_grant_extension", "grant_id = 'a1.grant' AND added_minutes = 15") == 1)
        #expect(try f.store.read { try $0.unlockAttempt(f.user, attemptID: "a2") }?.grantID == "a1.grant")
        let summary = try #require(try f.store.read { try $0.daySummaries(f.user, lastDays: 1, endingOn: f.day) }.first)
        #expect(summary.creditsSpent == 35 && summary.creditsUnlocksCount == 2 && summary.unlockAttemptsCount == 2)
        #expect(try f.store.read { try $0.activeGrants(f.user, at: later) }.map(\.grantID) == ["a1.grant"])
        #expect(try f.store.checkInvariants().isEmpty)
    }

    @Test func creditsUnlockRefusesWhatItCannotPayOrApply() throws {
        let f = try Fixture()
        try f.setUpEarned(credits: 8)
        try f.store.createUnlockAttempt(f.attempt("a1"))
        try expectUnchanged(f.store) {
            try f.store.grantCreditsUnlock(CreditsUnlock(userID: f.user, attemptID: "a1", minutes: 5, costCredits: 10, at: f.now))
        }
        try expectUnchanged(f.store) {
            try f.store.grantCreditsUnlock(CreditsUnlock(userID: f.user, attemptID: "missing", minutes: 5, costCredits: 1, at: f.now))
        }
        try f.store.denyUnlockAttempt(f.user, attemptID: "a1", reason: .insufficientCredits, at: f.now)
        #expect(try f.events().last == #"UNLOCK_DENIED {"attempt_id":"a1","reason":"INSUFFICIENT_CREDITS"}"#)
        let error = try #require(throws: StoreError.self) {
            try f.store.grantCreditsUnlock(CreditsUnlock(userID: f.user, attemptID: "a1", minutes: 5, costCredits: 1, at: f.now))
        }
        #expect(error.code == .invalidState && error.message.contains("DENIED"))
    }

    @Test func questCompletionGrantsAndCountsTheDailyLimit() throws {
        let f = try Fixture()
        try f.setUpEarned()
        try f.store.createUnlockAttempt(f.attempt("a1"))
        try f.store.startQuest(
            QuestSession(
                userID: f.user, questSessionID: "q1", attemptID: "a1", questType: .breathing, createdAt: f.now,
                expiresAt: f.now + 10 * Millis.minute, updatedAt: f.now))
        let grant = try f.store.completeQuest(
            QuestCompletion(userID: f.user, questSessionID: "q1", unlockMinutes: 5, at: f.now + Millis.minute))
        #expect(grant.method == .quest)
        let limits = try f.store.read { try $0.dailyAppLimits(f.user, day: f.day, appID: f.instagram) }
        #expect(limits.questGrantsCount == 1 && limits.lastQuestGrantStartAt == f.now + Millis.minute)
        #expect(try f.store.read { try $0.questSession(f.user, id: "q1") }?.state == .completed)
        #expect(
            try f.events().map { String($0.prefix(while: { $0 != " " })) }
                == ["UNLOCK_ATTEMPT_CREATED", "UNLOCK_OPTION_SELECTED", "QUEST_STARTED", "QUEST_COMPLETED", "UNLOCK_GRANTED"])
        #expect(try f.store.read { try $0.daySummaries(f.user, lastDays: 1, endingOn: f.day) }.first?.questUnlocksCount == 1)
        #expect(try f.store.checkInvariants().isEmpty)
    }

    @Test(arguments: [QuestSessionState.failed, .cancelled, .expired])
    func questThatDoesNotCompleteNeverCountsTowardsTheLimit(state: QuestSessionState) throws {
        let f = try Fixture()
        try f.setUpEarned()
        try f.store.createUnlockAttempt(f.attempt("a1"))
        try f.store.startQuest(
            QuestSession(
                userID: f.user, questSessionID: "q1", attemptID: "a1", questType: .copyText, createdAt: f.now,
                expiresAt: f.now + 10 * Millis.minute, updatedAt: f.now))
        try f.store.endQuest(
            f.user, questSessionID: "q1", state: state, reason: state == .failed ? .mismatch : nil, at: f.now + Millis.minute)
        #expect(try f.count("daily_app_limits") == 0)
        let expected =
            switch state {
            case .failed: #"QUEST_FAILED {"attempt_id":"a1","quest_session_id":"q1","quest_type":"COPY_TEXT","reason":"MISMATCH"}"#
            case .cancelled: #"QUEST_CANCELLED {"attempt_id":"a1","quest_session_id":"q1","quest_type":"COPY_TEXT"}"#
            default: #"QUEST_EXPIRED {"attempt_id":"a1","quest_session_id":"q1","quest_type":"COPY_TEXT"}"#
            }
        #expect(try f.events().last == expected)
        try expectUnchanged(f.store) {
            try f.store.completeQuest(
                QuestCompletion(userID: f.user, questSessionID: "q1", unlockMinutes: 5, at: f.now + 2 * Millis.minute))
        }
    }

    @Test func expiredQuestCannotComplete() throws {
        let f = try Fixture()
        try f.setUpEarned()
        try f.store.createUnlockAttempt(f.attempt("a1"))
        try f.store.startQuest(
            QuestSession(
                userID: f.user, questSessionID: "q1", attemptID: "a1", questType: .qrScan, createdAt: f.now,
                expiresAt: f.now + Millis.minute, updatedAt: f.now))
        try expectUnchanged(f.store) {
            try f.store.completeQuest(QuestCompletion(userID: f.user, questSessionID: "q1", unlockMinutes: 5, at: f.now + Millis.minute))
        }
    }

    @Test func emergencyUnlockStartsAfterTheDelayAndCountsUses() throws {
        let f = try Fixture()
        try f.setUpEarned()
        try f.store.createUnlockAttempt(f.attempt("a1"))
        let grant = try f.store.grantEmergencyUnlock(
            EmergencyUnlock(userID: f.user, attemptID: "a1", delaySeconds: 60, unlockMinutes: 5, at: f.now))
        #expect(grant.startsAt == f.now + 60_000 && grant.endsAt == f.now + 360_000 && grant.method == .emergency)
        let emergency = try f.store.read { try $0.emergencyState(f.user) }
        #expect(emergency.usedCountToday == 1 && emergency.lastUsedDayID == f.day && emergency.lastAppIDUsed == f.instagram)
        #expect(
            try f.events().map { String($0.prefix(while: { $0 != " " })) }
                == ["UNLOCK_ATTEMPT_CREATED", "UNLOCK_OPTION_SELECTED", "EMERGENCY_USED", "UNLOCK_GRANTED"])
        #expect(
            try f.events()[2]
                == #"EMERGENCY_USED {"app_id":"android:com.instagram.android","attempt_id":"a1","delay_seconds":60,"unlock_minutes":5}"#)
        #expect(try f.store.read { try $0.activeGrants(f.user, at: f.now) }.isEmpty)
        #expect(try f.store.read { try $0.activeGrants(f.user, at: f.now + 61_000) }.map(\.grantID) == ["a1.grant"])
        #expect(try f.store.read { try $0.daySummaries(f.user, lastDays: 1, endingOn: f.day) }.first?.emergencyUnlocksCount == 1)
    }

    @Test func focusCompletionAwardsCreditsAndQualifiesTheStreak() throws {
        let f = try Fixture()
        try f.setUpEarned()
        let session = FocusSession(
            userID: f.user, sessionID: "s1", startedAt: f.now, timezoneID: "UTC", dayID: f.day,
            plannedDurationMinutes: 25, createdAt: f.now, updatedAt: f.now)
        try f.store.startFocusSession(session, blockedApps: [f.instagram])
        #expect(try f.store.read { try $0.focusState(f.user) }.activeSessionID == "s1")
        try expectUnchanged(f.store) { try f.store.startFocusSession(session) }
        let end = f.now + 25 * Millis.minute
        try f.store.completeFocusSession(
            FocusCompletion(
                userID: f.user, sessionID: "s1", endedAt: end, actualMinutes: 25, completed: true,
                awardedCredits: 10, qualifies: true,
                streak: StreakUpdate(method: .focus, newStreakCount: 3, bonusCredits: 10)))
        let economy = try f.store.read { try $0.economyState(f.user) }
        #expect(economy.creditBalance == 20 && economy.streakCount == 3 && economy.todayQualified && economy.todayFocusQualified)
        #expect(economy.streakBonusAwardedDayID == f.day)
        #expect(try f.store.read { try $0.focusState(f.user) }.activeSessionID == nil)
        let summary = try #require(try f.store.read { try $0.daySummaries(f.user, lastDays: 1, endingOn: f.day) }.first)
        #expect(summary.qualified && summary.firstQualifiedAt == end && summary.focusMinutesCompleted == 25 && summary.creditsEarned == 20)
        #expect(
            Array(try f.events().dropFirst()) == [
                #"FOCUS_ENDED {"actual_minutes":25,"completed":true,"ended_early":false,"session_id":"s1"}"#,
                #"CREDITS_EARNED {"amount":10,"focus_session_id":"s1","habit_id":null,"source":"FOCUS"}"#,
                #"STREAK_QUALIFIED {"day_id":"2026-02-01","first_qualified_ts_utc_ms":1769941500000,"method":"FOCUS","streak_count_new":3}"#,
                #"STREAK_BONUS_AWARDED {"amount":10,"day_id":"2026-02-01","streak_count":3}"#,
                #"CREDITS_EARNED {"amount":10,"focus_session_id":null,"habit_id":null,"source":"STREAK_BONUS"}"#,
            ])
        #expect(try f.store.checkInvariants().isEmpty)
    }

    @Test func habitCompletionEarnsOncePerDayAndSuspends() throws {
        let f = try Fixture()
        try f.setUpEarned()
        func completion(_ id: String, habit: String, suspended: Bool = false) -> HabitCompletion {
            HabitCompletion(
                userID: f.user, completionID: id, habitID: habit, timestamp: f.now, timezoneID: "UTC", dayID: f.day,
                awardedCredits: suspended ? 0 : 5, awardSuspended: suspended, createdAt: f.now)
        }
        try f.store.recordHabitCompletion(
            HabitCompletionRecord(
                completion: completion("c1", habit: "habit_read"),
                streak: StreakUpdate(method: .habits, newStreakCount: 1),
                suspendAwardsUntil: f.day.adding(days: 1)))
        let economy = try f.store.read { try $0.economyState(f.user) }
        #expect(
            economy.creditBalance == 5 && economy.todayHabitQualifiedCount == 1
                && economy.habitAwardsSuspendedUntilDayID == f.day.adding(days: 1))
        #expect(
            Array(try f.events()) == [
                #"CREDITS_EARNED {"amount":5,"focus_session_id":null,"habit_id":"habit_read","source":"HABIT"}"#,
                #"STREAK_QUALIFIED {"day_id":"2026-02-01","first_qualified_ts_utc_ms":1769940000000,"method":"HABITS","streak_count_new":1}"#,
                #"HABIT_AWARD_SUSPENDED {"reason":"TOO_MANY_COMPLETIONS_IN_WINDOW","until_day_id":"2026-02-02"}"#,
            ])
        // A5.4: one completion per habit and day.
        try expectUnchanged(f.store) {
            try f.store.recordHabitCompletion(HabitCompletionRecord(completion: completion("c2", habit: "habit_read")))
        }
        // While suspended, a completion must not award.
        try expectUnchanged(f.store) {
            try f.store.recordHabitCompletion(HabitCompletionRecord(completion: completion("c3", habit: "habit_walk")))
        }
        try f.store.recordHabitCompletion(HabitCompletionRecord(completion: completion("c3", habit: "habit_walk", suspended: true)))
        #expect(try f.store.read { try $0.economyState(f.user) }.creditBalance == 5)
        #expect(try f.store.checkInvariants().isEmpty)
    }

    @Test func questThatExtendsACreditsGrantIsLoggedAsAQuestUnlock() throws {
        let f = try Fixture()
        try f.setUpEarned(credits: 10)
        try f.store.createUnlockAttempt(f.attempt("a1"))
        try f.store.grantCreditsUnlock(CreditsUnlock(userID: f.user, attemptID: "a1", minutes: 5, costCredits: 10, at: f.now))
        try f.store.createUnlockAttempt(f.attempt("a2", at: f.now + 1))
        try f.store.startQuest(
            QuestSession(
                userID: f.user, questSessionID: "q2", attemptID: "a2", questType: .breathing, createdAt: f.now + 1,
                expiresAt: f.now + Millis.hour, updatedAt: f.now + 1))
        let grant = try f.store.completeQuest(QuestCompletion(userID: f.user, questSessionID: "q2", unlockMinutes: 5, at: f.now + 2))
        #expect(grant.grantID == "a1.grant" && grant.method == .credits && grant.endsAt == f.now + 10 * Millis.minute)
        #expect(
            try f.events().last
                == #"UNLOCK_GRANTED {"app_id":"android:com.instagram.android","attempt_id":"a2","ends_ts_utc_ms":1769940600000,"grant_id":"a1.grant","method":"QUEST","starts_ts_utc_ms":1769940000000}"#
        )
        #expect(try f.json("SELECT method FROM unlock_grant_extension") == ["QUEST"])
        #expect(try f.store.checkInvariants() == [])
    }
}

import Foundation
@testable import RulesStore
import RulesModel

extension Fixture {
    var instagram: AppID { try! AppID.parse("android:com.instagram.android") }
    var tiktok: AppID { try! AppID.parse("iosToken:AbCDeF123") }

    func options(for app: AppID, strictness: Strictness = .strict, at: EpochMillis) -> AvailableOptions {
        AvailableOptions(
            generatedAt: at, modeID: "mode_work", modeStrictness: strictness, appID: app,
            options: [
                .credits(
                    enabled: true, disabledReason: nil,
                    durations: [
                        .init(minutes: 5, costCredits: 10, enabled: true),
                        .init(minutes: 15, costCredits: 25, enabled: false, disabledReason: .insufficientCredits),
                    ]),
                .quest(enabled: true, disabledReason: nil, questTypes: [.init(questType: .breathing, enabled: true)]),
                .emergency(enabled: true, disabledReason: nil, delaySeconds: 60, unlockMinutes: 5),
            ])
    }

    func attempt(_ id: String, app: AppID? = nil, at: EpochMillis? = nil, day: DayID? = nil) -> UnlockAttempt {
        let app = app ?? instagram
        let at = at ?? now
        return UnlockAttempt(
            userID: user, attemptID: id, appID: app, timestamp: at, timezoneID: "UTC", dayID: day ?? self.day,
            effectiveModeID: "mode_work", effectiveStrictness: .strict, availableOptions: options(for: app, at: at),
            createdAt: at, updatedAt: at)
    }

    /// A mode and a habit for the Earned tests, and `credits` in the balance.
    func setUpEarned(credits: Int = 0) throws {
        try store.saveMode(
            Mode(userID: user, modeID: "mode_work", name: "Work", strictness: .strict, createdAt: now, updatedAt: now),
            windows: [
                ModeWindow(
                    userID: user, windowID: "w1", modeID: "mode_work", daysOfWeekMask: 31,
                    startLocal: LocalTime(hour: 9, minute: 0), endLocal: LocalTime(hour: 17, minute: 0),
                    createdAt: now, updatedAt: now)
            ],
            blockedApps: [instagram, tiktok])
        try store.saveHabit(Habit(userID: user, habitID: "habit_read", name: "Read", rewardCredits: 5, createdAt: now, updatedAt: now))
        try store.saveHabit(Habit(userID: user, habitID: "habit_walk", name: "Walk", rewardCredits: 5, createdAt: now, updatedAt: now))
        if credits > 0 { try raw("UPDATE economy_state SET credit_balance = ? WHERE user_id = 1", [credits]) }
    }

    func events() throws -> [String] {
        try json("SELECT type || ' ' || payload_json FROM event_log WHERE user_id = 1 ORDER BY rowid")
    }
}

import Foundation
import RulesEngine
import RulesModel
import Testing

/// `EngineEvent.jsonLine`, the replay line of an event (simulate's failure replays): the parser
/// reads it back as the same event, for every kind.
@Suite struct EventLineTests {
    @Test func everyKindOfEventReadsBackAsItself() throws {
        let at = Timestamp(millis: try DayID("2026-03-02").utcStartMillis + 9 * Millis.hour)
        let app = try #require(AppID(rawValue: "android:com.instagram.android"))
        let kinds: [EngineEvent.Kind] = [
            .settings(
                SettingsChange(
                    commitmentDeadline: try LocalTime("09:30"), checkinWindowClose: try LocalTime("23:59"),
                    timezone: "Europe/Paris", personalityMode: .brutal, notificationsEnabled: false)),
            .settings(SettingsChange(timezone: "America/New_York")),
            .subscription(tier: .paid, expiresAt: Timestamp(millis: at.millis + Millis.day)), .subscription(tier: .free, expiresAt: nil),
            .commitment(text: "Ship \"it\" — today\n"), .checkIn(.yes), .checkIn(.no), .shield, .tick,
            .habitTask(
                HabitTaskDefinition(
                    task: "read", title: "Read", measurement: .daily, frequency: .daily, timesPerDay: 2, scheduledDays: [1, 3])),
            .habitTask(HabitTaskDefinition(task: "walk")),
            .habitCompletion(task: "read", value: 2.5), .habitCompletion(task: "read", value: nil),
            .habitTask(
                HabitTaskDefinition(
                    task: "gym", frequency: .timesInDays, times: 3, days: 7, goalType: .time, goalValue: 45.5,
                    goalUnit: "min", goalDirection: .atMost, startDate: try DayID("2026-03-01"),
                    params: ["freeze_max": .integer(2), "ratio": .number(0.25), "strict": .boolean(true), "mode": .string("hard")])),
            .habitTask(HabitTaskDefinition(task: "plants", frequency: .everyNDays, every: 3)),
            .habitTask(HabitTaskDefinition(task: "rent", frequency: .daysOfMonth, daysOfMonth: [1, 31])),
            .settings(SettingsChange(dayStartsAt: try LocalTime("04:30"))),
            .habitCompletion(task: "read", value: nil, forDay: try DayID("2026-03-01")),
            .habitSkip(task: "read", day: nil), .habitSkip(task: "read", day: try DayID("2026-03-09")),
            .habitFreeze(task: "read", action: .use, day: try DayID("2026-03-01")), .habitFreeze(task: "read", action: .equip, day: nil),
            .habitUncheck(task: "read", day: nil), .habitUncheck(task: "read", day: try DayID("2026-03-01")),
            .miga(.exitToFocus, app: "Instagram", pauseSeconds: 12.5), .miga(.proceedToApp, app: "Instagram", pauseSeconds: nil),
            .earned(
                .mode(
                    ModeDefinition(
                        mode: "work", name: "Work", priority: 2, strictness: .strict,
                        windows: [.init(days: [1, 2], start: try LocalTime("09:00"), end: try LocalTime("17:00"))],
                        blockedApps: [app], deleted: false))),
            .earned(.modeOverride(mode: "work", state: .forcedOn, until: Timestamp(millis: at.millis + Millis.hour))),
            .earned(.distractingApps([app])), .earned(.qrKey("desk")), .earned(.qrKey(nil)),
            .earned(.habit(EarnedHabitDefinition(habit: "stretch", name: "Stretch", rewardCredits: 5, active: true))),
            .earned(.habitCompletion(habit: "stretch")),
            .earned(.focusStart(FocusStart(minutes: 25, label: "deep", strict: false, blockedApps: [app]))), .earned(.focusEnd),
            .earned(.unlockOpen(app: app)), .earned(.unlockChoose(app: app, .credits(minutes: 15))),
            .earned(.unlockChoose(app: app, .quest(.breathing))), .earned(.unlockChoose(app: app, .emergency)),
            .earned(.unlockCancel(app: app)), .earned(.questComplete(app: app)), .earned(.questFail(app: app, reason: .mismatch)),
            .earned(.questCancel(app: app)),
        ]
        for kind in kinds {
            let event = EngineEvent(at: at, user: "u17", kind: kind)
            #expect(try EngineEvent.parse(event.jsonLine) == event, "\(event.jsonLine)")
        }
    }
}

import Foundation
@testable import RulesStore
import RulesModel
import Testing

@Suite struct MigaStoreTests {
    @Test func usageEventsAreValidatedAndCountedPerLocalDay() throws {
        let f = try Fixture()
        let base = f.day.utcStartMillis
        // 23:30 UTC is the next local day at UTC+1.
        let times: [(Int64, UsageEventType, String)] = [
            (10 * Millis.hour, .exitToFocus, "Instagram"), (11 * Millis.hour, .proceedToApp, "Instagram"),
            (23 * Millis.hour + 30 * Millis.minute, .exitToFocus, "TikTok"),
        ]
        for (offset, type, app) in times {
            try f.store.recordUsageEvent(
                UsageEvent(
                    userID: f.user, eventType: type, timestamp: base + offset, targetAppName: app,
                    pauseDuration: 10, timerDuration: 30))
        }
        try expectUnchanged(f.store) {
            try f.store.recordUsageEvent(
                UsageEvent(
                    userID: f.user, eventType: .proceedToApp, timestamp: base, targetAppName: "",
                    pauseDuration: 1, timerDuration: 30))
        }
        try expectUnchanged(f.store) {
            try f.store.recordUsageEvent(
                UsageEvent(
                    userID: f.user, eventType: .exitToFocus, timestamp: base, targetAppName: "X",
                    pauseDuration: 31, timerDuration: 30))
        }
        let counts = try f.store.read {
            try $0.usageCountsPerDay(f.user, fromDay: f.day, toDay: f.day.adding(days: 1)!, utcOffsetMinutes: 60)
        }
        #expect(
            counts == [
                UsageDayCount(day: f.day, eventType: .exitToFocus, targetAppName: "Instagram", count: 1, pauseSeconds: 10),
                UsageDayCount(day: f.day, eventType: .proceedToApp, targetAppName: "Instagram", count: 1, pauseSeconds: 10),
                UsageDayCount(day: f.day.adding(days: 1)!, eventType: .exitToFocus, targetAppName: "TikTok", count: 1, pauseSeconds: 10),
            ])
        let exits = try f.store.read { try $0.usageEvents(f.user, from: base, to: base + Millis.day, type: .exitToFocus) }
        #expect(exits.map(\.targetAppName) == ["Instagram", "TikTok"])
    }

    @Test func selectedAppsAndSettings() throws {
        let f = try Fixture()
        let app = SelectedApp(
            userID: f.user, appName: "Instagram", urlScheme: "instagram://", iconName: "camera", dateAdded: f.now, orderIndex: 0)
        try f.store.saveSelectedApp(app)
        try expectUnchanged(f.store) {
            try f.store.saveSelectedApp(
                SelectedApp(userID: f.user, appName: "Bad", urlScheme: "not a scheme", iconName: "x", dateAdded: f.now, orderIndex: 1))
        }
        #expect(try f.store.read { try $0.selectedApps(f.user) } == [app])
        let settings = MigaSettings(
            frePhase: .phase1Complete, gatewayTimerDuration: 45, determinationLevel: 9, selectedInterestTags: ["stoicism"])
        try f.store.saveMigaSettings(f.user, settings, now: f.now)
        #expect(try f.store.read { try $0.migaSettings(f.user) } == settings)
        try expectUnchanged(f.store) { try f.store.saveMigaSettings(f.user, MigaSettings(gatewayTimerDuration: 14.5), now: f.now) }
    }
}

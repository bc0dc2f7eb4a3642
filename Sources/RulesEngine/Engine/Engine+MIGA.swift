import Foundation
import RulesModel
import RulesStore

/// MIGA's gateway events and the exit-to-focus streak.
extension Engine {
    /// Days of history the MIGA streak looks back over (its retention is 90 days).
    static let migaHistoryDays = 90

    func recordGateway(_ type: UsageEventType, app: String, pauseSeconds: Double?, _ context: inout UserContext, at now: EpochMillis,
                       _ decisions: inout Decisions) throws {
        let settings = try store.read { try $0.migaSettings(context.userID) }
        let timer = settings.gatewayTimerDuration
        let sameInstant = try store.read { try $0.usageEvents(context.userID, from: now, to: now + 1) }.count
        let event = UsageEvent(id: DeterministicID.uuid("usage", context.name, String(now), String(sameInstant)), userID: context.userID,
                               eventType: type, timestamp: now, targetAppName: app, pauseDuration: pauseSeconds ?? timer, timerDuration: timer)
        do { try event.validate() } catch { throw EngineError(.invalidEvent, "\(error)") }
        try store.recordUsageEvent(event)
        decisions.set("miga", .object([("event", .string(type.rawValue)), ("app", .string(app)),
                                       ("current_streak", .int(try migaStreak(context, at: now)))]))
    }

    /// The current streak of days with the counting event, today first.
    func migaStreak(_ context: UserContext, at now: EpochMillis) throws -> Int {
        let clock = try LocalClock(timeZoneID: context.settings.timezoneIdentifier, dayStartsAt: rules.parameters.migaDayStartsAt)
        let today = clock.day(of: now)
        let first = today.adding(days: -(Engine.migaHistoryDays - 1))!
        let events = try store.read { try $0.usageEvents(context.userID, from: clock.start(of: first), to: now + 1, type: .exitToFocus) }
        var exits = [Int](repeating: 0, count: Engine.migaHistoryDays)
        for event in events {
            let back = clock.day(of: event.timestamp).days(to: today)
            if (0..<exits.count).contains(back) { exits[back] += 1 }
        }
        let streak = try rules.migaStreak(exits)
        guard (0...exits.count).contains(streak) else {
            throw EngineError(.ruleViolation, "miga.current_streak returned \(streak) for \(exits.count) days")
        }
        return streak
    }
}

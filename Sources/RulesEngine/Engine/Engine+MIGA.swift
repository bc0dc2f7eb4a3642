import Foundation
import RulesModel
import RulesStore

/// MIGA's gateway events and the exit-to-focus streak.
extension Engine {
    /// Days of history the MIGA streak looks back over (its retention is 90 days).
    static let migaHistoryDays = 90

    /// Seconds as a message shows them: `30`, `2.5`, `1e+300`.
    static func seconds(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x) }

    func recordGateway(
        _ type: UsageEventType, app: String, pauseSeconds: Double?, _ context: inout UserContext, at now: EpochMillis,
        _ decisions: inout Decisions
    ) throws {
        let timer = try context.cache.gatewayTimer ?? context.storage.migaSettings(context.userID).gatewayTimerDuration
        context.cache.gatewayTimer = timer
        let sameInstant: Int
        if let last = context.cache.lastGateway, last.at <= now {
            sameInstant = last.at == now ? last.count : 0
        } else {
            sameInstant = try context.storage.usageEvents(context.userID, from: now, to: now + 1).count
        }
        let event = UsageEvent(
            id: RecordedBookkeeping.usageID(user: context.name, at: now, index: sameInstant), userID: context.userID,
            eventType: type, timestamp: now, targetAppName: app, pauseDuration: pauseSeconds ?? timer, timerDuration: timer)
        if let pauseSeconds, !(0...timer).contains(pauseSeconds) {
            throw EngineError(
                .invalidEvent,
                "pause_seconds: expected 0–\(Engine.seconds(timer)) seconds (the gateway timer), found \(Engine.seconds(pauseSeconds))")
        }
        do { try event.validate() } catch { throw EngineError(.invalidEvent, error, fields: ["targetAppName": "app"]) }
        // The exits before this event, so that the cache then counts this one exactly once.
        let clock = try migaClock(context)
        try loadExits(&context, clock: clock, at: now)
        try context.storage.recordUsageEvent(event)
        context.cache.lastGateway = (now, sameInstant + 1)
        if type == .exitToFocus { context.cache.exitsByDay![clock.day(of: now), default: 0] += 1 }
        decisions.set(.miga(event: type, app: app, currentStreak: try migaStreak(context, at: now)))
    }

    /// The current streak of days with the counting event, today first.
    func migaStreak(_ context: UserContext, at now: EpochMillis) throws -> Int {
        let clock = try migaClock(context)
        let today = clock.day(of: now)
        let first = today.adding(days: -(Engine.migaHistoryDays - 1))!
        var exits = [Int](repeating: 0, count: Engine.migaHistoryDays)
        if let cached = context.cache.exitsByDay, let from = context.cache.exitsFrom, from <= first {
            for (day, count) in cached {
                let back = day.days(to: today)
                if (0..<exits.count).contains(back) { exits[back] += count }
            }
        } else {
            let events = try context.storage.usageEvents(context.userID, from: clock.start(of: first), to: now + 1, type: .exitToFocus)
            for event in events {
                let back = clock.day(of: event.timestamp).days(to: today)
                if (0..<exits.count).contains(back) { exits[back] += 1 }
            }
        }
        let streak = try asked.migaStreak(exits)
        guard (0...exits.count).contains(streak) else {
            throw EngineError(.ruleViolation, "miga.current_streak returned \(streak) for \(exits.count) days")
        }
        return streak
    }

    @inline(__always)  // not called: a call copies the whole context (see nextStep)
    private func migaClock(_ context: UserContext) throws -> LocalClock {
        try clock(context, dayStartsAt: rules.streakKnobs.miga.dayStartsAt)
    }

    /// Fills the cache of exits per day from the store, from the first day any later streak can look at.
    private func loadExits(_ context: inout UserContext, clock: LocalClock, at now: EpochMillis) throws {
        guard context.cache.exitsByDay == nil else { return }
        let first = clock.day(of: now).adding(days: -(Engine.migaHistoryDays - 1))!
        let events = try context.storage.usageEvents(context.userID, from: clock.start(of: first), to: now + 1, type: .exitToFocus)
        var byDay: [DayID: Int] = [:]
        for event in events { byDay[clock.day(of: event.timestamp), default: 0] += 1 }
        context.cache.exitsByDay = byDay
        context.cache.exitsFrom = first
    }
}

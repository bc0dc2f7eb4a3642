import Foundation
import RulesModel

/// Deterministic synthetic users and user-days for benchmarks, fault tests and simulations:
/// the same seed gives the same rows.
///
/// Every user has `tasksPerUser` habit tasks; every user-day holds a Pressure commitment (checked
/// in YES or NO, or MISSED), the escalation state, three notifications, `completionsPerDay`
/// habit-tracker completions, two MIGA usage events, the Earned economy and day summary and one
/// `DAY_ROLLOVER` event.
package struct SyntheticCohort: Sendable {
    package var seed: UInt64
    package var startDay: DayID
    package var tasksPerUser: Int

    package init(seed: UInt64, startDay: DayID, tasksPerUser: Int = 10) {
        self.seed = seed
        self.startDay = startDay
        self.tasksPerUser = tasksPerUser
    }

    static let words = [
        "ship", "the", "report", "run", "5k", "before", "noon", "write", "500", "words", "call", "mom", "no", "sugar",
        "today", "finish", "chapter", "three", "clean", "desk", "review", "pull", "requests", "meditate", "ten", "minutes",
    ]

    /// The habit tasks of a user (half of them measure time in minutes).
    package func tasks(for user: UserID) -> [HabitTask] {
        var rng = SeededGenerator(seed: seed, UInt64(user.rawValue), 0xFFFF_FFFF)
        let created = startDay.utcStartMillis
        return (0..<tasksPerUser).map { index in
            let timed = index % 2 == 0
            return HabitTask(
                id: rng.uuid(), userID: user, title: "Task \(index + 1)", goalType: timed ? .time : .none,
                goalValue: timed ? 20 : nil, goalUnit: timed ? "min" : nil, sortOrder: index,
                createdAt: created, updatedAt: created)
        }
    }

    /// Creates the user (with its singleton rows) and its tasks.
    package func setUp(_ store: Store, user: UserID) throws {
        var rng = SeededGenerator(seed: seed, UInt64(user.rawValue), 0xFFFF_FFFE)
        try store.createUser(user, day: startDay, now: startDay.utcStartMillis, makeUUID: { rng.uuid() })
        for task in tasks(for: user) { try store.saveTask(task) }
    }

    /// The number of habit-tracker completions of a user-day: 1 + (user × 7 + day) mod 4.
    package static func completionsPerDay(user: UserID, dayIndex: Int) -> Int {
        let mixed = (user.rawValue % 4) * 7 + Int64(dayIndex % 4)
        return 1 + Int((mixed % 4 + 4) % 4)
    }

    /// The user-day `dayIndex` days after the start day (with no habit completions when `tasks` is empty).
    package func userDay(_ user: UserID, dayIndex: Int, tasks: [HabitTask]) throws -> UserDay {
        guard dayIndex >= 0, let day = startDay.adding(days: dayIndex), day.adding(days: 1) != nil else {
            throw ModelValidationError(
                entity: "SyntheticCohort", field: "dayIndex", rule: "a day from the start day up to 9999-12-30",
                found: "\(dayIndex)")
        }
        var rng = SeededGenerator(seed: seed, UInt64(user.rawValue), UInt64(dayIndex))
        let start = day.utcStartMillis
        let wordCount = Int.random(in: 8...20, using: &rng)
        let text = (0..<wordCount).map { _ in Self.words.randomElement(using: &rng)! }.joined(separator: " ")
        let roll = Int.random(in: 0..<10, using: &rng)
        let status: CommitmentStatus = roll < 6 ? .yes : roll < 9 ? .no : .missed
        let lockedAt = start + 9 * Millis.hour
        let commitment = Commitment(
            id: rng.uuid(), userID: user, day: day, text: text, lockedAt: lockedAt, status: status,
            checkedInAt: status == .missed ? nil : start + 20 * Millis.hour,
            escalationTierSnapshot: EscalationTier(rawValue: roll % 4), shieldUsed: false)
        let streak = dayIndex % 9
        let escalation = EscalationState(
            currentTier: EscalationTier(rawValue: min(3, roll % 4))!, consecutiveMisses: status == .yes ? 0 : 1,
            consecutiveSuccesses: status == .yes ? 1 : 0, currentStreak: streak, longestStreak: max(streak, 8))
        let notifications = (0..<3).map { i in
            NotificationLogEntry(
                id: rng.uuid(), userID: user, scheduledFor: start + (15 + Int64(i) * 2) * Millis.hour,
                tier: EscalationTier(rawValue: i)!, personality: .professional, delivered: true, tapped: i == 0)
        }
        let count = tasks.isEmpty ? 0 : Self.completionsPerDay(user: user, dayIndex: dayIndex)
        let completions = (0..<count).map { i in
            let task = tasks[(dayIndex + i) % tasks.count]
            return TaskCompletion(
                userID: user, taskID: task.id, completedAt: start + 7 * Millis.hour + Int64(i) * Millis.minute,
                value: task.goalType == .none ? nil : Double(Int.random(in: 5...60, using: &rng)))
        }
        let usage = (0..<2).map { i in
            UsageEvent(
                id: rng.uuid(), userID: user, eventType: i == 0 ? .exitToFocus : .proceedToApp,
                timestamp: start + (12 + Int64(i)) * Millis.hour, targetAppName: "Instagram",
                pauseDuration: Double(Int.random(in: 0...30, using: &rng)), timerDuration: 30)
        }
        let earned = Int.random(in: 0...20, using: &rng)
        let economy = EconomyState(userID: user, currentDayID: day, creditBalance: earned, streakCount: streak, updatedAt: start)
        // The summary's counters agree with the day's event_log (only a DAY_ROLLOVER): no credits earned.
        let summary = DaySummary(
            userID: user, dayID: day, timezoneID: "UTC", focusMinutesCompleted: earned * 2, createdAt: start, updatedAt: start)
        let previous = day.adding(days: -1) ?? day
        let event = EventLogEntry(
            userID: user, eventID: "u\(user)/\(day)/DAY_ROLLOVER", timestamp: start, timezoneID: "UTC", dayID: day,
            payload: .dayRollover(.init(fromDayID: previous, toDayID: day, carriedCredits: 0)), createdAt: start)
        return UserDay(
            userID: user, day: day, commitment: commitment, escalationState: escalation, notifications: notifications,
            taskCompletions: completions, usageEvents: usage, economyState: economy, daySummary: summary,
            events: dayIndex == 0 ? [] : [event])
    }
}

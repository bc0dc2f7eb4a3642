import RulesModel

/// A summary of a user as the engine left it after an event (`Engine.applySummarized`): what a
/// simulated user can see in the app (tier, streak, today's schedule and the reminders still to
/// come), without reading the user's rows.
package struct UserSummary: Sendable, Equatable {
    package var tier: Int
    package var consecutiveMisses: Int
    package var consecutiveSuccesses: Int
    package var currentStreak: Int
    package var longestStreak: Int
    package var restartShieldsRemaining: Int
    package var isPaid: Bool
    /// The Pressure day in progress, once the user takes part in Pressure.
    package var today: Today?
    /// The last instant a restart shield can still be activated on the latest NO or MISSED day.
    package var shieldableUntil: EpochMillis?

    package struct Today: Sendable, Equatable {
        package var day: DayID
        /// The day's instants (UTC milliseconds): its start, commitment deadline, window close, end.
        package var start: EpochMillis
        package var deadline: EpochMillis
        package var close: EpochMillis
        package var end: EpochMillis
        /// Whether the day counts (false for a day whose deadline passed before the user started).
        package var counts: Bool
        /// The instants of the reminders not yet sent or cancelled.
        package var pendingReminders: [EpochMillis] { reminders.filter { !$0.done }.map(\.at) }
        /// The day's reminders as the engine keeps them (shared with it: no copy per event).
        let reminders: [DaySchedule.Reminder]

        package static func == (a: Today, b: Today) -> Bool {
            (a.day, a.start, a.deadline, a.close, a.end, a.counts) == (b.day, b.start, b.deadline, b.close, b.end, b.counts)
                && a.pendingReminders == b.pendingReminders
        }
    }

    /// The summary of `context` (inout: read in place, where passing it by value copied the whole
    /// context for every event).
    init(_ context: inout UserContext) {
        let e = context.escalation
        tier = e.currentTier.rawValue
        consecutiveMisses = e.consecutiveMisses
        consecutiveSuccesses = e.consecutiveSuccesses
        currentStreak = e.currentStreak
        longestStreak = e.longestStreak
        restartShieldsRemaining = e.restartShieldsRemaining
        isPaid = context.settings.subscriptionTier == .paid
        if let day = context.book.today {
            today = Today(
                day: day.day, start: day.start, deadline: day.deadline, close: day.close, end: day.end, counts: day.counts,
                reminders: day.reminders)
        } else {
            today = nil
        }
        shieldableUntil = context.book.shieldable?.until
    }
}

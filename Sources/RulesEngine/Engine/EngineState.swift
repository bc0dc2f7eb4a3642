import Foundation
import RulesModel

/// The engine's bookkeeping for one user (a context's `book`): what it keeps of its own besides the
/// user's rows, stored as JSON in the user's `engine_state` row (`EngineStateRow.stateJSON`) and
/// written in the same transaction as the effects it records.
struct EngineState: Codable, Equatable {
    /// The Pressure day in progress: its schedule is fixed when the day starts, so a settings or
    /// time-zone change applies from the next day ("Current day's schedule is unchanged").
    var today: DaySchedule?
    /// The latest NO or MISSED day, while its restart shield can still be activated.
    var shieldable: ShieldableDay?
    /// Habit tasks by the name events use for them.
    var tasks: [String: UUID] = [:]
    /// Earned's day cycle and open sessions, from the user's first Earned event.
    var earned: EarnedBook?
    /// When the user's habit days start (`settings.day_starts_at`); nil: the rule set's
    /// `habit.day_starts_at`. Absent from the JSON while nil.
    var habitDayStartsAt: LocalTime?
    /// The habit days the user opened the app on, for a rule set that sets
    /// `habit.track_app_opens` (``AppOpenDays``). Absent from the JSON while nil.
    var appOpens: AppOpenDays?
    /// The user's subscription changes and restart shields: their rows keep what they changed
    /// (`pressure_settings`' tier, a commitment's `shield_used`) but not when, which a database
    /// read back as events needs (`RecordedBookkeeping`). Absent from the JSON while nil.
    var subscriptions: [SubscriptionChange]?
    var shields: [EpochMillis]?
}

/// A `subscription` event as the engine applied it.
struct SubscriptionChange: Codable, Equatable {
    var at: EpochMillis
    var tier: SubscriptionTier
    var expires: EpochMillis?
}

/// One Pressure day: its instants and what has been done of them.
struct DaySchedule: Codable, Equatable {
    var day: DayID
    var start: EpochMillis
    var end: EpochMillis
    var deadline: EpochMillis
    var close: EpochMillis
    /// The local times of the window, for messages and rules.
    var open: LocalTime
    var closeTime: LocalTime
    /// Whether the day counts: false when the user did not exist yet at its deadline.
    var counts: Bool
    var reminders: [Reminder]
    var deadlinePassed = false
    var closed = false

    struct Reminder: Codable, Equatable {
        var at: EpochMillis
        var time: LocalTime
        var done = false
    }
}

/// A NO or MISSED day whose result a restart shield can still undo.
struct ShieldableDay: Codable, Equatable {
    var day: DayID
    var result: CommitmentStatus
    /// The last instant the shield can be activated.
    var until: EpochMillis
    /// The escalation state before that day's result.
    var before: EscalationState
}

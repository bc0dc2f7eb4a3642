import Foundation
import RulesModel
import RulesStore

/// Reads of the user's rows that a `UserContext` keeps while it lives (see `UserContext.cache`).
/// Each part is filled from the context's storage on first use and updated by the engine's own
/// writes; a settings change that moves day boundaries (the time zone) drops what depends on them.
struct ReadCache {
    /// Pressure: commitments by day, as the store returned them (`.some(nil)`: none that day).
    var commitments: [DayID: Commitment?] = [:]
    /// MIGA: exit-to-focus events per MIGA day, from `exitsFrom` on.
    var exitsByDay: [DayID: Int]?
    var exitsFrom: DayID?
    /// MIGA: the instant of the user's latest gateway event and how many it had (for their ids).
    var lastGateway: (at: EpochMillis, count: Int)?
    /// MIGA: the gateway timer of the user's settings (the engine never changes them).
    var gatewayTimer: Double?
    /// Habit tracker: tasks by id, and each task's completions (and their values) per period index.
    var tasks: [UUID: HabitTask] = [:]
    var completionsPerPeriod: [UUID: [Int: Engine.HabitTally]] = [:]
    /// Habit tracker: each task's day marks (skips, freezes) per period index, from the day `from`
    /// on (the task's start day when they were read; used only while it is the same), dropped
    /// when a mark is added or the task redefined.
    var marksPerPeriod: [UUID: (from: DayID, marks: [Int: Engine.HabitPeriodMarks])] = [:]
    /// Habit tracker: each task's streak as the rules last answered it (`Engine.knownStreak`), kept
    /// while the task, its completions and its marks stay as they were: dropped with them (a
    /// completion, an uncheck, a mark, a redefinition), and not used on another habit day, for
    /// another clock or under other rules (the entry says which it was asked on).
    var streaks: [UUID: Engine.KnownStreak] = [:]
    /// Earned: the modes (not deleted) with their windows and apps, and the "Distracting Apps".
    var modes: [Engine.ModeEntry]? { didSet { modeCandidates = nil } }
    /// The modes as `effective_mode` was last given them (`Engine.effectiveMode`), kept with them.
    var modeCandidates: [ModeCandidate]?
    var distractingApps: [AppID]?
    var earnedSettings: EarnedSettings?
    /// Experiments: the user's exposures, in order, and the state's list of them when there are
    /// any (in local time), both dropped when the engine records one.
    var exposures: [ExperimentExposure]?
    var exposuresState: JSONValue?

    /// Forgets what depends on the user's day boundaries (and the local times of its exposures).
    mutating func timeZoneChanged() {
        exitsByDay = nil
        exitsFrom = nil
        completionsPerPeriod = [:]
        streaks = [:]
        exposuresState = nil
    }
}

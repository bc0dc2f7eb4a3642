import RulesModel
import RulesStore

/// One thing the engine decided while applying an event, as typed values. The simulation counts
/// them as they are; `json` (Decision+JSON.swift) prints them only for a caller that shows them
/// (`apply`, `replay`, scenario tests, `compare`), so that a simulation never builds, reads back
/// and frees JSON per event. The decisions nothing counts (settings, definitions, a shield's
/// replenishment, …) are made as JSON at once, in `other`.
package enum Decision: Sendable {
    /// `commitment`: the day's commitment, made or edited.
    case commitment(day: DayID, text: String, edited: Bool)
    /// An element of `days`: a Pressure day got its result.
    case day(Day)
    /// An element of `reminders_sent`: a reminder, at its local time.
    case reminderSent(LocalTime)
    /// `shield`: a restart shield activated.
    case shield(Shield)
    /// `unlock_gate`: the gate opened for `app`, with the attempt it started when something blocks
    /// the app (nil: nothing does).
    case unlockGate(app: AppID, attempt: OpenedAttempt?)
    /// An element of `attempts_expired`.
    case attemptExpired(app: String, attemptID: String)
    /// An element of `quests_expired`.
    case questExpired(app: String, questSessionID: String, attemptID: String)
    /// `unlock`: the option chosen at the gate, and what it led to.
    case unlock(Unlock)
    /// `unlock_cancelled`: the user left the gate.
    case unlockCancelled(app: AppID, attemptID: String)
    /// `quest`: a quest ended (completed, failed, cancelled).
    case quest(Quest)
    /// An element of `earned_days`: Earned's day rolled over.
    case earnedDay(EarnedDay)
    /// `focus_started`.
    case focusStarted(sessionID: String, plannedMinutes: Int, ends: EpochMillis, clock: LocalClock)
    /// `focus_ended`.
    case focusEnded(FocusEnded)
    /// `earned_habit_completion`.
    case earnedHabitCompletion(EarnedHabitCompletion)
    /// `habit_completion`: a completion of a habit task, and the task's streak after it.
    case habitCompletion(task: String, period: String, completionsInPeriod: Int, streak: HabitStreak)
    /// `miga`: a gateway event, and the exit-to-focus streak after it.
    case miga(event: UsageEventType, app: String, currentStreak: Int)
    /// Any other decision, under its key, as JSON.
    case other(key: String, JSONValue)

    /// A Pressure day's result (`days`): why, and the escalation before and after it.
    package struct Day: Sendable {
        package var day: DayID
        package var result: CommitmentStatus
        /// `check_in`, `no_commitment` or `window_closed`.
        package var reason: String
        package var tierBefore: Int
        package var tierAfter: Int
        package var currentStreak: Int
        /// The local times of the day's reminders a check-in cancelled.
        package var remindersCancelled: [LocalTime] = []
    }

    /// A restart shield activated (`shield`).
    package struct Shield: Sendable {
        package var day: DayID
        package var tierBefore: Int
        package var tierAfter: Int
        package var currentStreak: Int
        package var restartShieldsRemaining: Int
    }

    /// The attempt an unlock gate started, and the options it offers.
    package struct OpenedAttempt: Sendable {
        package var attemptID: String
        package var options: AvailableOptions
    }

    /// An unlock granted (by a choice at the gate or a quest completed), as decisions show it.
    package struct Grant: Sendable {
        package var grantID: String
        /// The attempt extended a grant another attempt made.
        package var extended: Bool
        package var starts: EpochMillis
        package var ends: EpochMillis
        /// The user's clock, to print `starts` and `ends` in local time.
        package var clock: LocalClock
    }

    /// The option chosen for a waiting attempt (`unlock`).
    package struct Unlock: Sendable {
        package var app: AppID
        package var attemptID: String
        package var option: UnlockOptionType
        /// The minutes of a CREDITS choice.
        package var minutes: Int?
        /// The quest type of a QUEST choice.
        package var questType: QuestType?
        package var outcome: Outcome

        package enum Outcome: Sendable {
            /// Granted; `costCredits`: the price of a CREDITS unlock.
            case granted(Grant, costCredits: Int?)
            /// A quest started, to be done before `expires`.
            case questStarted(questSessionID: String, expires: EpochMillis, clock: LocalClock)
            case denied(UnlockDenialReason)
        }
    }

    /// A quest that ended (`quest`): completed (with its grant), failed or cancelled.
    package struct Quest: Sendable {
        package var app: AppID
        package var questSessionID: String
        package var state: QuestSessionState
        package var reason: QuestFailureReason?
        package var grant: Grant?
    }

    /// Earned's day rollover (`earned_days`).
    package struct EarnedDay: Sendable {
        package var from: DayID
        package var to: DayID
        package var carriedCredits: Int
        package var forfeitedCredits: Int
        package var streakCount: Int
        /// The freezes held after it, shown only under a freeze policy (or while the user holds
        /// some), so that the default rules' decisions stay as they were; `freezeUsed` when one was.
        package var freezes: (count: Int, used: Bool)?
    }

    /// A focus session that ended (`focus_ended`).
    package struct FocusEnded: Sendable {
        package var sessionID: String
        package var completed: Bool
        package var actualMinutes: Int
        package var creditsEarned: Int
        package var qualifies: Bool
        /// The day's streak, when the session qualified it.
        package var streak: StreakUpdate?
    }

    /// A completion of an Earned habit (`earned_habit_completion`).
    package struct EarnedHabitCompletion: Sendable {
        package var habit: String
        package var day: DayID
        package var creditsEarned: Int
        package var awardSuspended: Bool
        package var awardsSuspendedUntil: DayID?
        /// The day's streak, when the completion qualified it.
        package var streak: StreakUpdate?
    }

    /// The key the decision is shown under.
    package var key: String {
        switch self {
        case .commitment: "commitment"
        case .day: "days"
        case .reminderSent: "reminders_sent"
        case .shield: "shield"
        case .unlockGate: "unlock_gate"
        case .attemptExpired: "attempts_expired"
        case .questExpired: "quests_expired"
        case .unlock: "unlock"
        case .unlockCancelled: "unlock_cancelled"
        case .quest: "quest"
        case .earnedDay: "earned_days"
        case .focusStarted: "focus_started"
        case .focusEnded: "focus_ended"
        case .earnedHabitCompletion: "earned_habit_completion"
        case .habitCompletion: "habit_completion"
        case .miga: "miga"
        case .other(let key, _): key
        }
    }
}

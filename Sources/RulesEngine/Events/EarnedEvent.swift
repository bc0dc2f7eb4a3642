import RulesModel

/// Earned's events (earned-data-model-v1.1.md): the user's modes, apps, habits and focus sessions,
/// and the unlock gate. Apps are AppIds (`android:…` or `iosToken:…`, A5.5); modes and habits are
/// named by the events, as habit tasks are.
package enum EarnedEvent: Sendable, Equatable {
    /// `mode`: define or change a mode (see `ModeDefinition`).
    case mode(ModeDefinition)
    /// `mode_override`: the manual state of `mode` (`AUTO`, `FORCED_ON`, `FORCED_OFF`), in force
    /// from the event until `until` (optional).
    case modeOverride(mode: String, state: ManualOverrideState, until: Timestamp?)
    /// `distracting_apps`: the global "Distracting Apps" list (`apps`).
    case distractingApps([AppID])
    /// `qr_key`: set (`value`) or clear (`value` null) the QR key of QR_SCAN quests.
    case qrKey(String?)
    /// `earned_habit`: define or change a habit (`habit`, `name`, `reward_credits`, `active`).
    case habit(EarnedHabitDefinition)
    /// `earned_habit_completion`: the habit `habit` done today.
    case habitCompletion(habit: String)
    /// `focus_start`: a focus session of `minutes` (optional `label`, `strict`, `blocked_apps`).
    case focusStart(FocusStart)
    /// `focus_end`: the active session ends early (a session that reaches its planned length ends
    /// by itself, completed).
    case focusEnd
    /// `unlock_open`: the unlock gate opens for `app`: an attempt with its options snapshot (A4.2).
    case unlockOpen(app: AppID)
    /// `unlock_choose`: the user picks an option of the app's open attempt: `option`
    /// (`CREDITS_UNLOCK` with `minutes`, `QUEST_UNLOCK` with `quest_type`, `EMERGENCY_UNLOCK`).
    case unlockChoose(app: AppID, UnlockChoice)
    /// `unlock_cancel`: the user leaves the gate (the attempt, and its quest if any, is CANCELLED).
    case unlockCancel(app: AppID)
    /// `quest_complete`: the app's quest is done: the unlock is granted.
    case questComplete(app: AppID)
    /// `quest_fail`: the app's quest failed (`reason`: TIMEOUT, MISMATCH, USER_CANCELLED, EXPIRED).
    case questFail(app: AppID, reason: QuestFailureReason)
    /// `quest_cancel`: the user gives the app's quest up.
    case questCancel(app: AppID)

    package var typeName: String { declaration.name }

    /// The declaration of the event's type.
    var declaration: EventDeclaration {
        switch self {
        case .mode: .mode
        case .modeOverride: .modeOverride
        case .distractingApps: .distractingApps
        case .qrKey: .qrKey
        case .habit: .earnedHabit
        case .habitCompletion: .earnedHabitCompletion
        case .focusStart: .focusStart
        case .focusEnd: .focusEnd
        case .unlockOpen: .unlockOpen
        case .unlockChoose: .unlockChoose
        case .unlockCancel: .unlockCancel
        case .questComplete: .questComplete
        case .questFail: .questFail
        case .questCancel: .questCancel
        }
    }

    /// The names of Earned's event types.
    package static let typeNames = EventDeclaration.all.filter { $0.app == .earned }.map(\.name)
}

/// A mode as events define it, by name; only the fields given change (a new mode needs `strictness`).
package struct ModeDefinition: Sendable, Equatable {
    package var mode: String
    package var name: String?
    package var priority: Int?
    package var strictness: Strictness?
    /// Weekly windows: `days` (ISO weekdays, 1 Monday … 7 Sunday), local `start` and `end` ("HH:MM";
    /// an end before the start crosses midnight, equal ones mean the whole day). Replaces the mode's windows.
    package var windows: [Window]?
    /// The apps the mode blocks (replaces the list); none: the "Distracting Apps" list.
    package var blockedApps: [AppID]?
    /// True deletes the mode (a tombstone).
    package var deleted: Bool?

    package struct Window: Sendable, Equatable {
        package var days: [Int]
        package var start: LocalTime
        package var end: LocalTime
        package init(days: [Int], start: LocalTime, end: LocalTime) {
            self.days = days
            self.start = start
            self.end = end
        }
    }

    package init(
        mode: String, name: String? = nil, priority: Int? = nil, strictness: Strictness? = nil, windows: [Window]? = nil,
        blockedApps: [AppID]? = nil, deleted: Bool? = nil
    ) {
        self.mode = mode
        self.name = name
        self.priority = priority
        self.strictness = strictness
        self.windows = windows
        self.blockedApps = blockedApps
        self.deleted = deleted
    }
}

/// An Earned habit as events define it, by name; only the fields given change.
package struct EarnedHabitDefinition: Sendable, Equatable {
    package var habit: String
    package var name: String?
    /// Credits per completion (0–100); a new habit gets pricing.lua's `habits.default_reward_credits`.
    package var rewardCredits: Int?
    package var active: Bool?

    package init(habit: String, name: String? = nil, rewardCredits: Int? = nil, active: Bool? = nil) {
        self.habit = habit
        self.name = name
        self.rewardCredits = rewardCredits
        self.active = active
    }
}

/// A focus session as `focus_start` starts it.
package struct FocusStart: Sendable, Equatable {
    package var minutes: Int
    package var label: String?
    /// Whether the session blocks strictly (default true, A4.1 focus.strict).
    package var strict: Bool?
    /// The apps the session blocks; none: the "Distracting Apps" list.
    package var blockedApps: [AppID]?

    package init(minutes: Int, label: String? = nil, strict: Bool? = nil, blockedApps: [AppID]? = nil) {
        self.minutes = minutes
        self.label = label
        self.strict = strict
        self.blockedApps = blockedApps
    }
}

/// The option chosen at the unlock gate.
package enum UnlockChoice: Sendable, Equatable {
    case credits(minutes: Int)
    case quest(QuestType)
    case emergency

    package var optionType: UnlockOptionType {
        switch self {
        case .credits: .creditsUnlock
        case .quest: .questUnlock
        case .emergency: .emergencyUnlock
        }
    }
}

import RulesModel

/// One event for one user, as an app, a replay file or the simulator sends it to the engine.
///
/// In a replay file, one JSON object per line:
/// `{"at": "2026-03-02T08:30:00+01:00", "user": "u1", "type": "commitment", "text": "Ship it"}`.
/// `user` defaults to `u1`; the other fields depend on `type` (see `Kind`).
public struct EngineEvent: Sendable, Equatable {
    public var at: Timestamp
    public var user: String
    package var kind: Kind

    package init(at: Timestamp, user: String = "u1", kind: Kind) {
        self.at = at
        self.user = user
        self.kind = kind
    }

    package enum Kind: Sendable, Equatable {
        /// `settings`: any of `commitment_deadline`, `checkin_window_close` ("HH:MM"), `timezone`
        /// (IANA), `personality_mode`, `notifications_enabled`. Schedule changes apply from the next day.
        case settings(SettingsChange)
        /// `subscription`: `tier` ("FREE" or "PAID"), optional `expires_at`.
        case subscription(tier: SubscriptionTier, expiresAt: Timestamp?)
        /// `commitment`: today's commitment `text` (1–280 characters), before the deadline.
        case commitment(text: String)
        /// `check_in`: `result` "YES" or "NO", while the check-in window is open.
        case checkIn(CommitmentStatus)
        /// `shield`: activate the restart shield on the latest NO or MISSED day.
        case shield
        /// `tick`: only let time pass up to `at`.
        case tick
        /// `habit_task`: define or change a habit task (`task`, `title`, `measurement`, `frequency`,
        /// `times_per_day`, `scheduled_days`, `times`, `days`, `every`, `days_of_month`, `goal_type`,
        /// `goal_value`, `goal_unit`, `goal_direction`, `start_date`, `params`).
        case habitTask(HabitTaskDefinition)
        /// `habit_completion`: one completion of `task`, with an optional `value`, for today or,
        /// with `for_day`, a past day within `habit.max_backfill_days`.
        case habitCompletion(task: String, value: Double?, forDay: DayID? = nil)
        /// `habit_skip`: `task` is skipped on `day` (default: today).
        case habitSkip(task: String, day: DayID?)
        /// `habit_freeze`: a streak freeze of `task`, `action` "use" (on `day`, default today) or "equip".
        case habitFreeze(task: String, action: FreezeAction, day: DayID?)
        /// `habit_uncheck`: removes the latest completion of `task` on `day` (default: today).
        case habitUncheck(task: String, day: DayID?)
        /// `miga`: a gateway `event` ("exit_to_focus", "deepen_pause", "proceed_to_app") for an `app`,
        /// with the seconds the user paused (`pause_seconds`, default: the whole gateway timer).
        case miga(UsageEventType, app: String, pauseSeconds: Double?)
        /// Earned events (see `EarnedEvent`).
        case earned(EarnedEvent)
        /// An event of a type declared with its payload (`DeclaredEvent`): a type added since needs
        /// no case here, nor in the engine's switch.
        case declared(DeclaredEvent)

        /// The event's `type` in files.
        package var typeName: String { declaration.name }

        /// The declaration of the event's type.
        var declaration: EventDeclaration {
            switch self {
            case .settings: .settings
            case .subscription: .subscription
            case .commitment: .commitment
            case .checkIn: .checkIn
            case .shield: .shield
            case .tick: .tick
            case .habitTask: .habitTask
            case .habitCompletion: .habitCompletion
            case .habitSkip: .habitSkip
            case .habitFreeze: .habitFreeze
            case .habitUncheck: .habitUncheck
            case .miga: .miga
            case .earned(let event): event.declaration
            case .declared(let event): type(of: event.payload).declaration
            }
        }
    }

    /// Every event type's name (`EventDeclaration.all`).
    package static let typeNames = EventDeclaration.all.map(\.name)

    /// Throws `INVALID_EVENT` when one of the event's times (`at`, `expires_at`, `until`) is
    /// outside ``Timestamp/engineRange`` (the parser refuses them too, naming them as written).
    package func checkTimes() throws(EngineError) {
        try at.checkInEngineRange("at")
        switch kind {
        case .subscription(_, let expires?): try expires.checkInEngineRange("expires_at")
        case .earned(.modeOverride(_, _, let until?)): try until.checkInEngineRange("until")
        default: break
        }
    }
}

/// A change of Pressure settings: only the fields given change.
package struct SettingsChange: Sendable, Equatable {
    package var commitmentDeadline: LocalTime?
    package var checkinWindowClose: LocalTime?
    package var timezone: String?
    package var personalityMode: PersonalityMode?
    package var notificationsEnabled: Bool?
    /// When the user's habit days start (default: the rule set's `habit.day_starts_at`).
    package var dayStartsAt: LocalTime?

    package init(
        commitmentDeadline: LocalTime? = nil, checkinWindowClose: LocalTime? = nil, timezone: String? = nil,
        personalityMode: PersonalityMode? = nil, notificationsEnabled: Bool? = nil, dayStartsAt: LocalTime? = nil
    ) {
        self.dayStartsAt = dayStartsAt
        self.commitmentDeadline = commitmentDeadline
        self.checkinWindowClose = checkinWindowClose
        self.timezone = timezone
        self.personalityMode = personalityMode
        self.notificationsEnabled = notificationsEnabled
    }
}

/// What a `habit_freeze` event does: use a freeze on a day, or equip one (hold it for later).
package enum FreezeAction: String, Sendable, Equatable, CaseIterable {
    case use
    case equip
}

/// A habit task as events define it, by name. Only the fields given change; giving `frequency`
/// sets the frequency's own fields (`times`, `days`, `every`, `days_of_month`) from the event,
/// clearing those it does not give.
package struct HabitTaskDefinition: Sendable, Equatable {
    package var task: String
    package var title: String?
    package var measurement: MeasurementDuration?
    package var frequency: FrequencyType?
    package var timesPerDay: Int?
    package var scheduledDays: [Int]?
    /// `times_in_days`: x times …
    package var times: Int?
    /// … in y `days`.
    package var days: Int?
    /// `every_n_days`: every n days from the start date.
    package var every: Int?
    /// `days_of_month`: days 1…31 (31: a shorter month's last day).
    package var daysOfMonth: [Int]?
    package var goalType: GoalType?
    package var goalValue: Double?
    package var goalUnit: String?
    package var goalDirection: GoalDirection?
    package var startDate: DayID?
    /// Per-task values of the rule set's params (names and scalars).
    package var params: [String: ParamValue]?

    package init(
        task: String, title: String? = nil, measurement: MeasurementDuration? = nil, frequency: FrequencyType? = nil,
        timesPerDay: Int? = nil, scheduledDays: [Int]? = nil, times: Int? = nil, days: Int? = nil, every: Int? = nil,
        daysOfMonth: [Int]? = nil, goalType: GoalType? = nil, goalValue: Double? = nil, goalUnit: String? = nil,
        goalDirection: GoalDirection? = nil, startDate: DayID? = nil, params: [String: ParamValue]? = nil
    ) {
        self.task = task
        self.title = title
        self.measurement = measurement
        self.frequency = frequency
        self.timesPerDay = timesPerDay
        self.scheduledDays = scheduledDays
        self.times = times
        self.days = days
        self.every = every
        self.daysOfMonth = daysOfMonth
        self.goalType = goalType
        self.goalValue = goalValue
        self.goalUnit = goalUnit
        self.goalDirection = goalDirection
        self.startDate = startDate
        self.params = params
    }
}

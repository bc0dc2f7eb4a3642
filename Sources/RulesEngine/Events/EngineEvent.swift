import LuaHost
import RulesModel

/// One event for one user, as an app, a replay file or the simulator sends it to the engine.
///
/// In a replay file, one JSON object per line:
/// `{"at": "2026-03-02T08:30:00+01:00", "user": "u1", "type": "commitment", "text": "Ship it"}`.
/// `user` defaults to `u1`; the other fields depend on `type` (see `Kind`).
public struct EngineEvent: Sendable, Equatable {
    public var at: Timestamp
    public var user: String
    public var kind: Kind

    public init(at: Timestamp, user: String = "u1", kind: Kind) {
        self.at = at
        self.user = user
        self.kind = kind
    }

    public enum Kind: Sendable, Equatable {
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
        /// `times_per_day`, `scheduled_days`).
        case habitTask(HabitTaskDefinition)
        /// `habit_completion`: one completion of `task`, with an optional `value`.
        case habitCompletion(task: String, value: Double?)
        /// `miga`: a gateway `event` ("exit_to_focus", "deepen_pause", "proceed_to_app") for an `app`,
        /// with the seconds the user paused (`pause_seconds`, default: the whole gateway timer).
        case miga(UsageEventType, app: String, pauseSeconds: Double?)
        /// Earned events (see `EarnedEvent`).
        case earned(EarnedEvent)

        /// The event's `type` in files.
        public var typeName: String {
            switch self {
            case .settings: "settings"
            case .subscription: "subscription"
            case .commitment: "commitment"
            case .checkIn: "check_in"
            case .shield: "shield"
            case .tick: "tick"
            case .habitTask: "habit_task"
            case .habitCompletion: "habit_completion"
            case .miga: "miga"
            case .earned(let event): event.typeName
            }
        }
    }

    public static let typeNames = ["settings", "subscription", "commitment", "check_in", "shield", "tick",
                                   "habit_task", "habit_completion", "miga"] + EarnedEvent.typeNames

    /// Throws `INVALID_EVENT` when one of the event's times (`at`, `expires_at`, `until`) is
    /// outside ``Timestamp/engineRange`` (the parser refuses them too, naming them as written).
    public func checkTimes() throws(EngineError) {
        try at.checkInEngineRange("at")
        switch kind {
        case .subscription(_, let expires?): try expires.checkInEngineRange("expires_at")
        case .earned(.modeOverride(_, _, let until?)): try until.checkInEngineRange("until")
        default: break
        }
    }
}

/// A change of Pressure settings: only the fields given change.
public struct SettingsChange: Sendable, Equatable, Decodable {
    public var commitmentDeadline: LocalTime?
    public var checkinWindowClose: LocalTime?
    public var timezone: String?
    public var personalityMode: PersonalityMode?
    public var notificationsEnabled: Bool?

    public init(commitmentDeadline: LocalTime? = nil, checkinWindowClose: LocalTime? = nil, timezone: String? = nil,
                personalityMode: PersonalityMode? = nil, notificationsEnabled: Bool? = nil) {
        self.commitmentDeadline = commitmentDeadline
        self.checkinWindowClose = checkinWindowClose
        self.timezone = timezone
        self.personalityMode = personalityMode
        self.notificationsEnabled = notificationsEnabled
    }

    enum CodingKeys: String, CodingKey {
        case commitmentDeadline = "commitment_deadline"
        case checkinWindowClose = "checkin_window_close"
        case timezone
        case personalityMode = "personality_mode"
        case notificationsEnabled = "notifications_enabled"
    }
}

/// A habit task as events define it, by name.
public struct HabitTaskDefinition: Sendable, Equatable, Decodable {
    public var task: String
    public var title: String?
    public var measurement: MeasurementDuration?
    public var frequency: FrequencyType?
    public var timesPerDay: Int?
    public var scheduledDays: [Int]?

    public init(task: String, title: String? = nil, measurement: MeasurementDuration? = nil, frequency: FrequencyType? = nil,
                timesPerDay: Int? = nil, scheduledDays: [Int]? = nil) {
        self.task = task
        self.title = title
        self.measurement = measurement
        self.frequency = frequency
        self.timesPerDay = timesPerDay
        self.scheduledDays = scheduledDays
    }

    enum CodingKeys: String, CodingKey {
        case task, title, measurement, frequency
        case timesPerDay = "times_per_day"
        case scheduledDays = "scheduled_days"
    }
}

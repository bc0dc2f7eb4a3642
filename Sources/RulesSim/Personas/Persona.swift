import LuaHost
import RulesModel

/// A behaviour model of a synthetic user, read from a Lua file (`examples/personas/*.lua`) and
/// validated: every probability is between 0 and 1, every range ordered, every field known.
package struct Persona: Sendable {
    /// The persona's name: its file name without `.lua`.
    package var name: String
    /// The file, as given on the command line or found in the persona folder.
    package var path: String
    /// The file's text, so that each worker loads it into its own Lua state.
    package var text: String
    package var spec: PersonaSpec
}

extension Persona {
    /// The apps the users of these personas may use (Earned's only with a share above 0), and the
    /// cohort's own figures.
    package static func apps(of personas: [Persona]) -> Set<Metric.App> {
        personas.reduce(into: [.cohort]) { apps, p in
            apps.formUnion(p.spec.apps.filter { $0 != .earned || (p.spec.earned?.share ?? 0) > 0 })
        }
    }
}

/// The data of a persona file.
package struct PersonaSpec: Decodable, Sendable, Equatable {
    /// What the persona models, in a sentence.
    package var description: String
    /// The apps its users use (`apps = { "pressure", "habits", "miga", "earned" }`). A file without
    /// `apps` uses the apps whose sections it has: Pressure with `commit` or `answer`, the habit
    /// tracker with `habits`, MIGA with `miga`, Earned with `earned`.
    package var apps: Set<Metric.App> = []
    /// The app settings the user chooses on its first day.
    package var settings: Settings = Settings()
    /// The share of users of this persona on the paid plan (restart shields).
    package var paidShare: Double = 0
    /// The probability of setting a commitment before the deadline on a day (Pressure).
    package var commit: Double = 0
    /// The commitment is set between these many minutes before the deadline (uniform).
    package var commitLeadMinutes: [Int] = [30, 120]
    /// At the first look after the window opens: the probabilities of answering YES and NO
    /// (the rest: no answer yet).
    package var answer = Answer(yes: 0, no: 0)
    /// Minutes after the window opens at which the user first looks (uniform in the range).
    package var firstLookMinutes: [Int] = [60, 600]
    /// The probability that a reminder makes the user answer, by the tier of the day (0…3).
    package var reminderResponse: [Double] = [0.3, 0.3, 0.3, 0.3]
    /// The share of YES among answers given after a reminder.
    package var reminderYesShare: Double = 0.7
    /// After losing a streak of at least `minStreak` days, for `days` days, these are added to the
    /// probabilities of committing and of answering YES (negative: the user gives up a bit).
    package var lostStreak: LostStreak = LostStreak()
    /// The probability that a paid user with a shield left uses it after a NO or a missed day.
    package var shield: Double = 0
    /// The user's habit tasks and how often it completes them.
    package var habits: [Habit] = []
    /// The MIGA gateway: how often the user opens a guarded app, and what it does there.
    package var miga: Miga = Miga()
    /// How the user uses Earned; nil: it does not.
    package var earned: EarnedPersona?
    /// `day(d)`: overrides of one day's probabilities (valid in the Lua state that loaded the file).
    package var day: LuaFunction?
    /// How its users respond to what the rules decide (the defaults when absent).
    package var responses = Responses()

    package struct Settings: Decodable, Sendable, Equatable {
        package var timezone: String = "UTC"
        package var commitmentDeadline: String = "09:00"
        package var checkinWindowClose: String = "22:00"
        package var notificationsEnabled: Bool = true
        package var personalityMode: String = "PROFESSIONAL"
        enum CodingKeys: String, CodingKey {
            case timezone, commitmentDeadline = "commitment_deadline", checkinWindowClose = "checkin_window_close"
            case notificationsEnabled = "notifications_enabled", personalityMode = "personality_mode"
        }
        package init() {}
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            timezone = try c.decodeIfPresent(String.self, forKey: .timezone) ?? timezone
            commitmentDeadline = try c.decodeIfPresent(String.self, forKey: .commitmentDeadline) ?? commitmentDeadline
            checkinWindowClose = try c.decodeIfPresent(String.self, forKey: .checkinWindowClose) ?? checkinWindowClose
            notificationsEnabled = try c.decodeIfPresent(Bool.self, forKey: .notificationsEnabled) ?? notificationsEnabled
            personalityMode = try c.decodeIfPresent(String.self, forKey: .personalityMode) ?? personalityMode
        }
    }

    package struct Answer: Decodable, Sendable, Equatable {
        package var yes: Double
        package var no: Double
    }

    package struct LostStreak: Decodable, Sendable, Equatable {
        package var minStreak: Int = 3
        package var days: Int = 0
        package var commit: Double = 0
        package var yes: Double = 0
        enum CodingKeys: String, CodingKey { case minStreak = "min_streak", days, commit, yes }
        package init() {}
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            minStreak = try c.decodeIfPresent(Int.self, forKey: .minStreak) ?? minStreak
            days = try c.decodeIfPresent(Int.self, forKey: .days) ?? days
            commit = try c.decodeIfPresent(Double.self, forKey: .commit) ?? commit
            yes = try c.decodeIfPresent(Double.self, forKey: .yes) ?? yes
        }
    }

    /// A habit task (see `PersonaSpec+Habit` for its frequency, skips, freezes and late completions).
    package struct Habit: Decodable, Sendable, Equatable {
        package var task: String
        /// The probability of each of the day's completions.
        package var rate: Double
        package var timesPerDay: Int = 1
        /// The task's frequency (nil: daily, the seed's task), and on which days it is due.
        package var frequency: Frequency?
        /// A measured goal (nil: none, the seed's task) and the values the user logs.
        package var goal: Goal?
        /// The probability that a due day the user will not complete is skipped (`habit_skip`).
        package var skip: Double?
        /// Streak freezes: equipped, held and used on a day the user would miss.
        package var freeze: Freeze?
        /// The probability that a day the user misses is completed the next morning (`for_day`).
        package var late: Double?
        enum CodingKeys: String, CodingKey { case task, rate, timesPerDay = "times_per_day", frequency, goal, skip, freeze, late }
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            task = try c.decode(String.self, forKey: .task)
            rate = try c.decode(Double.self, forKey: .rate)
            timesPerDay = try c.decodeIfPresent(Int.self, forKey: .timesPerDay) ?? 1
            frequency = try c.decodeIfPresent(Frequency.self, forKey: .frequency)
            goal = try c.decodeIfPresent(Goal.self, forKey: .goal)
            skip = try c.decodeIfPresent(Double.self, forKey: .skip)
            freeze = try c.decodeIfPresent(Freeze.self, forKey: .freeze)
            late = try c.decodeIfPresent(Double.self, forKey: .late)
        }
    }

    package struct Miga: Decodable, Sendable, Equatable {
        /// Gateway opens per day, on average (the fraction is a chance of one more).
        package var opensPerDay: Double = 0
        /// The probabilities of leaving to focus and of deepening the pause (the rest: proceed to the app).
        package var exit: Double = 0
        package var deepen: Double = 0
        enum CodingKeys: String, CodingKey { case opensPerDay = "opens_per_day", exit, deepen }
        package init() {}
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            opensPerDay = try c.decodeIfPresent(Double.self, forKey: .opensPerDay) ?? 0
            exit = try c.decodeIfPresent(Double.self, forKey: .exit) ?? 0
            deepen = try c.decodeIfPresent(Double.self, forKey: .deepen) ?? 0
        }
    }

    /// The fields a persona file may have.
    static let fieldNames = [
        "description", "apps", "settings", "paid_share", "commit", "commit_lead_minutes", "answer", "first_look_minutes",
        "reminder_response", "reminder_yes_share", "lost_streak", "shield", "habits", "miga", "earned", "day",
        "responses",
    ]

    enum CodingKeys: String, CodingKey {
        case description, apps, settings, paidShare = "paid_share", commit, commitLeadMinutes = "commit_lead_minutes", answer
        case firstLookMinutes = "first_look_minutes", reminderResponse = "reminder_response", reminderYesShare = "reminder_yes_share"
        case lostStreak = "lost_streak", shield, habits, miga, earned, day, responses
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        description = try c.decode(String.self, forKey: .description)
        settings = try c.decodeIfPresent(Settings.self, forKey: .settings) ?? Settings()
        paidShare = try c.decodeIfPresent(Double.self, forKey: .paidShare) ?? 0
        commit = try c.decodeIfPresent(Double.self, forKey: .commit) ?? 0
        commitLeadMinutes = try c.decodeIfPresent([Int].self, forKey: .commitLeadMinutes) ?? commitLeadMinutes
        answer = try c.decodeIfPresent(Answer.self, forKey: .answer) ?? Answer(yes: 0, no: 0)
        firstLookMinutes = try c.decodeIfPresent([Int].self, forKey: .firstLookMinutes) ?? firstLookMinutes
        reminderResponse = try c.decodeIfPresent([Double].self, forKey: .reminderResponse) ?? reminderResponse
        reminderYesShare = try c.decodeIfPresent(Double.self, forKey: .reminderYesShare) ?? reminderYesShare
        lostStreak = try c.decodeIfPresent(LostStreak.self, forKey: .lostStreak) ?? LostStreak()
        shield = try c.decodeIfPresent(Double.self, forKey: .shield) ?? 0
        habits = try c.decodeIfPresent([Habit].self, forKey: .habits) ?? []
        miga = try c.decodeIfPresent(Miga.self, forKey: .miga) ?? Miga()
        earned = try c.decodeIfPresent(EarnedPersona.self, forKey: .earned)
        day = try c.decodeIfPresent(LuaFunction.self, forKey: .day)
        responses = try c.decodeIfPresent(Responses.self, forKey: .responses) ?? Responses()
        pressureFields = Self.pressureKeys.filter(c.contains).map(\.stringValue)
        sections = Set(
            [
                (!pressureFields.isEmpty, Metric.App.pressure), (c.contains(.habits), .habits), (c.contains(.miga), .miga),
                (c.contains(.earned), .earned),
            ].filter(\.0).map(\.1))
        listedApps = try c.decodeIfPresent([String].self, forKey: .apps)
        apps = listedApps.map { Set($0.compactMap(Metric.App.init(persona:))) } ?? sections
    }

    /// The apps whose sections the file has, its `apps` as written, and the Pressure fields it has:
    /// the checks compare them.
    package private(set) var sections: Set<Metric.App> = []
    package private(set) var listedApps: [String]?
    package private(set) var pressureFields: [String] = []

    /// The fields only a Pressure user has.
    static let pressureKeys: [CodingKeys] = [
        .commit, .answer, .paidShare, .commitLeadMinutes, .firstLookMinutes, .reminderResponse, .reminderYesShare, .lostStreak,
        .shield,
    ]

    /// Whether its users use `app`.
    package func uses(_ app: Metric.App) -> Bool { apps.contains(app) }
}

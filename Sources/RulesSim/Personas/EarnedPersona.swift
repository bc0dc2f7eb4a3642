/// How a persona uses Earned (a persona file's optional `earned = { … }`): the apps it finds
/// distracting, the modes, habits and QR key it sets up on its first day, and what it does every
/// day — focus sessions, habit completions, urges to open a distracting app, and its choices at the
/// unlock gate. Names and values are checked by `PersonaChecks`; app ids, strictness and quest
/// types stay strings here so that a wrong one is reported at its line.
package struct EarnedPersona: Decodable, Sendable, Equatable {
    /// The share of this persona's users who use Earned (drawn per user).
    package var share: Double = 1
    /// The "Distracting Apps" (AppIds, `android:…` or `iosToken:…`); urges open one of them.
    package var apps: [String]
    /// Modes defined on the first day.
    package var modes: [Mode] = []
    /// The probability that the user sets a QR key (for QR_SCAN quests) on its first day.
    package var qrKey: Double = 0
    /// Earned habits defined on the first day, each completed on a day with probability `rate`.
    package var habits: [Habit] = []
    /// The probability that the user logs a day's habits all at once (within minutes, which the
    /// rules may suspend as too many completions in a window) rather than over the day.
    package var habitsTogether: Double = 0
    package var focus: Focus = Focus()
    package var urges: Urges = Urges()
    package var gate: Gate = Gate()
    package var quest: Quest = Quest()

    package struct Mode: Decodable, Sendable, Equatable {
        package var name: String
        /// `GENTLE`, `STRICT` or `HARD`.
        package var strictness: String
        package var priority: Int = 0
        package var windows: [Window] = []
        /// The apps the mode blocks; none: the distracting apps.
        package var blockedApps: [String]?
        enum CodingKeys: String, CodingKey { case name, strictness, priority, windows, blockedApps = "blocked_apps" }
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            strictness = try c.decode(String.self, forKey: .strictness)
            priority = try c.decodeIfPresent(Int.self, forKey: .priority) ?? 0
            windows = try c.decodeIfPresent([Window].self, forKey: .windows) ?? []
            blockedApps = try c.decodeIfPresent([String].self, forKey: .blockedApps)
        }
    }

    /// A weekly window: ISO weekdays (1 Monday … 7 Sunday), local times `from` and `to` ("HH:MM";
    /// a `to` before `from` crosses midnight).
    package struct Window: Decodable, Sendable, Equatable {
        package var days: [Int]
        package var from: String
        package var to: String
    }

    package struct Habit: Decodable, Sendable, Equatable {
        package var name: String
        /// Credits per completion (0–100); none: the rules' default.
        package var rewardCredits: Int?
        /// The probability of completing it on a day.
        package var rate: Double
        enum CodingKeys: String, CodingKey { case name, rewardCredits = "reward_credits", rate }
    }

    package struct Focus: Decodable, Sendable, Equatable {
        /// Sessions per day, on average (the fraction is a chance of one more).
        package var sessionsPerDay: Double = 0
        /// The planned lengths the user picks from (uniformly), in minutes.
        package var minutes: [Int] = [25]
        /// The probability of ending a session early (at a uniform moment within it).
        package var quitEarly: Double = 0
        /// Sessions start between these local hours (uniform) and end before 23:30.
        package var hours: [Int] = [8, 21]
        /// Whether sessions block strictly (STRICT) rather than gently.
        package var strict: Bool = true
        enum CodingKeys: String, CodingKey { case sessionsPerDay = "sessions_per_day", minutes, quitEarly = "quit_early", hours, strict }
        package init() {}
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            sessionsPerDay = try c.decodeIfPresent(Double.self, forKey: .sessionsPerDay) ?? sessionsPerDay
            minutes = try c.decodeIfPresent([Int].self, forKey: .minutes) ?? minutes
            quitEarly = try c.decodeIfPresent(Double.self, forKey: .quitEarly) ?? quitEarly
            hours = try c.decodeIfPresent([Int].self, forKey: .hours) ?? hours
            strict = try c.decodeIfPresent(Bool.self, forKey: .strict) ?? strict
        }
    }

    package struct Urges: Decodable, Sendable, Equatable {
        /// Opens of a distracting app per day, on average (the fraction is a chance of one more).
        package var perDay: Double = 0
        /// Urges come between these local hours (uniform), `{ 8, 23 }`: 08:00 to 22:59.
        package var hours: [Int] = [8, 23]
        enum CodingKeys: String, CodingKey { case perDay = "per_day", hours }
        package init() {}
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            perDay = try c.decodeIfPresent(Double.self, forKey: .perDay) ?? perDay
            hours = try c.decodeIfPresent([Int].self, forKey: .hours) ?? hours
        }
    }

    /// What the user does at the unlock gate. It first wants credits, a quest or an emergency
    /// unlock with these probabilities (the rest: it gives up and leaves the gate); when the option
    /// it wants is disabled it picks another enabled one by the same weights (or gives up) — but
    /// with probability `insist` it picks the disabled one anyway, and is denied.
    package struct Gate: Decodable, Sendable, Equatable {
        package var credits: Double = 0.5
        package var quest: Double = 0.3
        package var emergency: Double = 0.05
        /// Credit unlock lengths in order of preference: the first one enabled is taken.
        package var creditMinutes: [Int] = [5]
        /// Quest types in order of preference: the first one enabled is taken.
        package var questTypes: [String] = ["BREATHING"]
        package var insist: Double = 0
        enum CodingKeys: String, CodingKey {
            case credits, quest, emergency, creditMinutes = "credit_minutes", questTypes = "quest_types", insist
        }
        package init() {}
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            credits = try c.decodeIfPresent(Double.self, forKey: .credits) ?? credits
            quest = try c.decodeIfPresent(Double.self, forKey: .quest) ?? quest
            emergency = try c.decodeIfPresent(Double.self, forKey: .emergency) ?? emergency
            creditMinutes = try c.decodeIfPresent([Int].self, forKey: .creditMinutes) ?? creditMinutes
            questTypes = try c.decodeIfPresent([String].self, forKey: .questTypes) ?? questTypes
            insist = try c.decodeIfPresent(Double.self, forKey: .insist) ?? insist
        }
    }

    /// How a started quest ends: completed, failed or cancelled with these probabilities, `minutes`
    /// after it started (uniform); the rest are left to expire.
    package struct Quest: Decodable, Sendable, Equatable {
        package var complete: Double = 0.8
        package var fail: Double = 0.1
        package var cancel: Double = 0.05
        package var minutes: [Int] = [1, 4]
        package init() {}
        enum CodingKeys: String, CodingKey { case complete, fail, cancel, minutes }
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            complete = try c.decodeIfPresent(Double.self, forKey: .complete) ?? complete
            fail = try c.decodeIfPresent(Double.self, forKey: .fail) ?? fail
            cancel = try c.decodeIfPresent(Double.self, forKey: .cancel) ?? cancel
            minutes = try c.decodeIfPresent([Int].self, forKey: .minutes) ?? minutes
        }
    }

    enum CodingKeys: String, CodingKey {
        case share, apps, modes, qrKey = "qr_key", habits, habitsTogether = "habits_together", focus, urges, gate, quest
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        share = try c.decodeIfPresent(Double.self, forKey: .share) ?? 1
        apps = try c.decode([String].self, forKey: .apps)
        modes = try c.decodeIfPresent([Mode].self, forKey: .modes) ?? []
        qrKey = try c.decodeIfPresent(Double.self, forKey: .qrKey) ?? 0
        habits = try c.decodeIfPresent([Habit].self, forKey: .habits) ?? []
        habitsTogether = try c.decodeIfPresent(Double.self, forKey: .habitsTogether) ?? 0
        focus = try c.decodeIfPresent(Focus.self, forKey: .focus) ?? Focus()
        urges = try c.decodeIfPresent(Urges.self, forKey: .urges) ?? Urges()
        gate = try c.decodeIfPresent(Gate.self, forKey: .gate) ?? Gate()
        quest = try c.decodeIfPresent(Quest.self, forKey: .quest) ?? Quest()
    }
}

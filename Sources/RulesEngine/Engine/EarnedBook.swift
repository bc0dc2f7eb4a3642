import RulesModel

/// The engine's bookkeeping of one user's Earned economy (part of `EngineState`): the day in
/// progress, and what is open — the unlock attempts waiting for a choice, the quests running, the
/// focus session. The rows themselves are in the store; this keeps their ids and deadlines.
struct EarnedBook: Codable, Equatable {
    /// The Earned day in progress (economy_state.current_day_id) and the instant it ends.
    var day: DayID
    var dayEnds: EpochMillis
    /// Minutes of qualifying focus sessions today (for `earned.qualifies`).
    var focusMinutesToday = 0
    /// Unlocks granted today, by app id (any method; for pricing.lua's `price`); nil when none
    /// (so that a state with no unlock today reads as before prices had a context).
    var unlocksToday: [String: Int]?
    /// Attempts waiting for a choice, by app id.
    var attempts: [String: OpenAttempt] = [:]
    /// Quests running, by app id.
    var quests: [String: OpenQuest] = [:]
    var focus: OpenFocus?
    /// Modes and habits by the names events use for them.
    var modes: [String: String] = [:]
    var habits: [String: String] = [:]
    /// Numbers the user's attempts and focus sessions (their ids derive from it).
    var serial = 0
    /// How today qualified for the streak (`earned.day_ends`'s `qualified`); nil until it does.
    var qualifiedBy: StreakQualificationMethod?
    /// The streak freezes the user holds (`earned.day_ends` earns and spends them); nil when none,
    /// so that a state without freezes reads as before they existed.
    var freezes: Int?
    /// A8's cleanup: when it last ran for the user; nil in a state saved before the engine ran it
    /// (the next event runs it).
    var cleanup: Cleanup?
    /// The settings set again, whose rows keep only the last value (the "Distracting Apps" list,
    /// the QR key): a database read back as events cannot give back the earlier ones. Nil when none.
    var setAgain: [String]?

    /// Notes that `event` set again what an earlier one had set.
    mutating func noteSetAgain(_ event: EventDeclaration) {
        if setAgain?.contains(event.name) != true { setAgain = ((setAgain ?? []) + [event.name]).sorted() }
    }

    /// The last cleanup of the user's rows, and from which instant on every table it prunes is
    /// whole: no row at or after `wholeFrom` was ever deleted (the latest cutoff of every run). The
    /// invariant checker reads it (`engine_state.state_json` `$.earned.cleanup.wholeFrom`).
    /// When the cleanup last ran (nil: never). Mutating, though it changes nothing: called through
    /// `context.book.earned?`, it reads the book in place instead of copying it.
    mutating func lastCleanup() -> EpochMillis?? { cleanup?.at }

    /// The next id of the user's attempts, quests and sessions (`name`: the user's).
    mutating func nextID(_ kind: String, of name: String) -> String {
        serial += 1
        return RecordedBookkeeping.earnedID(kind, user: name, serial: serial)
    }

    /// One more unlock granted today for `app` (the counts `price` receives).
    mutating func countUnlock(_ app: AppID) {
        unlocksToday = (unlocksToday ?? [:]).merging([app.rawValue: 1], uniquingKeysWith: +)
    }

    struct Cleanup: Codable, Equatable {
        var at: EpochMillis
        var wholeFrom: EpochMillis
    }

    struct OpenAttempt: Codable, Equatable {
        var id: String
        var expires: EpochMillis
        /// The mode and strictness the attempt was opened under.
        var modeID: String?
        var strictness: Strictness
        /// The prices of the A4.2 snapshot (`price` when the gate opened): a CREDITS choice is
        /// charged these. Nil in a state saved before prices were recorded: then it is priced anew.
        var prices: [PricingPolicy.CreditCost]?
    }

    struct OpenQuest: Codable, Equatable {
        var id: String
        var attemptID: String
        var type: QuestType
        var expires: EpochMillis
    }

    struct OpenFocus: Codable, Equatable {
        var id: String
        var started: EpochMillis
        var plannedMinutes: Int
        var day: DayID
        var strict: Bool
        /// The apps it blocks; none: the "Distracting Apps".
        var blockedApps: [AppID]

        var ends: EpochMillis { started + Int64(plannedMinutes) * Millis.minute }
    }
}

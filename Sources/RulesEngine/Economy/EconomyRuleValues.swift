import RulesModel
import RulesStore

/// What `quest_blocked` sees for one quest type at the unlock gate.
public struct QuestGate: Hashable, Sendable {
    public var strictness: Strictness
    public var questType: QuestType
    /// Quest unlocks of this app granted today (failed, cancelled and expired quests never count).
    public var questUnlocksToday: Int
    /// Minutes since this app's last quest unlock started, nil when there was none today.
    public var minutesSinceLastQuestUnlock: Int?
    public var qrKeySet: Bool

    public init(strictness: Strictness, questType: QuestType, questUnlocksToday: Int, minutesSinceLastQuestUnlock: Int?, qrKeySet: Bool) {
        self.strictness = strictness
        self.questType = questType
        self.questUnlocksToday = questUnlocksToday
        self.minutesSinceLastQuestUnlock = minutesSinceLastQuestUnlock
        self.qrKeySet = qrKeySet
    }

    /// Hashed by the enumerations' cases, not their texts (what Swift hashes for an enumeration
    /// with a raw value): the gate is the key of a remembered answer, looked up at every unlock.
    public func hash(into hasher: inout Hasher) {
        let type: Int
        switch questType {
        case .breathing: type = 0
        case .copyText: type = 1
        case .qrScan: type = 2
        }
        hasher.combine(strictness.rank << 8 | type << 4 | (qrKeySet ? 1 : 0))
        hasher.combine(questUnlocksToday)
        hasher.combine(minutesSinceLastQuestUnlock ?? -1)
    }
}

/// What `emergency_blocked` sees at the unlock gate.
public struct EmergencyGate: Hashable, Sendable {
    public var usedToday: Int
    /// Whether the last emergency unlock was for this same app.
    public var sameAppAsLast: Bool

    public init(usedToday: Int, sameAppAsLast: Bool) {
        self.usedToday = usedToday
        self.sameAppAsLast = sameAppAsLast
    }
}

/// An ended focus session, as `focus_credits` sees it.
public struct FocusOutcome: Hashable, Sendable {
    public var actualMinutes: Int
    public var plannedMinutes: Int
    public var completed: Bool

    public init(actualMinutes: Int, plannedMinutes: Int, completed: Bool) {
        self.actualMinutes = actualMinutes
        self.plannedMinutes = plannedMinutes
        self.completed = completed
    }
}

/// `habit_award`'s answer: the credits of one habit completion, and whether it suspends awards.
public struct HabitAward: Hashable, Sendable, Decodable {
    public var credits: Int
    public var suspend: Bool

    public init(credits: Int, suspend: Bool) {
        self.credits = credits
        self.suspend = suspend
    }
}

/// One mode as `effective_mode` sees it.
public struct ModeCandidate: Hashable, Sendable {
    public struct Window: Hashable, Sendable {
        public var daysMask: Int
        public var startMinutes: Int
        public var endMinutes: Int
        public init(daysMask: Int, startMinutes: Int, endMinutes: Int) {
            self.daysMask = daysMask
            self.startMinutes = startMinutes
            self.endMinutes = endMinutes
        }
    }

    public var priority: Int
    public var strictness: Strictness
    public var manualState: ManualOverrideState
    /// Whether the manual state is in force now (effective and not expired).
    public var overrideInForce: Bool
    public var windows: [Window]

    public init(priority: Int, strictness: Strictness, manualState: ManualOverrideState, overrideInForce: Bool, windows: [Window]) {
        self.priority = priority
        self.strictness = strictness
        self.manualState = manualState
        self.overrideInForce = overrideInForce
        self.windows = windows
    }
}

/// A local instant as `effective_mode` sees it: the ISO weekday (1 Monday … 7 Sunday) and the
/// minutes since local midnight.
public struct LocalMoment: Hashable, Sendable {
    public var weekday: Int
    public var minutes: Int

    public init(weekday: Int, minutes: Int) {
        self.weekday = weekday
        self.minutes = minutes
    }
}

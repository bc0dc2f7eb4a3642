import RulesModel
import RulesStore

/// The plain values of pricing.lua and quests.lua that the engine applies itself.
public struct EconomyParameters: Sendable, Equatable {
    /// The unlock lengths and their prices, in increasing length.
    public var creditCosts: [PricingPolicy.CreditCost]
    public var rolloverCap: Int
    /// A focus session of at least this many minutes qualifies (`focus_session.qualifies`).
    public var focusMinMinutesToQualify: Int
    public var focusPresetMinutes: [Int]
    /// The reward of a habit defined without one.
    public var defaultRewardCredits: Int
    /// Habit completions are counted over this many minutes for `habit_award`.
    public var suspensionWindowMinutes: Int
    /// A suspension lasts through this many days after the completion's day.
    public var suspendDays: Int
    public var questTypes: [QuestType]
    public var questUnlockMinutes: Int
    public var questSessionMinutes: Int
    public var questMaxUnlocksPerAppPerDay: Int
    public var questCooldownMinutesPerApp: Int
    public var keyChangeCooldownHoursStrict: Int
    public var emergencyDailyLimit: Int
    public var emergencyDelaySeconds: Int
    public var emergencyUnlockMinutes: Int
    public var emergencyBlockSameAppConsecutive: Bool
    /// An attempt left without a choice expires after this many minutes.
    public var gateExpiresAfterMinutes: Int
    /// A8: how long the unlock records and the event log are kept, and how often they are cleaned up.
    public var retention: RetentionPolicy

    public init(
        creditCosts: [PricingPolicy.CreditCost], rolloverCap: Int, focusMinMinutesToQualify: Int, focusPresetMinutes: [Int],
        defaultRewardCredits: Int, suspensionWindowMinutes: Int, suspendDays: Int, questTypes: [QuestType],
        questUnlockMinutes: Int, questSessionMinutes: Int, questMaxUnlocksPerAppPerDay: Int, questCooldownMinutesPerApp: Int,
        keyChangeCooldownHoursStrict: Int, emergencyDailyLimit: Int, emergencyDelaySeconds: Int, emergencyUnlockMinutes: Int,
        emergencyBlockSameAppConsecutive: Bool, gateExpiresAfterMinutes: Int, retention: RetentionPolicy = .seeds
    ) {
        self.creditCosts = creditCosts
        self.rolloverCap = rolloverCap
        self.focusMinMinutesToQualify = focusMinMinutesToQualify
        self.focusPresetMinutes = focusPresetMinutes
        self.defaultRewardCredits = defaultRewardCredits
        self.suspensionWindowMinutes = suspensionWindowMinutes
        self.suspendDays = suspendDays
        self.questTypes = questTypes
        self.questUnlockMinutes = questUnlockMinutes
        self.questSessionMinutes = questSessionMinutes
        self.questMaxUnlocksPerAppPerDay = questMaxUnlocksPerAppPerDay
        self.questCooldownMinutesPerApp = questCooldownMinutesPerApp
        self.keyChangeCooldownHoursStrict = keyChangeCooldownHoursStrict
        self.emergencyDailyLimit = emergencyDailyLimit
        self.emergencyDelaySeconds = emergencyDelaySeconds
        self.emergencyUnlockMinutes = emergencyUnlockMinutes
        self.emergencyBlockSameAppConsecutive = emergencyBlockSameAppConsecutive
        self.gateExpiresAfterMinutes = gateExpiresAfterMinutes
        self.retention = retention
    }
}

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

import RulesModel
import RulesStore

/// What `quest_blocked` sees for one quest type at the unlock gate.
package struct QuestGate: Hashable, Sendable {
    package var strictness: Strictness
    package var questType: QuestType
    /// Quest unlocks of this app granted today (failed, cancelled and expired quests never count).
    package var questUnlocksToday: Int
    /// Minutes since this app's last quest unlock started, nil when there was none today.
    package var minutesSinceLastQuestUnlock: Int?
    package var qrKeySet: Bool

    package init(strictness: Strictness, questType: QuestType, questUnlocksToday: Int, minutesSinceLastQuestUnlock: Int?, qrKeySet: Bool) {
        self.strictness = strictness
        self.questType = questType
        self.questUnlocksToday = questUnlocksToday
        self.minutesSinceLastQuestUnlock = minutesSinceLastQuestUnlock
        self.qrKeySet = qrKeySet
    }

    /// Hashed by the enumerations' cases, not their texts (what Swift hashes for an enumeration
    /// with a raw value): the gate is the key of a remembered answer, looked up at every unlock.
    package func hash(into hasher: inout Hasher) {
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
package struct EmergencyGate: Hashable, Sendable {
    package var usedToday: Int
    /// Whether the last emergency unlock was for this same app.
    package var sameAppAsLast: Bool

    package init(usedToday: Int, sameAppAsLast: Bool) {
        self.usedToday = usedToday
        self.sameAppAsLast = sameAppAsLast
    }
}

/// An ended focus session, as `focus_credits` sees it.
package struct FocusOutcome: Hashable, Sendable {
    package var actualMinutes: Int
    package var plannedMinutes: Int
    package var completed: Bool

    package init(actualMinutes: Int, plannedMinutes: Int, completed: Bool) {
        self.actualMinutes = actualMinutes
        self.plannedMinutes = plannedMinutes
        self.completed = completed
    }
}

/// `habit_award`'s answer: the credits of one habit completion, and whether it suspends awards.
package struct HabitAward: Hashable, Sendable, Decodable {
    package var credits: Int
    package var suspend: Bool

    package init(credits: Int, suspend: Bool) {
        self.credits = credits
        self.suspend = suspend
    }
}

/// One mode as `effective_mode` sees it.
package struct ModeCandidate: Hashable, Sendable {
    package struct Window: Hashable, Sendable {
        package var daysMask: Int
        package var startMinutes: Int
        package var endMinutes: Int
        package init(daysMask: Int, startMinutes: Int, endMinutes: Int) {
            self.daysMask = daysMask
            self.startMinutes = startMinutes
            self.endMinutes = endMinutes
        }
    }

    package var priority: Int
    package var strictness: Strictness
    package var manualState: ManualOverrideState
    /// Whether the manual state is in force now (effective and not expired).
    package var overrideInForce: Bool
    package var windows: [Window]

    package init(priority: Int, strictness: Strictness, manualState: ManualOverrideState, overrideInForce: Bool, windows: [Window]) {
        self.priority = priority
        self.strictness = strictness
        self.manualState = manualState
        self.overrideInForce = overrideInForce
        self.windows = windows
    }
}

/// A local instant as `effective_mode` sees it: the ISO weekday (1 Monday … 7 Sunday) and the
/// minutes since local midnight.
package struct LocalMoment: Hashable, Sendable {
    package var weekday: Int
    package var minutes: Int

    package init(weekday: Int, minutes: Int) {
        self.weekday = weekday
        self.minutes = minutes
    }
}

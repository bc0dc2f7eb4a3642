import RulesModel

/// What Earned's users did and got on one simulated day, summed over users (`DayTotals.earned`).
/// Only integer counts, so that parts add up exactly to the whole.
package struct EconomyTotals: Codable, Sendable, Equatable {
    /// Credits earned (focus sessions, habit completions and streak bonuses), spent on credit
    /// unlocks, and forfeited at the day's rollover (the balance above what the rules carry over).
    package var creditsEarned = 0
    package var creditsSpent = 0
    package var creditsForfeited = 0
    /// Urges to open a distracting app acted on, and what they met: the gate opened (retries after
    /// a denial included), the app not blocked at that moment, or the app already unlocked by a grant.
    package var urges = 0
    package var gateOpens = 0
    package var unblockedOpens = 0
    package var openedWhileUnlocked = 0
    /// Choices made at the gate (`unlock_choose` applied), the user giving up at the gate, and
    /// attempts left to expire.
    package var choices = 0
    package var gaveUp = 0
    package var attemptsExpired = 0
    /// Unlocks granted, by method (an emergency unlock is an emergency use), and denials by reason.
    package var unlocks = CaseCounts<UnlockGrantMethod>()
    package var denials = CaseCounts<UnlockDenialReason>()
    /// Quests started, and how they ended.
    package var questsStarted = 0
    package var quests = CaseCounts<QuestOutcome>()
    /// Focus sessions that ran their planned length, and those ended early.
    package var focusCompleted = 0
    package var focusEndedEarly = 0
    /// Earned habit completions the personas planned, those recorded, and those whose award was
    /// suspended (too many completions in the rules' window).
    package var habitsPlanned = 0
    package var habitsDone = 0
    package var habitAwardsSuspended = 0
    /// Earned days that qualified for the streak.
    package var qualifiedDays = 0
    /// Earned's users by credit balance at the end of the day (before the 04:00 rollover).
    package var balances: [Int] = []

    package init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case creditsEarned = "credits_earned", creditsSpent = "credits_spent", creditsForfeited = "credits_forfeited", urges
        case gateOpens = "gate_opens", unblockedOpens = "unblocked_opens", openedWhileUnlocked = "opened_while_unlocked", choices
        case gaveUp = "gave_up", attemptsExpired = "attempts_expired", unlocks, denials, questsStarted = "quests_started", quests
        case focusCompleted = "focus_completed", focusEndedEarly = "focus_ended_early", habitsPlanned = "habits_planned"
        case habitsDone = "habits_done", habitAwardsSuspended = "habit_awards_suspended", qualifiedDays = "qualified_days"
        case balances = "balance_histogram"
    }

    /// Adds another part's counts.
    package mutating func add(_ o: EconomyTotals) {
        creditsEarned += o.creditsEarned
        creditsSpent += o.creditsSpent
        creditsForfeited += o.creditsForfeited
        urges += o.urges
        gateOpens += o.gateOpens
        unblockedOpens += o.unblockedOpens
        openedWhileUnlocked += o.openedWhileUnlocked
        choices += o.choices
        gaveUp += o.gaveUp
        attemptsExpired += o.attemptsExpired
        unlocks.add(o.unlocks)
        denials.add(o.denials)
        questsStarted += o.questsStarted
        quests.add(o.quests)
        focusCompleted += o.focusCompleted
        focusEndedEarly += o.focusEndedEarly
        habitsPlanned += o.habitsPlanned
        habitsDone += o.habitsDone
        habitAwardsSuspended += o.habitAwardsSuspended
        qualifiedDays += o.qualifiedDays
        Histogram.add(o.balances, to: &balances)
    }

    /// Why these counts cannot be a day of Earned among `n` users (a message naming the field at
    /// `path`), nil when they can: at most `n` Earned users, nothing counted without one, every
    /// choice at the gate counted once by its outcome, a part at most its whole.
    func problem(users n: Int, at path: String) -> String? {
        var problem: String?
        func require(_ ok: Bool, _ key: String, _ message: @autoclosure () -> String) {
            if problem == nil, !ok { problem = "\(path).\(key): \(message())" }
        }
        typealias K = CodingKeys
        let outcomes = unlocks[.credits] + unlocks[.emergency] + questsStarted + denials.total
        require(users <= n, K.balances.rawValue, "counts \(users) Earned users, but the report covers \(n) users")
        var rest = self
        rest.balances = []
        require(
            users > 0 || rest == EconomyTotals(), K.balances.rawValue,
            "counts no Earned user, but the day has Earned counts (expected every count 0)")
        require(
            outcomes <= choices, K.choices.rawValue,
            "\(choices), expected at least the choices' outcomes: unlocks CREDITS \(unlocks[.credits]) "
                + "+ EMERGENCY \(unlocks[.emergency]) + quests_started \(questsStarted) + denials \(denials.total) = \(outcomes)")
        require(
            unlocks[.quest] == quests[.completed], "\(K.unlocks.rawValue).\(UnlockGrantMethod.quest.rawValue)",
            "\(unlocks[.quest]), expected the \(quests[.completed]) quests COMPLETED (each grants one unlock)")
        require(habitsDone <= habitsPlanned, K.habitsDone.rawValue, "\(habitsDone), expected at most habits_planned \(habitsPlanned)")
        require(
            habitAwardsSuspended <= habitsDone, K.habitAwardsSuspended.rawValue,
            "\(habitAwardsSuspended), expected at most habits_done \(habitsDone)")
        return problem
    }

    /// Earned's users counted (by their end-of-day balance); over several days, user-days.
    package var users: Int { balances.reduce(0, +) }

    package func balancePercentile(_ p: Int) -> Int { Histogram.percentile(p, of: balances) }

    package var maxBalance: Int { Histogram.maximum(of: balances) }

    /// The share of choices at the gate that were denied.
    package var denialShare: Double { choices == 0 ? 0 : Double(denials.total) / Double(choices) }
}

import RulesEngine
import RulesModel

/// The apps whose generated histories a property can be checked on: `compare`'s three generators
/// (fresh Pressure users, Earned users, habit-tracker users), each history as replay lines for
/// one user.
package enum HistoryApp: String, CaseIterable, Sendable {
    case pressure, earned, habits

    /// `compare`'s own lengths: 30 days of Pressure, 14 of Earned, 21 of habits.
    package var defaultDays: Int {
        switch self {
        case .pressure: CompareOptions.defaultDays
        case .earned: CompareOptions.defaultEconomyDays
        case .habits: CompareOptions.defaultHabitDays
        }
    }

    /// The rule functions the engine calls for the app's events (`RuleSet.namedRuleFunctions`):
    /// what a check on its histories is measured against (`RuleReach`).
    package var ruleFunctions: [String] {
        switch self {
        case .pressure: ["escalation.transition", "escalation.reminder_times", "streaks.pressure.next"]
        case .earned:
            [
                "pricing.price", "pricing.focus_credits", "pricing.carried_credits", "pricing.habit_award", "quests.quest_blocked",
                "quests.emergency_blocked", "modes.effective_mode", "modes.mode_active", "modes.window_active", "streaks.earned.qualifies",
                "streaks.earned.bonus", "streaks.earned.day_ends",
            ]
        case .habits: ["streaks.habit.streak"]
        }
    }

    /// `Pressure histories`, `Earned histories`, `habit histories`.
    package var historiesName: String {
        switch self {
        case .pressure: "Pressure histories"
        case .earned: EconomyField.historiesName
        case .habits: HabitField.historiesName
        }
    }

    /// The longest history a property may ask for: each case is replayed through the engine, and
    /// again for each candidate while it shrinks.
    package static let maxDays = 366

    /// Case `k` of `seed`: the same lines for the same seed, case and length, on every machine.
    package func history(seed: UInt64, days: Int, case k: Int) -> PropertyHistory {
        switch self {
        case .pressure:
            .pressure(HistoryGenerator(seed: seed, days: days...days, freshStart: true).history(case: k))
        case .earned: .lines(EconomyHistory(seed: seed, days: days).lines(case: k))
        case .habits: .lines(HabitHistory(seed: seed, days: days).lines(case: k))
        }
    }
}

/// One generated history a property is checked on: a Pressure history (shrunk as `compare`
/// shrinks it: fewer days, plainer days) or replay lines (shrunk by leaving events out).
package enum PropertyHistory: Sendable {
    case pressure(PressureHistory)
    case lines([String])

    /// Its replay lines, for user `u1` (a replay file's) or another user of the same store.
    package func lines(user: String = "u1") -> [String] {
        switch self {
        case .pressure(let history): return ReplayScript(history, user: user).lines
        case .lines(let lines):
            guard user != "u1" else { return lines }
            return lines.map { $0.replacingOccurrences(of: "\"user\": \"u1\"", with: "\"user\": \"\(user)\"") }
        }
    }

    /// Smaller histories, as compare's shrinkers make them.
    package static func shrink(_ history: PropertyHistory) -> AnySequence<PropertyHistory> {
        switch history {
        case .pressure(let pressure): AnySequence(HistoryGenerator.shrink(pressure).lazy.map { PropertyHistory.pressure($0) })
        case .lines(let lines): AnySequence(LineComparison<EconomyField>.chunkRemovals(lines).lazy.map { PropertyHistory.lines($0) })
        }
    }
}

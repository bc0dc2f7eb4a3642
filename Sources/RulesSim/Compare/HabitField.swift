import RulesEngine
import RulesModel

/// What `compare` reads off the engine's output to compare two habit trackers, event by event:
/// the state's streaks, best streaks and scores of every task after each event, and what the
/// habit events themselves decided. Scores are compared exactly as printed (the rule's number):
/// two rules that compute one score in another order of operations differ in its last digits.
package enum HabitField: String, CaseIterable, Sendable, ComparedField {
    /// One set refuses an event the other accepts (or refuses it with another code): a completion
    /// `for_day` beyond one set's `habit.max_backfill_days`, a result its host checks refuse.
    case error
    /// Each task's current streak (`state.habit_streaks`).
    case habitStreak = "habit_streak"
    /// Each task's best streaks (`state.habit_best_streaks`; absent when the rule returns none).
    case habitBestStreaks = "habit_best_streaks"
    /// Each task's score (`state.habit_scores`; absent when the rule returns none).
    case habitScore = "habit_score"
    /// What a habit event decided beyond the streaks above (`decisions.habit_task`, `habit_completion`,
    /// `habit_skip`, `habit_freeze`, `habit_uncheck` without `current_streak`, `best_streak`,
    /// `score`): the task's fields, the day or period it counted for, the completions in it.
    case habitDecision = "habit_decision"

    package static let half = "habit"
    package static let section = "habits"
    package static let historiesName = "habit histories"
    package static let owner = "the habit tracker's"
    package static let comparedText = "every habit event, streak, best streak and score"
    /// The set-up: the user's time zone and day start, the tasks.
    package static let setupTypes = ["settings", "habit_task"]
    package static func history(seed: UInt64, days: Int) -> HabitHistory { HabitHistory(seed: seed, days: days) }

    /// The decision fields the state's fields already compare.
    static let streakFields: Set<String> = ["current_streak", "best_streak", "score"]

    package func value(of line: JSONValue) -> JSONValue {
        let state = Replay.appliedState(of: line)
        let value: JSONValue? =
            switch self {
            case .error: line["error"]?["code"] ?? .string("ok")
            case .habitStreak: state?["habit_streaks"]
            case .habitBestStreaks: state?["habit_best_streaks"]
            case .habitScore: state?["habit_scores"]
            case .habitDecision:
                if case .object(let decisions)? = line["decisions"] {
                    .object(
                        decisions.filter { $0.0.hasPrefix("habit_") }.map { name, decision in
                            guard case .object(let fields) = decision else { return (name, decision) }
                            return (name, .object(fields.filter { !Self.streakFields.contains($0.0) }))
                        })
                } else {
                    nil
                }
            }
        return value ?? .null
    }
}

import RulesEngine
import RulesModel

/// What two rule sets can decide differently on a day: the kinds `rulesrun compare` groups its
/// differences by, named after the engine's output fields.
package enum HistoryField: String, CaseIterable, Sendable, Comparable {
    case currentTier = "current_tier"
    case consecutiveMisses = "consecutive_misses"
    case consecutiveSuccesses = "consecutive_successes"
    case currentStreak = "current_streak"
    case longestStreak = "longest_streak"
    /// The day's reminder times (seen on days with a commitment).
    case reminders
    /// Tier 3's badge during the day (seen on days with a commitment).
    case persistentBadge = "persistent_badge"
    /// Whether a restart shield was applied.
    case shield
    case restartShieldsRemaining = "restart_shields_remaining"
    /// A rule failed or broke an invariant under one set and not the other.
    case error

    package static func < (a: HistoryField, b: HistoryField) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// The rule functions whose answers make the field (by `RuleSet.namedRuleFunctions`' names):
    /// the tier and its counters, the badge, the shields come from `escalation.transition`, the
    /// reminders from `escalation.reminder_times` at that tier, the streaks from
    /// `streaks.pressure.next`; `error` from any rule (empty).
    package var producers: [String] {
        switch self {
        case .currentTier, .consecutiveMisses, .consecutiveSuccesses, .persistentBadge, .shield, .restartShieldsRemaining:
            ["escalation.transition"]
        case .reminders: ["escalation.reminder_times", "escalation.transition"]
        case .currentStreak, .longestStreak: ["streaks.pressure.next"]
        case .error: []
        }
    }

    /// The fields an expectation can compare as numbers.
    package var isNumeric: Bool {
        switch self {
        case .currentTier, .consecutiveMisses, .consecutiveSuccesses, .currentStreak, .longestStreak, .restartShieldsRemaining: true
        default: false
        }
    }

    /// The field's value after a day, as a number (numeric fields only).
    package func number(in outcome: HistoryWalker.Outcome) -> Int? {
        switch self {
        case .currentTier: outcome.counters.tier
        case .consecutiveMisses: outcome.counters.misses
        case .consecutiveSuccesses: outcome.counters.successes
        case .currentStreak: outcome.streak.current
        case .longestStreak: outcome.streak.longest
        case .restartShieldsRemaining: outcome.shieldsRemaining
        default: nil
        }
    }

    /// Whether two days that both set decided show the field differently: `value(in:)` compared,
    /// without building its text (the walk asks it for every field of every differing day).
    package func differs(_ p: HistoryWalker.Outcome, _ q: HistoryWalker.Outcome) -> Bool {
        switch self {
        case .reminders: p.committed != q.committed || (p.committed && p.reminders != q.reminders)
        case .persistentBadge: p.committed != q.committed || (p.committed && p.persistentBadge != q.persistentBadge)
        case .shield: p.shieldApplied != q.shieldApplied
        case .error: false
        default: number(in: p) != number(in: q)
        }
    }

    /// The field's value after a day as the replay's output shows it; nil when the day does not
    /// show it (reminders and the badge on a day without a commitment).
    package func value(in outcome: Result<HistoryWalker.Outcome, any Error>) -> String? {
        guard case .success(let o) = outcome else { return self == .error ? "error" : nil }
        switch self {
        case .reminders: return o.committed ? "[" + o.reminders.map(\.text).joined(separator: " ") + "]" : nil
        case .persistentBadge: return o.committed ? String(o.persistentBadge) : nil
        case .shield: return o.shieldApplied.map { $0 ? "applied" : "refused" }
        case .error: return "ok"
        default: return number(in: o).map(String.init)
        }
    }
}

import RulesEngine
import RulesModel

/// What `compare` reads off the engine's output to compare two economies, event by event. Ids
/// (attempts, grants, quests, sessions) are left out: they number what happened, not what was decided.
package enum EconomyField: String, CaseIterable, Sendable, ComparedField {
    /// One set refuses an event the other accepts (or refuses it with another code).
    case error
    /// The unlock gate: whether the app is blocked, and the options snapshot (A4.2).
    case gateOptions = "gate_options"
    /// A choice at the gate: granted, denied (with the reason) or a quest started; the grant's window.
    case unlock
    /// A quest's end, and the grant it gave.
    case quest
    /// Credits earned by a focus session or a habit, its qualification, the streak and its bonus.
    case creditsEarned = "credits_earned"
    /// The day's rollover: credits carried and forfeited, the streak kept or reset.
    case rollover
    case creditBalance = "credit_balance"
    case streakCount = "streak_count"

    package static let half = "economy"
    package static let section = "economy"
    package static let historiesName = "Earned histories"
    package static let owner = "the economy's"
    package static let comparedText = "every unlock, option, credit and streak"
    /// The set-up: apps, modes, habits, QR key.
    package static let setupTypes = ["distracting_apps", "mode", "earned_habit", "qr_key"]
    package static func history(seed: UInt64, days: Int) -> EconomyHistory { EconomyHistory(seed: seed, days: days) }

    static let ids: Set<String> = ["attempt_id", "grant_id", "quest_session_id", "session_id", "generated_ts_utc_ms", "mode_id"]

    /// What one output line shows of the field (null when nothing), ids left out.
    package func value(of line: JSONValue) -> JSONValue {
        let decisions = line["decisions"]
        func pair(_ a: String, _ b: String) -> JSONValue {
            .object([(a, decisions?[a] ?? .null), (b, decisions?[b] ?? .null)])
        }
        let value: JSONValue? =
            switch self {
            case .error: line["error"]?["code"] ?? .string("ok")
            case .gateOptions: decisions?["unlock_gate"]
            case .unlock: decisions?["unlock"]
            case .quest: pair("quest", "quests_expired")
            case .creditsEarned: pair("focus_ended", "earned_habit_completion")
            case .rollover: decisions?["earned_days"]
            case .creditBalance: Replay.appliedState(of: line)?["earned"]?["credit_balance"]
            case .streakCount: Replay.appliedState(of: line)?["earned"]?["streak_count"]
            }
        return Self.withoutIDs(value ?? .null)
    }

    static func withoutIDs(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let fields): .object(fields.filter { !ids.contains($0.0) }.map { ($0.0, withoutIDs($0.1)) })
        case .array(let items): .array(items.map(withoutIDs))
        default: value
        }
    }
}

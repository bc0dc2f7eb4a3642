import RulesEngine

/// What `compare` reads off the engine's output to compare two economies, event by event. Ids
/// (attempts, grants, quests, sessions) are left out: they number what happened, not what was decided.
public enum EconomyField: String, CaseIterable, Sendable {
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

    static let ids: Set<String> = ["attempt_id", "grant_id", "quest_session_id", "session_id", "generated_ts_utc_ms", "mode_id"]

    /// What one output line shows of the field ("-" when nothing).
    public func projection(of line: JSONOut) -> String {
        let decisions = line["decisions"]
        func shown(_ value: JSONOut?) -> String { value.map { Self.withoutIDs($0).description } ?? "-" }
        switch self {
        case .error: return line["error"]?["code"]?.description ?? "ok"
        case .gateOptions: return shown(decisions?["unlock_gate"])
        case .unlock: return shown(decisions?["unlock"])
        case .quest: return shown(decisions?["quest"]) + shown(decisions?["quests_expired"])
        case .creditsEarned: return shown(decisions?["focus_ended"]) + shown(decisions?["earned_habit_completion"])
        case .rollover: return shown(decisions?["earned_days"])
        case .creditBalance: return line["state"]?["earned"]?["credit_balance"]?.description ?? "-"
        case .streakCount: return line["state"]?["earned"]?["streak_count"]?.description ?? "-"
        }
    }

    static func withoutIDs(_ value: JSONOut) -> JSONOut {
        switch value {
        case .object(let fields): .object(fields.filter { !ids.contains($0.0) }.map { ($0.0, withoutIDs($0.1)) })
        case .array(let items): .array(items.map(withoutIDs))
        default: value
        }
    }
}

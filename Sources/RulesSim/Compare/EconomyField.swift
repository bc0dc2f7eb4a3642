import RulesEngine
import RulesModel

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

    /// What one output line shows of the field (null when nothing), ids left out.
    public func value(of line: JSONValue) -> JSONValue {
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
            case .creditBalance: line["state"]?["earned"]?["credit_balance"]
            case .streakCount: line["state"]?["earned"]?["streak_count"]
            }
        return Self.withoutIDs(value ?? .null)
    }

    /// The same as text.
    public func projection(of line: JSONValue) -> String { value(of: line).description }

    /// Whether the two sets' outputs of one event differ in this field. Only `error` compares an
    /// event one set refuses: the other fields compare events both accepted.
    public func differs(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if self != .error, a["ok"] != .bool(true) || b["ok"] != .bool(true) { return false }
        return value(of: a) != value(of: b)
    }

    /// The leaves where two values differ, as `path: a → b` (the whole values when they are not
    /// both objects or arrays).
    public static func differences(_ a: JSONValue, _ b: JSONValue, at path: String = "") -> [String] {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            let keys = x.map(\.0) + y.map(\.0).filter { k in !x.contains { $0.0 == k } }
            return keys.flatMap { key in
                differences(
                    x.first { $0.0 == key }?.1 ?? .null, y.first { $0.0 == key }?.1 ?? .null, at: path.isEmpty ? key : "\(path).\(key)")
            }
        case (.array(let x), .array(let y)) where x.count == y.count:
            return zip(x, y).enumerated().flatMap { i, pair in differences(pair.0, pair.1, at: "\(path)[\(i)]") }
        default:
            return a == b ? [] : ["\(path.isEmpty ? "value" : path): \(a) → \(b)"]
        }
    }

    static func withoutIDs(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let fields): .object(fields.filter { !ids.contains($0.0) }.map { ($0.0, withoutIDs($0.1)) })
        case .array(let items): .array(items.map(withoutIDs))
        default: value
        }
    }
}

import LuaHost
import RulesEngine
import RulesModel

/// What `compare` reads off the engine's output lines in one of its replayed halves (the economy's
/// `EconomyField`, the habit tracker's `HabitField`), and where that half's histories come from:
/// `LineComparison` runs both halves alike.
package protocol ComparedField: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String, AllCases == [Self] {
    associatedtype History: ComparedHistory
    /// The half's name in its replay files (`economy-FIELD.jsonl`) and case names (`economy case 3`).
    static var half: String { get }
    /// Its key in compare's JSON and the first word of its text (`economy`, `habits`).
    static var section: String { get }
    /// Its histories in the text (`Earned histories`).
    static var historiesName: String { get }
    /// Whose fields differ in a replay file's header (`the economy's`).
    static var owner: String { get }
    /// What "no difference" covers (`every unlock, option, credit and streak`).
    static var comparedText: String { get }
    /// The event types of the set-up lines at the start of a history.
    static var setupTypes: [String] { get }
    /// The half's generated histories from `seed`, each `days` days long.
    static func history(seed: UInt64, days: Int) -> History
    /// What one output line shows of the field (null when nothing).
    func value(of line: JSONValue) -> JSONValue
}

/// Random replay lines for one user (`u1`) per case number, reproducible from a seed.
package protocol ComparedHistory: Sendable {
    func lines(case k: Int) -> [String]
}

extension ComparedField {
    /// Whether this field is the refusal itself (`error`), the only one compared on an event one set refuses.
    package var isError: Bool { rawValue == "error" }

    /// Whether the two sets' outputs of one event differ in this field. Only `error` compares an
    /// event one set refuses: the other fields compare events both accepted.
    package func differs(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if !isError, a["ok"] != .bool(true) || b["ok"] != .bool(true) { return false }
        return value(of: a) != value(of: b)
    }

    /// The leaves where two values differ, as `path: a → b` (the whole values when they are not
    /// both objects or arrays). The path is written as a scenario's `expect` reads it: list
    /// elements from 1 (`options[1].durations[2]`), a key that is not a name as `["a key"]`.
    package static func differences(_ a: JSONValue, _ b: JSONValue, at path: String = "") -> [String] {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            let keys = x.map(\.0) + y.map(\.0).filter { k in !x.contains { $0.0 == k } }
            return keys.flatMap { key in
                var inner = path
                LuaPath.append(key, to: &inner)
                return differences(x.first { $0.0 == key }?.1 ?? .null, y.first { $0.0 == key }?.1 ?? .null, at: inner)
            }
        case (.array(let x), .array(let y)) where x.count == y.count:
            return zip(x, y).enumerated().flatMap { i, pair in differences(pair.0, pair.1, at: "\(path)[\(i + 1)]") }
        default:
            return a == b ? [] : ["\(path.isEmpty ? "value" : path): \(a) → \(b)"]
        }
    }
}

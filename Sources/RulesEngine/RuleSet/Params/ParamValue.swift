import LuaHost
import RulesModel

/// One value of a rule-declared param: what a spec's `min`, `max` and `default` hold, what a task
/// or an event sets, and what a rule function receives.
public enum ParamValue: Hashable, Sendable, CustomStringConvertible {
    case integer(Int64)
    case number(Double)
    case boolean(Bool)
    /// An enum param's value.
    case string(String)

    /// As a message shows it: `3`, `2.5`, `true`, `"fast"`.
    public var description: String {
        switch self {
        case .integer(let i): String(i)
        case .number(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) + ".0" : "\(d)"
        case .boolean(let b): b ? "true" : "false"
        case .string(let s): "\"\(VisibleText.escaping(SourceFile.excerpt(s, limit: 80)))\""
        }
    }

    /// The value as Lua sees it.
    public var luaValue: LuaValue {
        switch self {
        case .integer(let i): .integer(i)
        case .number(let d): .number(d)
        case .boolean(let b): .boolean(b)
        case .string(let s): .string(s)
        }
    }

    /// The value as a number, for ranges (nil for booleans and strings).
    var doubleValue: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }
}

import LuaHost
import RulesModel

extension ParamValue {
    /// As a message shows it: `3`, `2.5`, `true`, `"fast"`.
    package var text: String {
        switch self {
        case .integer(let i): String(i)
        case .number(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) + ".0" : "\(d)"
        case .boolean(let b): b ? "true" : "false"
        case .string(let s): "\"\(VisibleText.escaping(SourceFile.excerpt(s, limit: 80)))\""
        }
    }

    /// The value as Lua sees it.
    package var luaValue: LuaValue {
        switch self {
        case .integer(let i): .integer(i)
        case .number(let d): .number(d)
        case .boolean(let b): .boolean(b)
        case .string(let s): .string(s)
        }
    }
}

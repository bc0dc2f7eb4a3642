import LuaHost
import RulesModel

/// Midnight (or noon) stands in for a bad time of day while a rule file's other fields are decoded.
extension LocalTime: LuaDecodingPlaceholder {
    public static func luaDecodingPlaceholder(_ set: LuaPlaceholderSet) -> LocalTime {
        set == .first ? LocalTime(hour: 0, minute: 0) : LocalTime(hour: 12, minute: 0)
    }
}

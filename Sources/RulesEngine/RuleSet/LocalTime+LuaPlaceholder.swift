import LuaHost
import RulesModel

/// Midnight stands in for a bad time of day while a rule file's other fields are decoded.
extension LocalTime: LuaDecodingPlaceholder {
    public static var luaDecodingPlaceholder: LocalTime { LocalTime(hour: 0, minute: 0) }
}

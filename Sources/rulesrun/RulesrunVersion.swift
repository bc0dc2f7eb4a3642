import LuaHost

/// What `rulesrun --version` prints: the package's version and the Lua it embeds.
enum RulesrunVersion {
    /// The package's version (semantic versioning), raised by the change that makes a release:
    /// 0.MINOR while the formats may still change, MINOR the issue the release closes.
    static let number = "0.18.0"

    /// `rulesrun 0.18.0 (Lua 5.4.6)`.
    static var text: String { "rulesrun \(number) (\(LuaHost.luaRelease))" }
}

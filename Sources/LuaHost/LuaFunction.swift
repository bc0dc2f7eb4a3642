/// A handle to a Lua function defined by a rule file, valid in the `LuaHost` that returned it.
public struct LuaFunction: Hashable, Sendable, CustomStringConvertible {
    let reference: Int32
    let hostID: UInt64
    /// The rule file that defines the function (`escalation.lua`), or `=[C]` for a library function.
    public let source: String
    /// The line where the function's definition starts (0 when unknown).
    public let line: Int

    public var description: String { "function at \(source):\(line)" }
}

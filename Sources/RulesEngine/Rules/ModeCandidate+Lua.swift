import LuaHost

/// The records `modes.effective_mode(modes, now)` receives, written straight into tables through
/// interned keys: the gate asks once per unlock, and building them as `LuaValue` dictionaries
/// (hashing every key) cost more than the call.
extension ModeCandidate: LuaTableEncodable {
    static let priorityKey = LuaKey("priority")
    static let strictnessKey = LuaKey("strictness")
    static let manualStateKey = LuaKey("manual_state")
    static let overrideInForceKey = LuaKey("override_in_force")
    static let windowsKey = LuaKey("windows")
    public static var luaFieldCount: Int { 5 }

    public func encode(to t: inout LuaTableWriter) {
        t.set(Self.priorityKey, priority)
        t.set(Self.strictnessKey, strictness.rawValue)
        t.set(Self.manualStateKey, manualState.rawValue)
        t.set(Self.overrideInForceKey, overrideInForce)
        t.set(Self.windowsKey, records: windows)
    }
}

extension ModeCandidate.Window: LuaTableEncodable {
    static let daysMaskKey = LuaKey("days_mask")
    static let startMinutesKey = LuaKey("start_minutes")
    static let endMinutesKey = LuaKey("end_minutes")
    public static var luaFieldCount: Int { 3 }

    public func encode(to t: inout LuaTableWriter) {
        t.set(Self.daysMaskKey, daysMask)
        t.set(Self.startMinutesKey, startMinutes)
        t.set(Self.endMinutesKey, endMinutes)
    }
}

extension LocalMoment: LuaTableEncodable {
    static let weekdayKey = LuaKey("weekday")
    static let minutesKey = LuaKey("minutes")
    public static var luaFieldCount: Int { 2 }

    public func encode(to t: inout LuaTableWriter) {
        t.set(Self.weekdayKey, weekday)
        t.set(Self.minutesKey, minutes)
    }
}

import CLua

extension LuaHost {
    /// `record` as the table a rule receives it (its `LuaTableEncodable` encoding, written into a
    /// fresh table), read back as a value: what a test or a property sees is what the engine passes.
    public func value<T: LuaTableEncodable>(of record: T) throws -> LuaValue {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        return try hostMode {
            pushRecord(record)
            return try value(at: -1)
        }
    }
}

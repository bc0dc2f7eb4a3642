import CLua
import CLuaSupport

/// Moving values between Swift and the Lua stack. These run in host mode (see `hostMode`): with the
/// memory ceiling lifted and no `__gc` metamethods allowed in rules, no push here can raise.
extension LuaHost {
    func push(_ value: LuaValue) throws {
        switch value {
        case .nil: lua_pushnil(L)
        case .boolean(let b): lua_pushboolean(L, b ? 1 : 0)
        case .integer(let i): lua_pushinteger(L, i)
        case .number(let d): lua_pushnumber(L, d)
        case .string(let s): pushString(s)
        case .function(let f): try pushFunction(f)
        case .table(let t):
            guard lua_checkstack(L, 4) != 0 else { throw stackError() }
            let sequence = t.sequence.count
            lua_createtable(L, Int32(clamping: sequence), Int32(clamping: t.count - sequence))
            for (key, element) in t.storage {
                switch key {
                case .nil: throw LuaError(kind: .decoding, message: "a table key cannot be nil")
                case .number(let d) where d.isNaN: throw LuaError(kind: .decoding, message: "a table key cannot be NaN")
                default: break
                }
                try push(key)
                try push(element)
                lua_rawset(L, -3)
            }
        }
    }

    func pushString(_ s: String) {
        var s = s
        s.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }

    func pushFunction(_ function: LuaFunction) throws {
        guard function.hostID == id else {
            throw LuaError(kind: .runtime, file: function.source, line: function.line,
                           message: "this function belongs to another Lua state")
        }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(function.reference))
    }

    /// Reads the string at `index` (which must be a Lua string) as UTF-8 text.
    func string(at index: Int32) throws -> String {
        var length = 0
        guard let p = lua_tolstring(L, index, &length) else { return "" }
        let bytes = UnsafeRawBufferPointer(start: p, count: length)
        guard let s = String(validating: bytes, as: UTF8.self) else {
            throw LuaError(kind: .decoding, message: "a string is not valid UTF-8 text")
        }
        return s
    }

    /// Converts the value at `index` to Swift. Tables are read raw (metamethods are ignored; a
    /// frozen rule table is read through to its contents).
    func value(at index: Int32) throws -> LuaValue {
        var budget = limits.maxConvertedEntries
        return try value(at: index, depth: 0, budget: &budget)
    }

    private func value(at index: Int32, depth: Int, budget: inout Int) throws -> LuaValue {
        let index = lua_absindex(L, index)
        switch lua_type(L, index) {
        case LUA_TNIL, LUA_TNONE: return .nil
        case LUA_TBOOLEAN: return .boolean(lua_toboolean(L, index) != 0)
        case LUA_TNUMBER:
            if lua_isinteger(L, index) != 0 { return .integer(clua_tointeger(L, index)) }
            return .number(clua_tonumber(L, index))
        case LUA_TSTRING: return .string(try string(at: index))
        case LUA_TFUNCTION: return .function(functionHandle(at: index))
        case LUA_TTABLE:
            guard depth < limits.maxTableDepth else {
                throw LuaError(kind: .decoding,
                               message: "tables are nested more than \(limits.maxTableDepth) levels deep (is there a cycle?)")
            }
            guard lua_checkstack(L, 6) != 0 else { throw stackError() }
            let top = lua_gettop(L)
            defer { lua_settop(L, top) }
            rr_push_contents(L, index)
            let t = lua_gettop(L)
            var table = LuaTable()
            lua_pushnil(L)
            while lua_next(L, t) != 0 {
                budget -= 1
                guard budget >= 0 else {
                    throw LuaError(kind: .decoding,
                                   message: "the value is too large to convert (more than \(limits.maxConvertedEntries) table entries)")
                }
                let key = try value(at: t + 1, depth: depth + 1, budget: &budget)
                let element = try value(at: t + 2, depth: depth + 1, budget: &budget)
                table[key] = element
                lua_settop(L, t + 1)
            }
            return .table(table)
        default:
            let name = String(cString: clua_typename(L, index))
            throw LuaError(kind: .decoding, message: "a \(name) value cannot be passed to the host")
        }
    }

    /// A handle for the function at `index`, kept alive in the registry (one reference per function).
    func functionHandle(at index: Int32) -> LuaFunction {
        let pointer = lua_topointer(L, index)!
        if let known = functionCache[pointer] { return known }
        lua_pushvalue(L, index)
        let reference = luaL_ref(L, clua_registryindex())
        lua_pushvalue(L, index)
        var ar = lua_Debug()
        lua_getinfo(L, ">S", &ar)
        let source = withUnsafeBytes(of: ar.short_src) {
            String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        let handle = LuaFunction(reference: reference, hostID: id, source: source, line: Int(ar.linedefined))
        functionCache[pointer] = handle
        return handle
    }
}

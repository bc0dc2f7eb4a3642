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
            throw LuaError(
                kind: .runtime, file: function.source, line: function.line,
                message: "this function belongs to another Lua state")
        }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(function.reference))
    }

    /// Reads the string at `index` (which must be a Lua string) as UTF-8 text; a failure names `path`.
    func string(at index: Int32, path: String? = nil) throws -> String {
        var length = 0
        guard let p = lua_tolstring(L, index, &length) else { return "" }
        let bytes = UnsafeRawBufferPointer(start: p, count: length)
        guard let s = String(validating: bytes, as: UTF8.self) else {
            throw LuaError(
                kind: .decoding, path: path,
                message: "expected UTF-8 text, found string \"\(LuaHost.escaped(bytes))\"")
        }
        return s
    }

    /// Text that is not UTF-8, for messages: its valid characters, other bytes as `\xFF` (40 at most).
    static func escaped(_ bytes: UnsafeRawBufferPointer) -> String { VisibleText.decoding(bytes, limit: 40) }

    /// Instructions charged to a call (or load) for each table entry of its results converted to
    /// Swift: about the time a debug build takes, so that a rule returning a large table runs out of
    /// its budget instead of costing seconds a call.
    static let conversionCostPerEntry: Int64 = 256

    /// Converts the value at `index` to Swift. Tables are read raw (metamethods are ignored; a
    /// frozen rule table is read through to its contents). A failure names the field it is in:
    /// `path` is the value's own path (`""` for a value that is not a field).
    func value(at index: Int32, path: String = "") throws -> LuaValue {
        var budget = limits.maxConvertedEntries
        // Converting costs the host far more than an instruction per entry: charged to the call.
        defer { _ = rr_charge_host(runtime, Int64(limits.maxConvertedEntries - budget) * LuaHost.conversionCostPerEntry) }
        do {
            return try value(at: index, depth: 0, budget: &budget)
        } catch let failure as ConversionFailure {
            throw failure.located(under: path)
        } catch var error as LuaError {
            if !path.isEmpty { error.path = path }
            throw error
        }
    }

    /// The value at `index` as `value(at:)` converts it, for a trace: charged to no budget, nil when
    /// it has more than `entries` table entries or cannot be converted.
    func tracedValue(at index: Int32, entries: Int) -> LuaValue? {
        var budget = entries
        return try? value(at: index, depth: 0, budget: &budget)
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
            guard lua_checkstack(L, 6) != 0 else { throw stackError() }
            let top = lua_gettop(L)
            defer { lua_settop(L, top) }
            rr_push_contents(L, index)
            let t = lua_gettop(L)
            guard depth < limits.maxTableDepth else {
                throw ConversionFailure(
                    error: LuaError(kind: .decoding, message: "tables are nested more than \(limits.maxTableDepth) levels deep"),
                    tables: [UInt(bitPattern: lua_topointer(L, t))])
            }
            var table = LuaTable()
            lua_pushnil(L)
            while lua_next(L, t) != 0 {
                budget -= 1
                guard budget >= 0 else {
                    throw ConversionFailure(
                        error: LuaError(
                            kind: .decoding,
                            message: "the value is too large to convert (more than \(limits.maxConvertedEntries) table entries)"),
                        whole: true)
                }
                var key: LuaValue?
                do {
                    key = try value(at: t + 1, depth: depth + 1, budget: &budget)
                    table[key!] = try value(at: t + 2, depth: depth + 1, budget: &budget)
                } catch {
                    var failure =
                        error as? ConversionFailure
                        ?? ConversionFailure(
                            error: error as? LuaError
                                ?? LuaError(kind: .decoding, message: "\(error)"))
                    if !failure.whole, failure.error.kind == .decoding {  // (not the Lua stack running out)
                        failure.keys.append(key)
                        failure.tables.append(UInt(bitPattern: lua_topointer(L, t)))
                    }
                    throw failure
                }
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
        let source = fullChunkName(
            withUnsafeBytes(of: ar.short_src) {
                String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self))
            })
        let handle = LuaFunction(reference: reference, hostID: id, source: source, line: Int(ar.linedefined))
        functionCache[pointer] = handle
        return handle
    }
}

/// A conversion failure on its way out of nested tables: the keys it is under and the tables on
/// its path, innermost first (nil for a key that failed itself), to name its field and to tell a
/// cycle from nesting that is only deep.
private struct ConversionFailure: Error {
    var error: LuaError
    var keys: [LuaValue?] = []
    var tables: [UInt] = []  // addresses
    /// About the value as a whole (its size): not located at a field.
    var whole = false

    /// The error, its path starting at `base`: where a table on the path meets itself again, a cycle.
    func located(under base: String) -> LuaError {
        var error = self.error
        let keys = Array(self.keys.reversed()), tables = Array(self.tables.reversed())  // tables[d]: at depth d
        func path(_ depth: Int) -> String {
            var p = base
            for key in keys.prefix(depth) {
                if let key { LuaPath.append(key, to: &p) } else { p += "[?]" }
            }
            return p
        }
        if let again = tables.indices.first(where: { tables[..<$0].contains(tables[$0]) }) {
            let first = path(tables.firstIndex(of: tables[again])!)
            error.message = "a cycle: " + (first.isEmpty ? "the top-level table" : "the table \(first)") + " contains itself here"
            error.path = path(again)
        } else if tables.count > keys.count, keys.count > 3 {  // stopped at the depth limit
            error.path = path(3) + "…"
        } else {
            error.path = path(keys.count)
        }
        if error.path?.isEmpty == true { error.path = nil }
        return error
    }
}

import CLua
import CLuaSupport

/// What `rulesrun test` needs of a host: globals it provides to the files it loads (the rule set's
/// modules, the test helpers), and the functions a test file defines as its globals.
extension LuaHost {
    /// Makes `value` a read-only global of every file this host loads from now on (and of those
    /// already loaded, which look their globals up when they run); a table is frozen deeply, and a
    /// file that tries to change it is told it is `what`.
    package func setGlobal(_ name: String, _ value: LuaValue, describedAs what: String) throws {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        try hostMode {
            guard lua_checkstack(L, 8) != 0 else { throw stackError() }
            rr_push_sandbox_globals(L)
            let globals = lua_gettop(L)
            pushString(name)
            try push(value)
            lua_rawset(L, globals)
            guard case .table = value else { return }
            pushString(name)
            lua_rawget(L, globals)
            pushString(what)
            try callC(rr_freeze_deep, nargs: 2)
        }
    }

    /// Loads one file as `load(bytes:chunkName:)` does and gives the functions it defines as its
    /// own globals (`function test_x() … end`), by name, with the line each starts at.
    package func loadDefiningFunctions(bytes: [UInt8], chunkName: String) throws -> [(name: String, function: LuaFunction)] {
        try loadDefiningGlobals(bytes: bytes, chunkName: chunkName, reading: []).functions
    }

    /// `loadDefiningFunctions`, and the values of the file's own globals named in `names` that are
    /// not functions (a test file's `cases` table), converted to Swift. A function whose name is
    /// not UTF-8 text (`_ENV["test_\xff"] = …`) is not among `functions`, which a name could not
    /// select, but in `notText`, its name as `VisibleText.decoding` shows it (`test_\xFF`), for
    /// the caller to report rather than lose.
    package func loadDefiningGlobals(
        bytes: [UInt8], chunkName: String, reading names: Set<String>
    ) throws -> (
        functions: [(name: String, function: LuaFunction)], values: [String: LuaValue],
        notText: [(shown: String, function: LuaFunction)]
    ) {
        var bases: [LuaValue] = []
        var functions: [(name: String, function: LuaFunction)] = []
        var notText: [(shown: String, function: LuaFunction)] = []
        var values: [String: LuaValue] = [:]
        _ = try load(layers: [(bytes, chunkName)], bases: &bases) { [self] chunk in
            try hostMode {
                guard lua_checkstack(L, 8) != 0 else { throw stackError() }
                let top = lua_gettop(L)
                defer { lua_settop(L, top) }
                guard lua_getupvalue(L, chunk, 1) != nil, lua_type(L, -1) == LUA_TTABLE else { return }
                rr_push_contents(L, -1)  // the file's own globals, under its frozen environment
                let own = lua_gettop(L)
                lua_pushnil(L)
                while lua_next(L, own) != 0 {
                    if lua_type(L, -2) == LUA_TSTRING, lua_type(L, -1) == LUA_TFUNCTION,
                        let name = try? string(at: -2)
                    {
                        functions.append((name, functionHandle(at: -1)))
                    } else if lua_type(L, -2) == LUA_TSTRING, lua_type(L, -1) == LUA_TFUNCTION {
                        var length = 0
                        let bytes = UnsafeRawBufferPointer(start: lua_tolstring(L, -2, &length), count: length)
                        notText.append((VisibleText.decoding(bytes), functionHandle(at: -1)))
                    } else if lua_type(L, -2) == LUA_TSTRING, let name = try? string(at: -2), names.contains(name) {
                        values[name] = try value(at: -1, path: name)
                    }
                    clua_pop(L, 1)
                }
            }
        }
        return (functions, values, notText)
    }
}

import CLua
import CLuaSupport
import Foundation

/// The shadow check of argument reuse, in debug builds: each argument a call reuses (a pooled
/// table, list or view, a kept history, list or record, a kept text) is also built fresh, and the
/// two are compared deeply (every field, nested tables included, integers apart from floats, the
/// kind of each table); a difference stops the process, naming the argument and the field.
/// `RULESRUN_REUSE_SHADOW=N` checks every Nth reused argument (1: all of them, 0: none); unset, a
/// test bundle checks every 64th (checking all adds half to the CPU time of the engine's tests, every
/// 8th about a tenth, every 64th about 1 %: a reuse that goes wrong goes wrong for many arguments,
/// and `ShadowCheckTests` check every one) and other processes none. Release builds have no check
/// and pay nothing.
extension LuaHost {
    /// The environment variable that sets how often the check runs in debug builds.
    public static let shadowCheckVariable = "RULESRUN_REUSE_SHADOW"

    /// Every how many reused arguments hosts of this process check one (0: never; debug builds only).
    static let reuseCheckIntervalByDefault: Int = {
        #if DEBUG
            if let value = ProcessInfo.processInfo.environment[shadowCheckVariable], let n = Int(value), n >= 0 { return n }
            return ProcessInfo.processInfo.processName.hasSuffix(".xctest") ? 64 : 0
        #else
            return 0
        #endif
    }()

    /// Whether this reused argument is the one in `reuseCheckInterval` to check.
    private func checksThisReuse() -> Bool {
        guard reuseCheckInterval > 0 else { return false }
        reuseChecks &+= 1
        return reuseChecks % reuseCheckInterval == 0
    }

    /// In debug builds with the check on: builds the argument on top of the stack afresh with
    /// `push`, compares the two and reports a difference (`reportReuseMismatch`), naming
    /// `argument`; the stack is left as it was. Nothing at all in release builds.
    @inlinable @inline(__always)
    func checkReused(_ argument: @autoclosure () -> String, fresh push: () -> Void) {
        #if DEBUG
            checkReusedArgument(argument, fresh: push)
        #endif
    }

    @usableFromInline
    func checkReusedArgument(_ argument: () -> String, fresh push: () -> Void) {
        #if DEBUG
            guard checksThisReuse(), lua_checkstack(L, 24) != 0 else { return }
            let reused = lua_gettop(L)
            push()
            if let difference = difference(reused, lua_gettop(L), path: "") {
                reportReuseMismatch("\(argument()): \(difference)")
            }
            lua_settop(L, reused)
        #endif
    }

    /// Checks the kept text on top of the stack against `write`'s bytes (`pushText`).
    func checkReused(text number: Int, of kind: LuaKey, write: (UnsafeMutableRawBufferPointer) -> Int) {
        #if DEBUG
            guard checksThisReuse(), lua_checkstack(L, 4) != 0 else { return }
            withUnsafeTemporaryAllocation(byteCount: 64, alignment: 1) { buffer in
                let count = min(max(0, write(buffer)), buffer.count)
                _ = lua_pushlstring(L, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), count)
            }
            if lua_rawequal(L, -1, -2) == 0 {
                reportReuseMismatch("kept text \(number) of \(kind.name): reused \(shown(at: -2)), fresh \(shown(at: -1))")
            }
            clua_pop(L, 1)
        #endif
    }

    /// Stops the process with `message` (the check's failure), or hands it to `reuseMismatch`.
    func reportReuseMismatch(_ message: String) {
        if let reuseMismatch { reuseMismatch("argument reuse differs from a fresh build: " + message) } else {
            fatalError("argument reuse differs from a fresh build: " + message)
        }
    }

    /// The first difference between the tables at stack indices `a` (reused) and `b` (fresh), or
    /// nil: the kinds of the tables, then each field of either, by its path under `path`.
    private func difference(_ a: Int32, _ b: Int32, path: String) -> String? {
        guard lua_checkstack(L, 12) != 0 else { return nil }
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        let (kindA, kindB) = (kind(a), kind(b))
        if kindA != kindB { return "\(path.isEmpty ? "the table" : path): a \(kindA) table reused, a \(kindB) one fresh" }
        rr_push_contents(L, a)
        let contentsA = lua_gettop(L)
        rr_push_contents(L, b)
        let contentsB = lua_gettop(L)
        for (from, to) in [(contentsA, contentsB), (contentsB, contentsA)] {
            lua_pushnil(L)
            while lua_next(L, from) != 0 {
                let field = fieldPath(path, key: lua_gettop(L) - 1)
                lua_pushvalue(L, -2)
                lua_rawget(L, to)
                let (value, other) = from == contentsA ? (lua_gettop(L) - 1, lua_gettop(L)) : (lua_gettop(L), lua_gettop(L) - 1)
                if let difference = valueDifference(value, other, path: field) { return difference }
                clua_pop(L, 2)
            }
        }
        return nil
    }

    /// The difference between the values at `a` (reused) and `b` (fresh), or nil.
    private func valueDifference(_ a: Int32, _ b: Int32, path: String) -> String? {
        let (typeA, typeB) = (lua_type(L, a), lua_type(L, b))
        if typeA == LUA_TTABLE, typeB == LUA_TTABLE { return difference(a, b, path: path) }
        let same =
            typeA == typeB && lua_rawequal(L, a, b) != 0 && (typeA != LUA_TNUMBER || lua_isinteger(L, a) == lua_isinteger(L, b))
        return same ? nil : "\(path): reused \(shown(at: a)), fresh \(shown(at: b))"
    }

    /// What kind of argument table the value at `index` is: `plain`, `read-only` (an input
    /// table), `kept` or `view`.
    private func kind(_ index: Int32) -> String {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard lua_getmetatable(L, index) != 0 else { return "plain" }
        rr_push_contents(L, index)
        if lua_rawequal(L, -1, index) != 0 { return "read-only" }
        return lua_getfield(L, top + 1, "__index") == LUA_TTABLE ? "kept" : "view"
    }

    /// `path` extended by the key at `key`: `.name` or `[i]`.
    private func fieldPath(_ path: String, key: Int32) -> String {
        if lua_type(L, key) == LUA_TNUMBER, lua_isinteger(L, key) != 0 { return path + "[\(clua_tointeger(L, key))]" }
        let name = lua_type(L, key) == LUA_TSTRING ? String(cString: clua_tostring(L, key)) : "(\(shown(at: key)))"
        return path.isEmpty ? name : path + "." + name
    }

    /// The value at `index` as the message shows it.
    private func shown(at index: Int32) -> String {
        switch lua_type(L, index) {
        case LUA_TNIL: return "nil"
        case LUA_TBOOLEAN: return lua_toboolean(L, index) != 0 ? "true" : "false"
        case LUA_TNUMBER:
            return lua_isinteger(L, index) != 0 ? "\(clua_tointeger(L, index))" : "\(clua_tonumber(L, index)) (a float)"
        case LUA_TSTRING:
            var length = 0
            let p = lua_tolstring(L, index, &length)
            let text = p.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: min(length, 60)), as: UTF8.self) } ?? ""
            return "\"\(text)\(length > 60 ? "…" : "")\""
        default: return String(cString: clua_typename(L, index))
        }
    }
}

import CLua
import CLuaSupport

/// A Swift function that rules can call. It receives the arguments and returns the results; a
/// thrown error becomes a Lua error (kind `.hostFunction`) at the rule's line, raised by C after the
/// Swift frame has returned, so no `longjmp` ever crosses Swift code.
public typealias LuaHostFunction = ([LuaValue]) throws -> [LuaValue]

struct HostFunction {
    let name: String
    let body: LuaHostFunction
}

extension LuaHost {
    /// Makes `body` a read-only global of every rule file, as `name` or, with a namespace, as
    /// `namespace.name` (the namespace table is read-only too).
    public func register(_ name: String, in namespace: String? = nil, _ body: @escaping LuaHostFunction) throws {
        let qualified = namespace.map { "\($0).\(name)" } ?? name
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        hostFunctions.append(HostFunction(name: qualified, body: body))
        let functionID = Int64(hostFunctions.count - 1)
        try hostMode {
            guard lua_checkstack(L, 8) != 0 else { throw stackError() }
            rr_push_sandbox_globals(L)
            let globals = lua_gettop(L)
            if let namespace {
                pushString(namespace)
                if lua_rawget(L, globals) != LUA_TTABLE {
                    clua_pop(L, 1)
                    clua_newtable(L)
                    pushString(namespace)
                    lua_pushvalue(L, -2)
                    lua_rawset(L, globals)
                    lua_pushvalue(L, -1)
                    lua_pushstring(L, "the host namespace '\(namespace)'")
                    try callC(rr_freeze_deep, nargs: 2)
                }
                rr_push_contents(L, -1)
            } else {
                lua_pushvalue(L, globals)
            }
            pushString(name)
            rr_push_host_function(L, functionID, qualified)
            lua_rawset(L, -3)
        }
    }

    /// Runs host function `id` with the arguments on the stack. Returns the number of results it
    /// pushed, or -1 with a message on top of the stack.
    func dispatch(functionID: Int) -> Int32 {
        let function = hostFunctions[functionID]
        do {
            let count = lua_gettop(L)
            var arguments: [LuaValue] = []
            arguments.reserveCapacity(Int(count))
            for i in 0..<count { arguments.append(try value(at: i + 1)) }
            let results = try function.body(arguments)
            guard lua_checkstack(L, Int32(clamping: results.count + 4)) != 0 else { throw stackError() }
            for result in results { try push(result) }
            return Int32(results.count)
        } catch let failure as LuaError {
            pushString("\(function.name): \(failure.description)")
            return -1
        } catch {
            pushString("\(function.name): \(error)")
            return -1
        }
    }

    func log(_ message: String) {
        if printIsSilent { return }
        if let positionedPrintHandler { return positionedPrintHandler(message, callerPosition()) }
        // The default log goes to a terminal: a rule cannot write escape sequences to it.
        if let printHandler { printHandler(message) } else { logger.info("\(VisibleText.escaping(message))") }
    }

    /// The file and line of the Lua function that called the host function (`print`, a test
    /// helper) running now: the first one up the stack.
    public func callerPosition() -> (file: String, line: Int)? {
        var ar = lua_Debug()
        var level: Int32 = 1
        while lua_getstack(L, level, &ar) != 0 {
            if lua_getinfo(L, "Sl", &ar) != 0, ar.currentline > 0 {
                let shown = withUnsafeBytes(of: ar.short_src) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
                return (fullChunkName(shown), Int(ar.currentline))
            }
            level += 1
        }
        return nil
    }
}

/// Called by the C trampoline; never raises.
let luaHostDispatch: rr_dispatch_fn = { _, context, functionID in
    let host = Unmanaged<LuaHost>.fromOpaque(context!).takeUnretainedValue()
    return host.dispatch(functionID: Int(functionID))
}

/// Called by the sandbox's `print`; never raises.
let luaHostLog: rr_log_fn = { context, message, length in
    let host = Unmanaged<LuaHost>.fromOpaque(context!).takeUnretainedValue()
    // Bytes that are not UTF-8 stay visible (`\xFF`), each its own, rather than all one U+FFFD.
    host.log(VisibleText.decoding(UnsafeRawBufferPointer(start: message, count: length), escapingControls: false))
}

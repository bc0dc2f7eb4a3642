import CLua
import CLuaSupport
import Foundation
import Logging
import Synchronization

private let nextHostID = Atomic<UInt64>(1)

/// A sandboxed Lua 5.4 runtime that owns one `lua_State`.
///
/// Rule files run with an allow-list of library functions (no `os`, `io`, `require`, `load`,
/// `debug`, `collectgarbage`, `string.dump`), each in its own environment; the globals the host
/// provides are read-only, and what a file defines is frozen once it has loaded, so one rule or one
/// call cannot change what another sees. Every call has an instruction budget and the state a memory
/// ceiling (`LuaLimits`); going over either is a `LuaError` naming the file and line, after which the
/// host stays usable.
///
/// A `LuaHost` is **not** `Sendable`: a Lua state must be used by one thread at a time. Give each
/// thread or task its own host.
public final class LuaHost {
    /// The Lua release the host embeds (`Lua 5.4.6`).
    public static let luaRelease = String(cString: clua_release())

    public let limits: LuaLimits
    public let logger: Logger
    /// Receives what rules `print`; by default it goes to `logger` at info level.
    public var printHandler: ((String) -> Void)?
    /// Receives what rules `print` with where they called it (the file as messages name it, and the
    /// line; nil when no Lua function is on the stack), in preference to `printHandler`.
    public var positionedPrintHandler: ((_ text: String, _ position: (file: String, line: Int)?) -> Void)?
    /// Whether what rules `print` is dropped (still charged to their budget, so that a call costs
    /// the same either way): validation's proofs call each function thousands of times.
    public var printIsSilent = false

    let id: UInt64
    let runtime: UnsafeMutablePointer<rr_runtime>
    let L: OpaquePointer
    var hostFunctions: [HostFunction] = []
    var functionCache: [UnsafeRawPointer: LuaFunction] = [:]
    /// The memory of argument reuse and interned keys (see `HotPathStorage`).
    let hot = HotPathStorage()
    /// Names of interned keys, by registry reference (for messages).
    var keyNames: [Int: String] = [:]
    /// The names of the chunks loaded, to give back in full a name Lua cut from the left in a
    /// message (`...nel/personas/x.lua:3:`, see `fullChunkName`).
    var chunkNames: Set<String> = []
    /// The tables the files loaded returned (registry references), by chunk name, most recent last:
    /// where `explain(_:)` starts looking for knobs.
    var fileTables: [(chunkName: String, reference: Int32)] = []
    /// Where rule calls are recorded while they are explained (`explain(_:)`); nil: not explaining,
    /// and a rule call costs one branch more.
    public internal(set) var callTrace: LuaCallTrace?
    /// Every how many reused arguments one is also built fresh and compared (0: none; debug
    /// builds only: see `checkReused`), the reused arguments so far, and who hears of a
    /// difference (nil: the process stops).
    package var reuseCheckInterval = LuaHost.reuseCheckIntervalByDefault
    var reuseChecks = 0
    package var reuseMismatch: ((String) -> Void)?
    /// Makes the wrappers of `callingThroughHost(_:)` (nil until first used).
    var wrapFunction: LuaFunction?

    /// Creates a state with the sandbox set up. `randomSeed` seeds `math.random`.
    public init(
        limits: LuaLimits = .default, randomSeed: Int64 = 0,
        logger: Logger = Logger(label: "rulesrun.lua")
    ) throws {
        self.limits = limits
        self.logger = logger
        self.id = nextHostID.add(1, ordering: .relaxed).oldValue
        let runtime = UnsafeMutablePointer<rr_runtime>.allocate(capacity: 1)
        runtime.initialize(to: rr_runtime())
        runtime.pointee.mem_limit = limits.memoryBytes
        runtime.pointee.mem_hard_limit = limits.memoryBytes == 0 ? 0 : limits.memoryBytes + limits.memoryBytes / 2
        runtime.pointee.pattern_step_limit = limits.patternSteps
        runtime.pointee.pattern_max_length = limits.maxPatternBytes
        guard let state = rr_newstate(runtime) else {
            runtime.deallocate()
            throw LuaError(kind: .memory, message: "cannot create a Lua state")
        }
        self.runtime = runtime
        self.L = state
        runtime.pointee.context = Unmanaged.passUnretained(self).toOpaque()
        runtime.pointee.dispatch = luaHostDispatch
        runtime.pointee.log = luaHostLog
        // Rule calls allocate small, short-lived tables: generational collection suits them.
        _ = clua_gc_generational(L)
        lua_pushinteger(L, randomSeed)
        try callC(rr_sandbox_open, nargs: 1)
    }

    deinit {
        rr_close(runtime)
        rr_lines_free(runtime)
        runtime.deinitialize(count: 1)
        runtime.deallocate()
    }

    /// Bytes the state holds now.
    public var memoryInUse: Int { runtime.pointee.mem_used }
    /// The most bytes the state has held.
    public var peakMemory: Int { runtime.pointee.mem_peak }
    /// Lua instructions run so far, counted by the hook in steps of (at most) 1,000: calls shorter
    /// than one step are not counted.
    public var instructionsRun: Int64 { runtime.pointee.instructions_total }

    /// `math.random`'s generator state (empty when the library has none); set, the generator
    /// draws on from there (a state of another size is ignored).
    public var randomState: [UInt8] {
        get {
            var bytes = [UInt8](repeating: 0, count: 64)
            guard rr_random_stamp(runtime, &bytes) != 0 else { return [] }
            return Array(bytes.prefix(runtime.pointee.random_state_size))
        }
        set {
            guard let state = runtime.pointee.random_state, newValue.count == runtime.pointee.random_state_size else { return }
            newValue.withUnsafeBytes { UnsafeMutableRawPointer(mutating: state).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }
    }

    /// Puts the state where calls it did not make would have left it: `instructions` more counted
    /// and `math.random`'s generator at `randomState` (as read after those calls elsewhere). What
    /// a remembered result of those calls (``RuleSet``'s proofs of a file already proved) needs
    /// so that the calls after it see the same counts and draws as if it had been computed here.
    public func resume(afterInstructions instructions: Int64, randomState: [UInt8]) {
        runtime.pointee.instructions_total += instructions
        self.randomState = randomState
    }

    /// Runs a full garbage collection (to measure what a loaded file keeps).
    public func collectGarbage() {
        hostMode { _ = clua_gc_collect(L) }
    }

    /// Reseeds `math.random` (for example per simulated user, so that results do not depend on
    /// the order of calls).
    public func seedRandom(_ seed: Int64) throws {
        lua_pushinteger(L, seed)
        try callC(rr_reseed, nargs: 1)
    }

    // MARK: Loading

    /// Loads a rule file's text and runs its top level; returns the values the file returns.
    /// `chunkName` is the file's path relative to the rule folder: messages read `chunkName:line: …`.
    /// Only text is accepted (a precompiled binary chunk is a syntax error).
    @discardableResult
    public func load(_ source: String, chunkName: String) throws -> [LuaValue] {
        try load(bytes: Array(source.utf8), chunkName: chunkName)
    }

    /// Loads the rule file at `url`, named after its path relative to `ruleRoot`.
    @discardableResult
    public func load(file url: URL, ruleRoot: URL? = nil) throws -> [LuaValue] {
        let name = LuaHost.chunkName(for: url, ruleRoot: ruleRoot)
        let bytes: [UInt8]
        do {
            bytes = try SourceFile.read(url.path, maxBytes: limits.maxSourceBytes)
        } catch {
            throw LuaError(kind: .syntax, file: name, message: error.description)
        }
        return try load(bytes: bytes, chunkName: name)
    }

    /// The name a rule file's messages carry: its path relative to the rule folder.
    public static func chunkName(for url: URL, ruleRoot: URL?) -> String {
        let path = url.standardizedFileURL.path
        if let root = ruleRoot?.standardizedFileURL.path {
            let prefix = root.hasSuffix("/") ? root : root + "/"
            if path.hasPrefix(prefix) { return String(path.dropFirst(prefix.count)) }
        }
        return url.lastPathComponent
    }

    /// Loads Lua text given as bytes; see `load(_:chunkName:)`.
    @discardableResult
    public func load(bytes: [UInt8], chunkName: String) throws -> [LuaValue] {
        try load(layers: [(bytes, chunkName)])
    }

    /// Loads a rule file that extends others: `layers` are the same file of each rule folder, the
    /// most basic first and the file itself last. Each layer runs in its own environment, under its
    /// own instruction budget, and sees the table the layer before returned as the global `base`
    /// (not yet frozen, so that it can change a knob or replace a function and return it). When
    /// the last layer has run, every environment is sealed and everything reachable from its
    /// results and from every layer's globals is frozen.
    @discardableResult
    public func load(layers: [(bytes: [UInt8], chunkName: String)]) throws -> [LuaValue] {
        var bases: [LuaValue] = []
        return try load(layers: layers, bases: &bases)
    }

    /// The same, also giving in `bases` what each layer but the last returned, as it returned it
    /// (before the next layer could change it), most basic first: comparing them with the result
    /// tells which layer wrote each knob.
    @discardableResult
    public func load(layers: [(bytes: [UInt8], chunkName: String)], bases: inout [LuaValue]) throws -> [LuaValue] {
        try load(layers: layers, bases: &bases, afterRunning: nil)
    }

    /// The same; `afterRunning`, when given, is called once the last layer has run, with the stack
    /// index of its chunk (whose first upvalue is its environment).
    func load(
        layers: [(bytes: [UInt8], chunkName: String)], bases: inout [LuaValue], afterRunning: ((Int32) throws -> Void)?
    ) throws -> [LuaValue] {
        precondition(!layers.isEmpty, "load(layers:) needs the file itself")
        bases = []
        for layer in layers where layer.bytes.count > limits.maxSourceBytes {
            throw LuaError(
                kind: .syntax, file: layer.chunkName,
                message: "the file is \(layer.bytes.count) bytes, more than the \(limits.maxSourceBytes) allowed")
        }
        for layer in layers { try Self.checkUTF8(layer.bytes, chunkName: layer.chunkName) }
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard lua_checkstack(L, Int32(layers.count) * 2 + 8) != 0 else { throw stackError() }
        rr_reset_raise(runtime)
        var chunks: [Int32] = []
        var base: Int32?
        chunkNames.formUnion(layers.map(\.chunkName))
        for (i, layer) in layers.enumerated() {
            let status = Self.text(of: layer.bytes).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    clua_loadbufferx(L, $0.baseAddress, $0.count, "@" + layer.chunkName, "t")
                }
            }
            if status != LUA_OK {
                var failure = error(status: status, chunk: layer.chunkName)
                if failure.line == nil, failure.message == "C stack overflow" {  // from the parser, which gives no line
                    failure.kind = .syntax
                    failure.line = LuaSourceMap.line(nestedDeeperThan: 190, in: String(decoding: layer.bytes, as: UTF8.self))
                    failure.message = "tables or blocks are nested more than about 200 levels deep (C stack overflow)"
                }
                throw failure
            }
            try checkKeepsNoState(chunk: layer.chunkName)
            let chunk = lua_gettop(L)
            chunks.append(chunk)
            clua_pushcfunction(L, rr_sandbox_setenv)
            lua_pushvalue(L, chunk)
            if let base { lua_pushvalue(L, base) } else { lua_pushnil(L) }
            try pcall(nargs: 2, nresults: 0, budget: 0, chunk: layer.chunkName)
            guard i < layers.count - 1 else { break }
            clua_pushcfunction(L, rr_sandbox_runbase)
            lua_pushvalue(L, chunk)
            try pcall(nargs: 1, nresults: 1, budget: limits.instructionsPerLoad, chunk: layer.chunkName)
            base = lua_gettop(L)
            bases.append((try? hostMode { try value(at: base!) }) ?? .nil)
        }
        clua_pushcfunction(L, rr_sandbox_runchunk)
        let function = lua_gettop(L)
        for chunk in chunks.reversed() { lua_pushvalue(L, chunk) }
        let n = try pcall(
            nargs: Int32(chunks.count), nresults: clua_multret(), budget: limits.instructionsPerLoad,
            chunk: layers.last!.chunkName)
        let values = try results(count: n, from: function, file: layers.last!.chunkName)
        if n > 0, lua_type(L, function) == LUA_TTABLE {
            hostMode {
                lua_pushvalue(L, function)
                // Named after its file: a last layer that is not a file (knob overrides) does not name it.
                let named = layers.last { $0.chunkName.hasSuffix(".lua") }?.chunkName ?? layers.last!.chunkName
                fileTables.append((named, luaL_ref(L, clua_registryindex())))
            }
        }
        try afterRunning?(chunks.last!)
        return values
    }

    /// What Lua compiles of a file's bytes, as `lua` and `luaL_loadfile` read a file: without a
    /// UTF-8 byte-order mark, and with a first line starting with `#` (`#!/usr/bin/env lua`) left
    /// empty, so that line numbers stay those of the file.
    static func text(of bytes: [UInt8]) -> ArraySlice<UInt8> {
        var text = SourceFile.withoutByteOrderMark(bytes)
        if text.first == UInt8(ascii: "#") { text = text.drop { $0 != UInt8(ascii: "\n") } }
        return text
    }

    /// Refuses a file that is not UTF-8 text, at the first line that is not: its text would reach
    /// messages, names and values changed (every stray byte the same U+FFFD). A byte a string
    /// needs is written as an escape (`"\xE9"`). A binary chunk (ESC first) is left to Lua, which
    /// refuses it as such.
    public static func checkUTF8(_ bytes: [UInt8], chunkName: String) throws(LuaError) {
        let text = Self.text(of: bytes)
        guard text.first != 0x1B, let bad = VisibleText.firstLineNotUTF8(in: text) else { return }
        throw LuaError(
            kind: .syntax, file: chunkName, line: bad.line,
            message: "not UTF-8 text: \(bad.text) (a Lua file is UTF-8; write other bytes in a string as escapes, \"\\xE9\")")
    }

    /// Refuses the chunk on top of the stack (loaded, not yet run) when one of its functions assigns
    /// a local of the file or its `_ENV`: that value would outlive the call and be seen by the next
    /// one, whichever user or thread it serves. Assigning the function's own locals, or those of an
    /// enclosing function other than the file, is fine; so is the file's top level assigning its
    /// locals while it loads.
    func checkKeepsNoState(chunk: String) throws {
        var line: Int32 = 0
        var message = [CChar](repeating: 0, count: 512)
        let verdict = message.withUnsafeMutableBufferPointer { rr_check_no_state(L, &line, $0.baseAddress, $0.count) }
        guard verdict != 0 else { return }
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw LuaError(
            kind: verdict > 0 ? .keepsState : .syntax, file: chunk, line: verdict > 0 && line > 0 ? Int(line) : nil,
            message: text)
    }

    /// The bytecode of `source` (not stripped), as the check of `checkKeepsNoState` reads it. For tests.
    func bytecodeForTesting(_ source: String) throws -> [UInt8] {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        let bytes = Array(source.utf8)
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { clua_loadbufferx(L, $0.baseAddress, $0.count, "@test.lua", "t") }
        }
        if status != LUA_OK { throw error(status: status, chunk: "test.lua") }
        var size = 0
        guard let data = rr_dump_for_tests(L, &size) else { throw LuaError(kind: .memory, message: "cannot dump") }
        defer { free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The check of `checkKeepsNoState` on bytecode given as bytes: 0, 1 (refused) or -1 (unreadable). For tests.
    static func checkBytecodeForTesting(_ bytes: [UInt8]) -> (verdict: Int, line: Int, message: String) {
        var line: Int32 = 0
        var message = [CChar](repeating: 0, count: 512)
        let verdict = bytes.withUnsafeBufferPointer { buffer in
            message.withUnsafeMutableBufferPointer {
                rr_check_dump_for_tests(buffer.baseAddress, buffer.count, &line, $0.baseAddress, $0.count)
            }
        }
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (Int(verdict), Int(line), text)
    }

    // MARK: Calling

    /// Calls a rule function with the given arguments under the instruction budget.
    public func call(_ function: LuaFunction, _ arguments: [LuaValue]) throws -> [LuaValue] {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard lua_checkstack(L, Int32(arguments.count) + 8) != 0 else { throw stackError() }
        try hostMode {
            try pushFunction(function)
            for argument in arguments { try push(argument) }
        }
        let n = try pcallRule(function, nargs: Int32(arguments.count), nresults: clua_multret())
        return try results(count: n, from: top + 1, file: function.source, of: function)
    }

    /// Converts `count` results starting at stack index `first`; errors name `file`, and for the
    /// results of a call, the function (as `call(_:_:returning:)` does).
    func results(count: Int32, from first: Int32, file: String, of function: LuaFunction? = nil) throws -> [LuaValue] {
        try converting(file: file, of: function) { try (0..<count).map { try value(at: first + $0) } }
    }

    /// The first of `count` results starting at `first` (nil when there are none), converted and
    /// charged as `results` does; with one result (the usual case), without making an array.
    func firstResult(count: Int32, from first: Int32, file: String, of function: LuaFunction) throws -> LuaValue {
        if count > 1 { return try results(count: count, from: first, file: file, of: function)[0] }
        return try converting(file: file, of: function) { count == 0 ? .nil : try value(at: first) }
    }

    /// Runs `convert` (the conversion of results) in host mode; a budget the conversion used up
    /// and a conversion failure become errors naming `file` and the function.
    func converting<T>(file: String, of function: LuaFunction?, _ convert: () throws -> T) throws -> T {
        do {
            let values = try hostMode(convert)
            if runtime.pointee.budget > 0, runtime.pointee.budget_remaining <= 0 {
                let what = function.map { "the value returned by the function at line \($0.line)" } ?? "the value the file returns"
                throw LuaError(
                    kind: .instructionBudget, file: file, line: function?.line,
                    message: budgetMessage() + ": converting \(what) for the host costs "
                        + "\(LuaHost.conversionCostPerEntry) per table entry; return a smaller table")
            }
            return values
        } catch var error as LuaError {
            if error.file == nil {
                error.file = file
                if let function {
                    error.line = function.line
                    error.message =
                        "in the \(error.path == nil ? "value" : "table") returned by the function at line \(function.line): "
                        + error.message
                }
            }
            throw error
        }
    }

    /// Calls a rule function with the given arguments under the instruction budget.
    public func call(_ function: LuaFunction, _ arguments: LuaValue...) throws -> [LuaValue] {
        try call(function, arguments)
    }

    // MARK: The one way into Lua

    /// Runs a C function of CLuaSupport under lua_pcall with `nargs` arguments already pushed.
    func callC(_ function: lua_CFunction, nargs: Int32) throws {
        let top = lua_gettop(L) - nargs
        defer { lua_settop(L, top) }
        clua_pushcfunction(L, function)
        clua_insert(L, -(nargs + 1))
        try pcall(nargs: nargs, nresults: 0, budget: 0, chunk: nil)
    }

    /// Calls the function below the `nargs` values on top of the stack under lua_pcall, with the
    /// traceback handler and the given instruction budget (0: none). On success the results replace
    /// the function and its arguments and their count is returned; on failure the stack is restored
    /// and the error is thrown. With `handlerPushed`, the caller pushed `rr_traceback` just below the
    /// function, and it stays below the results for the caller's `lua_settop` to remove (saving two
    /// stack rotations on the hot path).
    @discardableResult
    func pcall(nargs: Int32, nresults: Int32, budget: Int, chunk: String?, handlerPushed: Bool = false) throws -> Int32 {
        let base: Int32
        if handlerPushed {
            base = lua_gettop(L) - nargs - 1  // the handler sits below the function
        } else {
            base = lua_gettop(L) - nargs
            clua_pushcfunction(L, rr_traceback)
            clua_insert(L, base)
        }
        rr_reset_raise(runtime)
        rr_arm(runtime, Int64(budget))
        let status = clua_pcall(L, nargs, nresults, base)
        if status != LUA_OK {
            let failure = error(status: status, chunk: chunk)
            lua_settop(L, base - 1)
            throw failure
        }
        if handlerPushed { return lua_gettop(L) - base }
        clua_remove(L, base)
        return lua_gettop(L) - base + 1
    }

    /// Runs `body` with the memory ceiling lifted: what Swift pushes can never make Lua raise.
    @inline(__always)
    func hostMode<T>(_ body: () throws -> T) rethrows -> T {
        runtime.pointee.host_depth += 1
        defer { runtime.pointee.host_depth -= 1 }
        return try body()
    }

    func stackError() -> LuaError {
        LuaError(kind: .memory, message: "the Lua stack cannot grow any further")
    }
}

@available(*, unavailable, message: "a Lua state belongs to one thread at a time; create one LuaHost per thread or task")
extension LuaHost: Sendable {}

import CLuaSupport

/// Rule functions that Lua code calls directly (a test calling `escalation.transition(…)`) made to
/// be called as the host calls them, so that a host that explains (`LuaHost.explain`) records them.
extension LuaHost {
    /// The global host function the wrappers call (registered once, on first use).
    static let hostCallName = "__rulesrun_call_rule"
    /// The chunk that makes the wrappers: its calls are not the rules' (an explanation leaves them out).
    public static let wrapperChunkName = "(rulesrun explain)"

    /// `value` with every function in it (a module's table, deeply) replaced by one that calls the
    /// original through the host, as `call(_:_:)` does: recorded when the host explains, with the
    /// arguments and results converted to Swift values and back (a table is copied), under a budget
    /// of its own whose instructions are then charged to the caller's (a loop of calls still runs
    /// out). An error of the call is raised again in the caller, prefixed with the wrapper's name.
    /// For explaining a test only: the copies and the extra frames cost time and memory.
    public func callingThroughHost(_ value: LuaValue) throws -> LuaValue {
        if wrapFunction == nil {
            try register(Self.hostCallName) { [weak self] arguments in
                guard let self, case .function(let function)? = arguments.first else {
                    throw LuaError(kind: .hostFunction, message: "expected the rule function to call")
                }
                return try self.callChargingCaller(function, Array(arguments.dropFirst()))
            }
            let maker = try load(
                "return function(fn) return function(...) return \(Self.hostCallName)(fn, ...) end end",
                chunkName: Self.wrapperChunkName)
            guard case .function(let function)? = maker.first else {
                throw LuaError(kind: .runtime, message: "the rule call wrapper did not load")
            }
            wrapFunction = function
        }
        return try wrapped(value, depth: 0)
    }

    private func wrapped(_ value: LuaValue, depth: Int) throws -> LuaValue {
        switch value {
        case .function(let function):
            guard let wrapFunction, case .function(let wrapper)? = try call(wrapFunction, [.function(function)]).first else {
                return value
            }
            return .function(wrapper)
        case .table(let table) where depth < 8:
            var copy = LuaTable()
            for entry in table.sortedEntries { copy[entry.key] = try wrapped(entry.value, depth: depth + 1) }
            return .table(copy)
        default: return value
        }
    }

    /// `call(function, arguments)` from inside a host function: the call gets a budget of its own
    /// (as every rule call does), and what it used is taken from the budget of the Lua code that
    /// called the host function. When lines are being recorded (the caller is itself a call being
    /// explained: a test), recording stops around the call, so that an explained call records the
    /// lines it runs; the caller's lines recorded so far are lost (they are a test's, not a rule's).
    private func callChargingCaller(_ function: LuaFunction, _ arguments: [LuaValue]) throws -> [LuaValue] {
        let budget = runtime.pointee.budget
        let remaining = runtime.pointee.budget_remaining
        let recording = isRecordingLines
        if recording { stopLineRecording() }
        defer {
            let used = max(0, runtime.pointee.budget - runtime.pointee.budget_remaining)
            runtime.pointee.budget = budget
            runtime.pointee.budget_remaining = remaining - used
            if recording { startLineRecording() }
        }
        return try call(function, arguments)
    }

    /// Runs `body`, which loads chunks or sets globals of this host, from inside a host function:
    /// the budget of the Lua code that called the host function is left as it was (what `body`
    /// runs is not charged to it), and lines are not recorded meanwhile (what a file runs as it
    /// loads is not what a test ran).
    public func outsideCallerBudget<T>(_ body: () throws -> T) rethrows -> T {
        let budget = runtime.pointee.budget
        let remaining = runtime.pointee.budget_remaining
        let recording = isRecordingLines
        if recording { stopLineRecording() }
        defer {
            rr_arm(runtime, budget)  // the hook as the caller's budget needs it
            runtime.pointee.budget_remaining = remaining
            if recording { startLineRecording() }
        }
        return try body()
    }
}

import CLua
import CLuaSupport

/// Explaining rule calls (`replay --explain`): see `LuaCallTrace`.
extension LuaHost {
    /// Records every rule call from now on in `trace`, with the knobs it reads: the frozen tables
    /// of every file loaded so far (and all tables reachable from them) report their reads, each
    /// named by its path from its file's table (`escalation.recover_after[2]`, the file's name
    /// without its folder and `.lua` first). Rules see the same values and run the same
    /// instructions; a knob read being a call of a C function, a call may need one call frame more
    /// than Lua has cached (72 bytes, charged 68 instructions, kept for later calls). There is no
    /// way back: a host that explains keeps explaining (make another to stop).
    public func explain(_ trace: LuaCallTrace) throws {
        try traceKnobsOfLoadedFiles()
        callTrace = trace
    }

    /// Whether the host explains (`explain`).
    public var isExplaining: Bool { callTrace != nil }

    /// Makes the tables of every file loaded so far report their reads (`explain` does it for the
    /// files loaded before it; a file loaded again while explaining, as `with_knobs` loads one,
    /// needs it too). A table already reporting is left as it is.
    public func traceKnobsOfLoadedFiles() throws {
        for file in fileTables {
            try hostMode {
                lua_rawgeti(L, clua_registryindex(), lua_Integer(file.reference))
                // The file's name alone: `rules/streaks.lua`, a file of the folder a variant extends, is `streaks`.
                let name = file.chunkName.split(separator: "/").last.map(String.init) ?? file.chunkName
                lua_pushstring(L, name.hasSuffix(".lua") ? String(name.dropLast(4)) : name)
                try callC(rr_trace_knobs, nargs: 2)
            }
        }
    }

    /// Calls the rule function below its `nargs` arguments on top of the stack (as `pcall` does,
    /// under the call budget), recording the call when explaining.
    @inline(__always)
    func pcallRule(_ function: LuaFunction, nargs: Int32, nresults: Int32, handlerPushed: Bool = false) throws -> Int32 {
        guard let trace = callTrace else {
            return try pcall(
                nargs: nargs, nresults: nresults, budget: limits.instructionsPerCall, chunk: function.source,
                handlerPushed: handlerPushed)
        }
        return try tracedPcall(trace, function, nargs: nargs, nresults: nresults, pushed: handlerPushed)
    }

    /// `pcallRule` while explaining: the arguments and results converted for the trace (charged to
    /// no budget), the knob reads recorded during the call only, and the lines of the function's
    /// file it executed, by the coverage recorder (`LuaHost+LineRecording`), which counts the same
    /// instructions as without it. A host already recording lines (a coverage run) keeps its
    /// counts: its calls are explained without lines.
    private func tracedPcall(_ trace: LuaCallTrace, _ function: LuaFunction, nargs: Int32, nresults: Int32, pushed: Bool) throws -> Int32 {
        let first = lua_gettop(L) - nargs + 1
        let arguments = hostMode { (0..<nargs).map { tracedValue(at: first + $0, entries: LuaCallTrace.maxEntries) } }
        let recordsLines = trace.recordsResults && !isRecordingLines
        if recordsLines { startLineRecording() }
        /// The lines run in the function's own file, in the order of the file.
        func linesRun() -> [Int]? {
            guard recordsLines else { return nil }
            stopLineRecording()
            return takeLineCounts().chunks[function.source].map { $0.keys.sorted() } ?? []
        }
        rr_trace_reads_begin(runtime)
        do {
            let n = try pcall(
                nargs: nargs, nresults: nresults, budget: limits.instructionsPerCall, chunk: function.source,
                handlerPushed: pushed)
            rr_trace_reads_end(runtime)
            let lines = linesRun()
            let top = lua_gettop(L)
            let results = trace.recordsResults ? hostMode { (0..<n).map { tracedValue(at: top - n + 1 + $0, entries: LuaCallTrace.maxEntries) } } : []
            var call = LuaCallTrace.Call(
                function: function, arguments: arguments, results: results, error: nil, knobs: [],
                knobsLeftOut: Int(runtime.pointee.reads_dropped))
            call.lines = lines
            recordReadsAndNotes(into: &call)
            trace.append(call)
            return n
        } catch {
            rr_trace_reads_end(runtime)
            var call = LuaCallTrace.Call(
                function: function, arguments: arguments, results: nil, error: (error as? LuaError)?.description ?? "\(error)",
                knobs: [], knobsLeftOut: Int(runtime.pointee.reads_dropped))
            call.lines = linesRun()
            recordReadsAndNotes(into: &call)
            trace.append(call)
            throw error
        }
    }

    /// The knob and param reads, the notes and the returning line recorded in the call that just
    /// ended (the line is recorded by the line hook: none for a trace of arguments only).
    private func recordReadsAndNotes(into call: inout LuaCallTrace.Call) {
        let reads = knobReads()
        call.knobs = reads.filter { !$0.isParam }.map(\.read)
        call.params = reads.filter(\.isParam).map(\.read)
        let line = Int(runtime.pointee.return_line)
        call.returnLine = line > 0 ? line : nil
        let rt = runtime.pointee
        if let notes = rt.notes {
            call.notes = (0..<Int(rt.notes_count)).map { i in
                var note = notes[i]
                let text = withUnsafeBytes(of: &note.text) { String(decoding: $0.prefix(Int(note.length)), as: UTF8.self) }
                return note.cut != 0 ? text + "…" : text
            }
        }
        call.notesLeftOut = Int(rt.notes_dropped)
    }

    /// The reads recorded in the call that just ended: knobs and params.
    private func knobReads() -> [(read: LuaCallTrace.KnobRead, isParam: Bool)] {
        (0..<Int(runtime.pointee.reads_count)).map { i in
            var read = runtime.pointee.reads[i]
            let name = withUnsafeBytes(of: &read.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let text = withUnsafeBytes(of: &read.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let value: LuaValue =
                switch read.type {
                case LUA_TBOOLEAN: .boolean(text == "true")
                case LUA_TNUMBER: read.is_integer != 0 ? .integer(Int64(text) ?? 0) : .number(Double(text) ?? .nan)
                case LUA_TSTRING: .string(text)
                default: .nil
                }
            return (LuaCallTrace.KnobRead(name: name, value: value, cut: read.cut != 0), read.is_param != 0)
        }
    }
}

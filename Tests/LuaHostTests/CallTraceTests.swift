import LuaHost
import Testing

/// `LuaHost.explain(_:)`: every rule call recorded with its arguments, results or error and the
/// knobs it read, at no change to what the rules see or what they are charged.
@Suite struct CallTraceTests {
    static let source = """
        local M = {}
        M.limits = { 10, 20, name = "strict", nested = { deep = 0.5 } }
        M.word = "\(String(repeating: "é", count: 60))"
        local function limit(i) return M.limits[i] end
        function M.check(n, t)
          local total = 0
          for i, v in ipairs(M.limits) do total = total + v end
          if n > 2 then error("too many: " .. n) end
          return limit(n) or total, M.limits.name, M.limits.nested.deep, #M.word, t.x
        end
        return M
        """

    static func loaded() throws -> (LuaHost, LuaFunction) {
        let host = try LuaHost()
        let module = try #require(try host.load(source, chunkName: "rules/limits.lua").first)
        return (host, try #require(module["check"].functionValue))
    }

    @Test func callsAreRecordedWithArgumentsResultsAndTheKnobsTheyRead() throws {
        let (host, check) = try Self.loaded()
        let trace = LuaCallTrace()
        try host.explain(trace)
        let out = try host.call(check, .integer(1), ["x": .boolean(true)])
        #expect(out == [.integer(10), .string("strict"), .number(0.5), .integer(120), .boolean(true)])
        let calls = trace.removeAll()
        #expect(calls.count == 1 && trace.calls.isEmpty)
        let call = try #require(calls.first)
        #expect(call.function == check && call.error == nil)
        // The lines of the file the call ran: check's body and the local helper it called (line 4).
        #expect(call.lines == [4, 6, 7, 8, 9])
        #expect(call.arguments == [.integer(1), ["x": .boolean(true)]])
        #expect(call.results == out.map { $0 })
        // ipairs reads each element and the nil that ends the walk; a local helper's read is the
        // call's; a table read is not listed, the reads inside it are; `#` reads no field.
        #expect(
            call.knobs.map { "\($0.name) = \($0.value)" } == [
                "limits.limits[1] = 10", "limits.limits[2] = 20", "limits.limits[3] = nil", "limits.limits[1] = 10",
                #"limits.limits.name = "strict""#, "limits.limits.nested.deep = 0.5",
                #"limits.word = "\#(String(repeating: "é", count: 47))""#,
            ])
        // A string knob longer than 95 bytes is cut there, not inside a character.
        #expect(call.knobs.map(\.cut) == [false, false, false, false, false, false, true])
        #expect(call.knobsLeftOut == 0)
    }

    @Test func aFailingCallIsRecordedWithItsError() throws {
        let (host, check) = try Self.loaded()
        let trace = LuaCallTrace()
        try host.explain(trace)
        #expect(throws: LuaError.self) { try host.call(check, .integer(3), ["x": .boolean(false)]) }
        let call = try #require(trace.calls.first)
        #expect(call.results == nil && call.error?.contains("limits.lua:8: too many: 3") == true, "\(call)")
        #expect(call.knobs.count == 3)  // the walk of M.limits, before the error
        #expect(call.lines == [6, 7, 8])  // up to the line that raised
    }

    /// A host already recording lines (a coverage run) keeps its counts: its calls are explained
    /// without lines, and the coverage counts hold the explained call's lines.
    @Test func aCoverageRunKeepsItsLineCounts() throws {
        let (host, check) = try Self.loaded()
        let trace = LuaCallTrace()
        try host.explain(trace)
        host.startLineRecording()
        _ = try host.call(check, .integer(1), ["x": .boolean(true)])
        #expect(trace.calls.first?.lines == nil)
        #expect(host.takeLineCounts().chunks["rules/limits.lua"].map { $0.keys.sorted() } == [4, 6, 7, 8, 9])
    }

    /// Explaining changes no result, and the instructions a call is charged by at most a call frame:
    /// a knob read is a call of a C function, which may need one more frame than the plain read
    /// (72 bytes, charged 68 instructions, then kept by Lua for the next calls).
    @Test func explainingCostsTheRulesAtMostACallFrame() throws {
        let (plain, plainCheck) = try Self.loaded()
        let (explained, explainedCheck) = try Self.loaded()
        try explained.explain(LuaCallTrace())
        for n in [1, 2, 1, 2] {
            let a = try plain.call(plainCheck, .integer(Int64(n)), ["x": .integer(1)])
            let b = try explained.call(explainedCheck, .integer(Int64(n)), ["x": .integer(1)])
            #expect(a == b)
        }
        let extra = explained.instructionsRun - plain.instructionsRun
        #expect(extra >= 0 && extra <= 68, "\(extra)")
        // Without explain(_:), nothing is recorded.
        #expect(plain.callTrace == nil)
    }
}

import LuaHost
import Testing

/// What `LuaHost.explain(_:)` records of why a call answered as it did: the line it returned from,
/// the params it read (a record's `params` table, `LuaTableWriter.set(_:fields:)`), and the notes
/// it attached with `note`.
@Suite struct CallTraceWhyTests {
    static let source = """
        local M = {}
        M.base = 40
        local function surcharge(p) return p.night_factor end
        function M.price(ctx)
          if ctx.hour >= 22 then
            note("night surcharge " .. ctx.params.night_factor * 100 .. " %")
            return M.base * surcharge(ctx.params)
          end
          if ctx.params.free then return 0 end
          return M.base
        end
        function M.tail(ctx) return M.price(ctx) end
        function M.notes(n, text)
          for i = 1, n do note(text or ("note " .. i)) end
          return n
        end
        function M.bad(value) note(value) return 1 end
        function M.write(ctx)
          ctx.params.extra = 3
          ctx.params.night_factor = 2
          return ctx.params.extra + ctx.params.night_factor
        end
        return M
        """

    /// A price's situation: the hour and the params of the file.
    struct Situation: LuaTableEncodable {
        static let hourKey = LuaKey("hour")
        static let paramsKey = LuaKey("params")
        var hour: Int
        var params: [(name: String, value: LuaValue)] = [("free", .boolean(false)), ("night_factor", .number(1.5))]
        func encode(to t: inout LuaTableWriter) {
            t.set(Self.hourKey, hour)
            t.set(Self.paramsKey, fields: params)
        }
    }

    static func loaded(explaining: Bool = true) throws -> (LuaHost, LuaValue, LuaCallTrace) {
        let host = try LuaHost()
        let module = try #require(try host.load(source, chunkName: "pricing.lua").first)
        let trace = LuaCallTrace()
        if explaining { try host.explain(trace) }
        return (host, module, trace)
    }

    @Test func aCallRecordsTheLineItReturnedFrom() throws {
        let (host, module, trace) = try Self.loaded()
        let price = try #require(module["price"].functionValue)
        #expect(try host.call(price, Pooled(Situation(hour: 23)), returning: [LuaValue].self) == [.number(60)])
        #expect(try host.call(price, Pooled(Situation(hour: 9)), returning: [LuaValue].self) == [.integer(40)])
        #expect(
            try host.call(price, Pooled(Situation(hour: 9, params: [("free", .boolean(true))])), returning: [LuaValue].self) == [
                .integer(0)
            ])
        // The line of the return that answered, not the helper's line the first return called.
        #expect(trace.removeAll().map(\.returnLine) == [7, 10, 9])
        // A tail call returns from the line that made it.
        let tail = try #require(module["tail"].functionValue)
        _ = try host.call(tail, Pooled(Situation(hour: 23)), returning: [LuaValue].self)
        #expect(trace.removeAll().map(\.returnLine) == [12])
        // A call that raised: the line of its own that raised.
        let bad = try #require(module["bad"].functionValue)
        #expect(throws: LuaError.self) { try host.call(bad, .integer(1)) }
        #expect(trace.removeAll().map(\.returnLine) == [17])
    }

    @Test func aCallRecordsTheParamsItRead() throws {
        let (host, module, trace) = try Self.loaded()
        let price = try #require(module["price"].functionValue)
        _ = try host.call(price, Pooled(Situation(hour: 23)), returning: [LuaValue].self)
        _ = try host.call(price, Pooled(Situation(hour: 9)), returning: [LuaValue].self)
        let calls = trace.removeAll()
        // By name, once per read, a helper's read included; the knobs apart.
        #expect(calls[0].params.map { "\($0.name) = \($0.value)" } == ["night_factor = 1.5", "night_factor = 1.5"])
        #expect(calls[0].knobs.map(\.name) == ["pricing.base"])
        #expect(calls[1].params.map { "\($0.name) = \($0.value)" } == ["free = false"])
    }

    /// A rule may write into its params table, as into the plain table it gets when not explained:
    /// the same answer either way.
    @Test func paramsAreWritableAsWithoutExplaining() throws {
        for explaining in [false, true] {
            let (host, module, _) = try Self.loaded(explaining: explaining)
            let write = try #require(module["write"].functionValue)
            #expect(
                try host.call(write, Pooled(Situation(hour: 1)), returning: [LuaValue].self) == [.integer(5)], "explaining: \(explaining)")
        }
    }

    @Test func notesAttachToTheCallThatMadeThem() throws {
        let (host, module, trace) = try Self.loaded()
        let price = try #require(module["price"].functionValue)
        _ = try host.call(price, Pooled(Situation(hour: 23)), returning: [LuaValue].self)
        _ = try host.call(price, Pooled(Situation(hour: 9)), returning: [LuaValue].self)
        #expect(trace.removeAll().map(\.notes) == [["night surcharge 150.0 %"], []])
        // At most 8 a call, the rest counted.
        let notes = try #require(module["notes"].functionValue)
        _ = try host.call(notes, .integer(11))
        let many = try #require(trace.removeAll().first)
        #expect(many.notes == (1...8).map { "note \($0)" } && many.notesLeftOut == 3)
        // A long note is cut at 200 bytes, not inside a character, then ends with …
        _ = try host.call(notes, .integer(1), .string("a" + String(repeating: "é", count: 150)))
        let long = try #require(trace.removeAll().first?.notes.first)
        #expect(long == "a" + String(repeating: "é", count: 99) + "…")
    }

    @Test func aNoteThatIsNotTextIsAnErrorAtTheLineThatMadeIt() throws {
        for explaining in [false, true] {
            let (host, module, _) = try Self.loaded(explaining: explaining)
            let bad = try #require(module["bad"].functionValue)
            do {
                _ = try host.call(bad, .integer(7))
                Issue.record("a number was accepted")
            } catch let error as LuaError {
                #expect(error.description.hasPrefix("pricing.lua:17: note: expected a string (the note's text), found number"), "\(error)")
            }
            #expect(throws: LuaError.self) { try host.call(bad) }
        }
    }

    /// `note` costs the rules the same explained or not (the instructions of its call), and records
    /// nothing when not explaining.
    @Test func aNoteCostsTheSameExplainedOrNot() throws {
        let (plain, plainModule, _) = try Self.loaded(explaining: false)
        let (explained, explainedModule, trace) = try Self.loaded(explaining: true)
        _ = try plain.call(try #require(plainModule["notes"].functionValue), .integer(50), .string("x"))
        _ = try explained.call(try #require(explainedModule["notes"].functionValue), .integer(50), .string("x"))
        // Explained or not, the same instructions; and the explained call kept 8 notes.
        #expect(plain.instructionsRun == explained.instructionsRun)
        #expect(plain.callTrace == nil && trace.calls.first?.notes.count == 8)
    }
}

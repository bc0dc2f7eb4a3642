import LuaHost
import Testing

/// A record passed as a view (`callFirst(_:view:)`): the host learns which fields a call read.
struct Situation: LuaTableViewable {
    static let minutes = LuaKey("minutes")
    static let hour = LuaKey("hour")
    static let mode = LuaKey("mode")
    static var luaViewKeys: [LuaKey] { [minutes, hour, mode] }
    var minutes: Int, hour: Int, mode: String?
    func encode(to t: inout LuaTableWriter) {
        t.set(Self.minutes, minutes)
        t.set(Self.hour, hour)
        if let mode { t.set(Self.mode, mode) }
    }
}

@Suite struct ViewCallTests {
    static let source = """
        local M = {}
        function M.length(ctx) return ctx.minutes end
        function M.night(ctx) if ctx.hour >= 22 then return ctx.minutes * 2 end return ctx.minutes end
        function M.moded(ctx) return ctx.mode or "none" end
        function M.nothing(ctx) return 7 end
        function M.looped(ctx) local n = 0 for _, v in pairs(ctx) do n = n + 1 end return n end
        function M.nexted(ctx) return (next(ctx)) end
        function M.counted(ctx) return #ctx end
        function M.undeclared(ctx) return ctx.category end
        function M.indexed(ctx) return ctx[1] end
        function M.random(ctx) return ctx.minutes + math.random(1, 1) end
        function M.raw(ctx) return rawget(ctx, "minutes") end
        function M.writes(ctx) ctx.minutes = 1 return 0 end
        function M.helper(ctx) local function h(t) return t.hour end return h(ctx) end
        function M.fails(ctx) local _ = ctx.hour error("no") end
        return M
        """

    let host: LuaHost
    let module: LuaTable
    init() throws {
        host = try LuaHost()
        module = try #require(try host.load(Self.source, chunkName: "view.lua").first?.tableValue)
    }

    func call(_ name: String, _ s: Situation = Situation(minutes: 15, hour: 23, mode: nil)) throws -> (LuaValue, LuaFieldReads) {
        let function = try #require(module[.string(name)].functionValue)
        let answer = try host.call(function, View(s), returning: LuaReadAnswer.self)
        return (answer.value, answer.reads)
    }

    @Test func eachFieldReadIsItsBitAndTheValuesAreTheRecords() throws {
        #expect(try call("length") == (.integer(15), .field(0)))
        #expect(try call("night") == (.integer(30), [.field(0), .field(1)]))
        // The hour decides before the length is read: another path, other reads.
        #expect(try call("night", Situation(minutes: 5, hour: 9, mode: nil)) == (.integer(5), [.field(0), .field(1)]))
        #expect(try call("helper") == (.integer(23), .field(1)))
        #expect(try call("nothing") == (.integer(7), []))
        // A field the record left out (nil) is read all the same: its absence is what the rule saw.
        #expect(try call("moded") == (.string("none"), .field(2)))
        #expect(try call("moded", Situation(minutes: 5, hour: 9, mode: "work")) == (.string("work"), .field(2)))
    }

    @Test func readsTheHostCannotTellApartAreAll() throws {
        #expect(try call("looped") == (.integer(2), .all))
        #expect(try call("looped", Situation(minutes: 5, hour: 9, mode: "work")).0 == .integer(3))
        #expect(try call("nexted").1 == .all)
        #expect(try call("counted") == (.integer(0), .all))
        #expect(try call("undeclared") == (.nil, .all))
        #expect(try call("indexed") == (.nil, .all))
        // A call that draws from math.random may answer differently with the same fields.
        #expect(try call("random") == (.integer(16), .all))
    }

    @Test func aViewIsReadOnlyAndRawgetReadsEveryField() throws {
        #expect(try call("raw") == (.integer(15), .all))
        let function = try #require(module["writes"].functionValue)
        #expect {
            _ = try host.call(function, View(Situation(minutes: 15, hour: 23, mode: nil)), returning: LuaReadAnswer.self)
        } throws: { error in
            "\(error)".contains("cannot set 'minutes': the tables the host passes to a rule are read-only")
        }
    }

    /// The pooled view is refilled for each call: a field of one call is never seen by the next,
    /// and the reads of a failed call do not leak into the next one's.
    @Test func callsDoNotSeeEachOther() throws {
        #expect(try call("moded", Situation(minutes: 5, hour: 9, mode: "work")).0 == .string("work"))
        #expect(try call("moded", Situation(minutes: 5, hour: 9, mode: nil)).0 == .string("none"))
        let fails = try #require(module["fails"].functionValue)
        #expect(throws: LuaError.self) {
            _ = try host.call(fails, View(Situation(minutes: 5, hour: 9, mode: nil)), returning: LuaReadAnswer.self)
        }
        #expect(try call("length") == (.integer(15), .field(0)))
    }
}

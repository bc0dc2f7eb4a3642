import LuaHost
import Testing

/// A record with a kept text (a day by its number).
struct Dated: LuaKeptRecord {
    static let day = LuaKey("day"), days = LuaKey("days")
    var day: Int
    func encode(to t: inout LuaTableWriter) {
        t.set(Self.day, text: day, of: Self.days) { buffer in
            let text = Array("day \(day)".utf8)
            buffer.copyBytes(from: text)
            return text.count
        }
    }
}

/// `LuaLimits.argumentReuse`: which argument tables a host reuses between calls (what it holds
/// afterwards), while every call sees the same arguments at every level.
@Suite struct ArgumentReuseHostTests {
    static let source = """
        local M = {}
        function M.record(a) return a.day end
        function M.view(ctx) return ctx.minutes end
        function M.list(days, b) return days[1].current_tier .. b.day end
        function M.fields(days) return days[1].exits end
        function M.history(days, task, user)
          return { current_tier = #days, reminders = { days[1].day, task.current_tier .. "", user.day } }
        end
        function M.writes(days, task, user)
          days[1].current_tier = 9
          task.current_tier = 8
          return { current_tier = days[1].current_tier + task.current_tier + user.current_tier, reminders = {} }
        end
        return M
        """

    /// Calls each kind of argument twice under `reuse`, checks what the calls saw, and returns
    /// what the host keeps afterwards.
    func reused(_ reuse: ArgumentReuse) throws -> LuaHost.ReusedArguments {
        let host = try LuaHost(limits: LuaLimits(argumentReuse: reuse))
        let module = try #require(try host.load(Self.source, chunkName: "reuse.lua").first?.tableValue)
        func function(_ name: String) throws -> LuaFunction { try #require(module[.string(name)].functionValue) }
        for i in 1...2 {
            #expect(try host.call(function("record"), Pooled(Dated(day: i)), returning: LuaValue.self) == .string("day \(i)"))
            #expect(
                try host.call(function("view"), View(Situation(minutes: i, hour: 1, mode: nil)), returning: LuaReadAnswer.self).value
                    == .integer(Int64(i)))
            #expect(
                try host.call(function("list"), KeptList([Snapshot(tier: i)]), Pooled(Dated(day: i)), returning: LuaValue.self)
                    == .string("\(i)day \(i)"))
            #expect(
                try host.call(function("fields"), FieldRecords([i], field: LuaKey("exits")), returning: [LuaValue].self) == [
                    .integer(Int64(i))
                ])
            let d = try host.call(
                function("history"), History([Dated(day: i)], key: "k"), Kept(Snapshot(tier: i), key: "k"), Kept(Dated(day: i + 1)),
                returning: Decision.self)
            #expect(d.reminders == ["day \(i)", "\(i)", "day \(i + 1)"])
        }
        // A rule may write into the fields of a history and its records at every level (they are
        // kept tables, fresh or not), and the next call does not see it.
        for _ in 0..<2 {
            let d = try host.call(
                function("writes"), History([HistoryDay(tier: 1)], key: "k"), Kept(Snapshot(tier: 2), key: "k"), Kept(Snapshot(tier: 3)),
                returning: Decision.self)
            #expect(d.tier == 20)
        }
        let d = try host.call(
            function("history"), History([Dated(day: 4)], key: "k"), Kept(Snapshot(tier: 5), key: "k"), Kept(Dated(day: 6)),
            returning: Decision.self)
        #expect(d.reminders == ["day 4", "5", "day 6"])
        return host.reusedArguments
    }

    @Test func noneBuildsEveryArgumentFresh() throws {
        #expect(try reused(.none) == LuaHost.ReusedArguments())
    }

    @Test func pooledReusesThePooledTablesOnly() throws {
        let reused = try reused(.pooled)
        #expect(reused.pooledTables == 3)  // the record's, the view's and the second argument's
        #expect(reused.keptLists == 0 && reused.fieldLists == 0 && reused.keptTexts == 0)
    }

    @Test func keptReusesEveryKind() throws {
        let reused = try reused(.kept)
        #expect(reused.pooledTables == 3)
        #expect(reused.keptLists > 0 && reused.fieldLists == 1 && reused.keptTexts == 5)
    }

    @Test func namesAreReadAsTheEnvironmentGivesThem() {
        #expect(ArgumentReuse(name: "none") == ArgumentReuse.none)
        #expect(ArgumentReuse(name: " Kept") == .kept)
        #expect(ArgumentReuse(name: "fresh") == nil)
        #expect(
            ArgumentReuse.problem(in: ["RULESRUN_ARGUMENT_REUSE": "fresh"])
                == "RULESRUN_ARGUMENT_REUSE=fresh: expected none, pooled or kept")
        #expect(ArgumentReuse.problem(in: ["RULESRUN_ARGUMENT_REUSE": "pooled"]) == nil)
        #expect(ArgumentReuse.problem(in: [:]) == nil)
    }
}

import LuaHost
import Synchronization
import Testing

/// Counts live instances, like swift-collections' LifetimeTracker: a `longjmp` over a Swift frame
/// would skip the releases and leave some alive.
final class Tracked {
    static let live = Atomic<Int>(0)
    let payload: [Int]
    init(_ n: Int) {
        payload = Array(repeating: n, count: 4)
        Tracked.live.add(1, ordering: .relaxed)
    }
    deinit { Tracked.live.subtract(1, ordering: .relaxed) }
}

struct HostFailure: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

@Suite(.serialized) struct HostFunctionTests {
    @Test func hostFunctionsReceiveArgumentsAndReturnResults() throws {
        let host = try LuaHost()
        try host.register("add") { args in
            [.integer((args[0].integerValue ?? 0) + (args[1].integerValue ?? 0)), .string("ok")]
        }
        try host.register("days", in: "history") { _ in [.table(LuaTable(sequence: ["YES", "NO", "MISSED"]))] }
        let values = try host.load(
            """
            local s, tag = add(40, 2)
            local d = history.days()
            return s, tag, #d, d[3]
            """, chunkName: "h.lua")
        #expect(values == [.integer(42), .string("ok"), .integer(3), .string("MISSED")])
    }

    @Test func aFailingHostFunctionIsAnErrorAtTheCallingLine() throws {
        let host = try LuaHost()
        try host.register("lookup") { args in throw HostFailure(reason: "no user \(args.first ?? .nil)") }
        let error = try loadError("local a = 1\nlocal b = lookup('u7')", name: "h.lua", host: host)
        #expect(error.kind == .hostFunction)
        #expect(error.file == "h.lua" && error.line == 2)
        #expect(error.message == "lookup: no user \"u7\"")
        try expectUsable(host)
    }

    @Test func hostNamespacesAreReadOnly() throws {
        let host = try LuaHost()
        try host.register("days", in: "history") { _ in [] }
        let error = try loadError("history.days = nil", host: host)
        #expect(error.kind == .runtime && error.message.contains("read-only"))
        let replace = try loadError("history = {}", host: host)
        #expect(replace.message.contains("read-only"))
    }

    @Test func aRuleCanCatchAHostFailureWithPcall() throws {
        let host = try LuaHost()
        try host.register("fail") { _ in throw HostFailure(reason: "nope") }
        let values = try host.load("local ok, err = pcall(fail)\nreturn ok, err", chunkName: "c.lua")
        #expect(values == [.boolean(false), .string("fail: nope")])
        // The caught failure does not colour a later, different error.
        let later = try loadError("pcall(fail)\nerror('other')", host: host)
        #expect(later.kind == .runtime && later.line == 2)
    }

    @Test func tenThousandFailingCallsLeaveNoSwiftObjectsAlive() throws {
        let before = Tracked.live.load(ordering: .relaxed)
        let host = try LuaHost(limits: LuaLimits(instructionsPerCall: 0))
        try host.register("explode") { args in
            let tracked = (0..<3).map { Tracked($0) }
            let message = "failed with \(tracked.count) objects and \(args.count) arguments"
            throw HostFailure(reason: message)
        }
        let module = try #require(
            try host.load(
                """
                return { run = function(n)
                  local failures = 0
                  for i = 1, n do
                    if not pcall(explode, i, "x", { i }) then failures = failures + 1 end
                  end
                  return failures
                end, raw = function() return explode(1) end }
                """, chunkName: "leak.lua"
            ).first?.tableValue)
        let run = try #require(module["run"].functionValue)
        #expect(try host.call(run, .integer(10_000)) == [.integer(10_000)])
        let raw = try #require(module["raw"].functionValue)
        for _ in 0..<1_000 {
            #expect(throws: LuaError.self) { try host.call(raw) }
        }
        #expect(Tracked.live.load(ordering: .relaxed) == before)
    }

    @Test func hostFunctionsMayAllocateBeyondTheMemoryCeilingWithoutRaising() throws {
        let host = try LuaHost(limits: LuaLimits(memoryBytes: 4 << 20))
        try host.register("big") { _ in
            [.table(LuaTable(sequence: (0..<200_000).map { .integer(Int64($0)) }))]
        }
        // The result is built in full by Swift (beyond the ceiling), then the rule's next steps fail.
        let error = try loadError("local t = big()\nlocal u = {}\nfor i = 1, #t do u[i] = t[i] end", host: host)
        #expect(error.kind == .memory)
        try expectUsable(host)
    }
}

import CLua
import Foundation
import LuaHost

/// Measures the cost of calling a rule, in one run, against two baselines:
/// (a) the floor: the same small rule called through the bare C API with integer arguments;
/// (b) the rule called through `LuaHost` with a state table in and a result table out, read into
///     Swift structs (the path the engine uses), with and without the instruction hook;
/// (c) the same logic in native Swift.
/// It also reports the generic `[LuaValue]` path, for comparison.
package enum LuaHostBenchmark {
    package struct Result: Sendable, Encodable {
        package var iterations: Int
        package var floor_ns: Double
        /// The same table-in/table-out round trip written directly against the C API, with no
        /// sandbox, no hook and no checks but the key count: what any host pays for the tables.
        package var table_floor_ns: Double
        /// The same round trip with a count hook every 1,000 instructions, as LuaHost's budget
        /// installs: with any count hook, Lua 5.4 traps every instruction to count it. What a
        /// host with a deterministic instruction budget pays at least.
        package var table_floor_hooked_ns: Double
        package var host_ns: Double
        package var host_no_hook_ns: Double
        package var generic_ns: Double
        package var native_ns: Double
        package var host_over_floor: Double { host_ns / floor_ns }
        /// Issue 20's measure of a rule call: (b) against the bare-C fresh-table round trip.
        package var host_over_table_floor: Double { host_ns / table_floor_ns }
        /// (b) against the round trip with the same count hook: what LuaHost itself adds.
        package var host_over_hooked_table_floor: Double { host_ns / table_floor_hooked_ns }
        package var host_over_native: Double { host_ns / native_ns }
        /// The share of (b) spent because of the instruction-count hook.
        package var hook_share: Double { max(0, host_ns - host_no_hook_ns) / host_ns }

        private enum CodingKeys: String, CodingKey {
            case iterations, floor_ns, table_floor_ns, table_floor_hooked_ns, host_ns, host_no_hook_ns, generic_ns, native_ns
            case host_over_floor, host_over_table_floor, host_over_hooked_table_floor, host_over_native, hook_share
        }

        /// The measurements and the ratios derived from them.
        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(iterations, forKey: .iterations)
            try c.encode(floor_ns, forKey: .floor_ns)
            try c.encode(table_floor_ns, forKey: .table_floor_ns)
            try c.encode(table_floor_hooked_ns, forKey: .table_floor_hooked_ns)
            try c.encode(host_ns, forKey: .host_ns)
            try c.encode(host_no_hook_ns, forKey: .host_no_hook_ns)
            try c.encode(generic_ns, forKey: .generic_ns)
            try c.encode(native_ns, forKey: .native_ns)
            try c.encode(host_over_floor, forKey: .host_over_floor)
            try c.encode(host_over_table_floor, forKey: .host_over_table_floor)
            try c.encode(host_over_hooked_table_floor, forKey: .host_over_hooked_table_floor)
            try c.encode(host_over_native, forKey: .host_over_native)
            try c.encode(hook_share, forKey: .hook_share)
        }
    }

    /// The rule, twice: with integers (for the floor) and with tables (for the host).
    static let source = """
        local M = {}
        function M.step_ints(tier, misses, successes, yes)
          if yes then
            misses, successes = 0, successes + 1
            if tier > 0 and successes >= 3 then tier, successes = 0, 0 end
          else
            misses, successes = misses + 1, 0
            if misses >= 5 then tier = 3 elseif misses >= 3 then tier = 2 elseif misses >= 2 and tier < 1 then tier = 1 end
          end
          return tier, misses, successes
        end
        function M.step(state)
          local tier, misses, successes = state.current_tier, state.consecutive_misses, state.consecutive_successes
          if state.yes then
            misses, successes = 0, successes + 1
            if tier > 0 and successes >= 3 then tier, successes = 0, 0 end
          else
            misses, successes = misses + 1, 0
            if misses >= 5 then tier = 3 elseif misses >= 3 then tier = 2 elseif misses >= 2 and tier < 1 then tier = 1 end
          end
          return { current_tier = tier, consecutive_misses = misses, consecutive_successes = successes }
        end
        return M
        """

    struct State: LuaTableEncodable, LuaTableDecodable, Equatable {
        static let tier = LuaKey("current_tier")
        static let misses = LuaKey("consecutive_misses")
        static let successes = LuaKey("consecutive_successes")
        static var luaFieldCount: Int { 3 }

        var tier: Int, misses: Int, successes: Int

        init(tier: Int, misses: Int, successes: Int) {
            self.tier = tier
            self.misses = misses
            self.successes = successes
        }
        init(from t: inout LuaTableReader) throws {
            tier = try t.int(Self.tier)
            misses = try t.int(Self.misses)
            successes = try t.int(Self.successes)
        }
        func encode(to t: inout LuaTableWriter) {
            t.set(Self.tier, tier)
            t.set(Self.misses, misses)
            t.set(Self.successes, successes)
        }
    }

    /// The state table the host passes in: the escalation state and the day's check-in.
    struct Input: LuaTableEncodable {
        static let yes = LuaKey("yes")
        static var luaFieldCount: Int { 4 }
        var state: State
        var yes: Bool
        func encode(to t: inout LuaTableWriter) {
            state.encode(to: &t)
            t.set(Self.yes, yes)
        }
    }

    @inline(never)
    static func nativeStep(_ s: State, _ yes: Bool) -> State {
        var s = s
        if yes {
            s.misses = 0
            s.successes += 1
            if s.tier > 0 && s.successes >= 3 { s.tier = 0; s.successes = 0 }
        } else {
            s.misses += 1
            s.successes = 0
            if s.misses >= 5 { s.tier = 3 } else if s.misses >= 3 { s.tier = 2 } else if s.misses >= 2 && s.tier < 1 { s.tier = 1 }
        }
        return s
    }

    /// Inputs that exercise every branch.
    static func input(_ i: Int) -> (State, Bool) {
        (State(tier: i & 3, misses: (i >> 2) % 6, successes: (i >> 5) % 4), (i * 7919) % 3 != 0)
    }

    /// The measurements that can run alone, for a profiler (`RULESRUN_BENCH_ONLY=host perf record
    /// rulesrun bench`): the others would blur the profile.
    package enum Measurement: String, CaseIterable, Sendable {
        case floor
        case tableFloor = "table-floor"
        case hookedTableFloor = "hooked-table-floor"
        case host
        case hostNoHook = "host-no-hook"
    }

    /// Runs one measurement alone; nanoseconds per call of its fastest round.
    package static func run(only measurement: Measurement, iterations: Int = 1_000_000, rounds: Int = 5) throws -> Double {
        let round: Round =
            switch measurement {
            case .floor: try floorRound()
            case .tableFloor: try tableFloorRound(hooked: false)
            case .hookedTableFloor: try tableFloorRound(hooked: true)
            case .host: try hostRound(limits: .default)
            case .hostNoHook: try hostRound(limits: LuaLimits(instructionsPerCall: 0, memoryBytes: 0))
            }
        return try fastest(of: [round], iterations: [iterations], rounds: rounds)[0]
    }

    /// One measurement: a round of `iterations` calls, in nanoseconds per call. It owns what its
    /// rounds use (a Lua state, a host), made once.
    typealias Round = (_ iterations: Int) throws -> Double

    /// Runs every measurement `rounds` times over `iterations` calls and keeps each one's fastest
    /// round. The rounds are interleaved (a round of each, then the next round of each), so that
    /// the machine's load and clock changing during the run weigh on every measurement alike and
    /// the ratios of one run compare like with like.
    package static func run(iterations: Int = 1_000_000, rounds: Int = 5) throws -> Result {
        var sink = 0
        let native: Round = { iterations in
            time(iterations) { i in
                let (s, yes) = input(i)
                let r = nativeStep(s, yes)
                sink &+= r.tier &+ r.misses
            }
        }
        let measurements: [Round] = [
            try floorRound(), try tableFloorRound(hooked: false), try tableFloorRound(hooked: true),
            try hostRound(limits: .default), try hostRound(limits: LuaLimits(instructionsPerCall: 0, memoryBytes: 0)),
            try genericRound(), native,
        ]
        var counts = Array(repeating: iterations, count: measurements.count)
        counts[5] = max(1, iterations / 4)  // the generic path is ten times slower
        let ns = try fastest(of: measurements, iterations: counts, rounds: rounds)
        if sink == 42 { print("") }
        return Result(
            iterations: iterations, floor_ns: ns[0], table_floor_ns: ns[1], table_floor_hooked_ns: ns[2], host_ns: ns[3],
            host_no_hook_ns: ns[4], generic_ns: ns[5], native_ns: ns[6])
    }

    /// The fastest round of each measurement, `rounds` rounds each, interleaved.
    static func fastest(of measurements: [Round], iterations: [Int], rounds: Int) throws -> [Double] {
        var fastest = Array(repeating: Double.infinity, count: measurements.count)
        for _ in 0..<max(1, rounds) {
            for (i, round) in measurements.enumerated() { fastest[i] = min(fastest[i], try round(iterations[i])) }
        }
        return fastest
    }

    static func best(_ rounds: Int, _ body: () throws -> Double) rethrows -> Double {
        var fastest = Double.infinity
        for _ in 0..<max(1, rounds) { fastest = min(fastest, try body()) }
        return fastest
    }

    /// Nanoseconds of the thread's CPU time per iteration of `body`: on a loaded machine the wall
    /// clock also counts the time other processes had the core, which differs from one
    /// measurement to the next and would make the ratios of one run mean little.
    static func time(_ iterations: Int, _ body: (Int) throws -> Void) rethrows -> Double {
        let start = SQLiteFloor.threadCPUSeconds()
        for i in 0..<iterations { try body(i) }
        return (SQLiteFloor.threadCPUSeconds() - start) * 1e9 / Double(iterations)
    }

    /// A bare Lua state for the floors, closed with its last round.
    final class BareState {
        let L: OpaquePointer
        init(hooked: Bool = false) throws {
            guard let L = luaL_newstate() else { throw LuaError(kind: .memory, message: "cannot create a Lua state") }
            self.L = L
            _ = clua_gc_generational(L)
            if hooked {
                lua_sethook(L, { _, _ in LuaHostBenchmark.hookedInstructions &+= 1000 }, LUA_MASKCOUNT, 1000)
            }
            guard luaL_loadstring(L, source) == LUA_OK, clua_pcall(L, 0, 1, 0) == LUA_OK else {
                throw LuaError(kind: .runtime, message: "the benchmark rule does not load")
            }
        }
        deinit { lua_close(L) }

        /// A registry reference to the module's field `name`.
        func reference(_ name: String) -> Int32 {
            lua_getfield(L, -1, name)
            return luaL_ref(L, clua_registryindex())
        }
    }

    /// (a): the rule with integers through the bare C API.
    static func floorRound() throws -> Round {
        let state = try BareState()
        let L = state.L
        let reference = state.reference("step_ints")
        var sink = 0
        return { iterations in
            defer { if sink == 42 { print("") } }
            return try withExtendedLifetime(state) {
                try time(iterations) { i in
                    let (s, yes) = input(i)
                    lua_rawgeti(L, clua_registryindex(), lua_Integer(reference))
                    lua_pushinteger(L, lua_Integer(s.tier))
                    lua_pushinteger(L, lua_Integer(s.misses))
                    lua_pushinteger(L, lua_Integer(s.successes))
                    lua_pushboolean(L, yes ? 1 : 0)
                    guard clua_pcall(L, 4, 3, 0) == LUA_OK else { throw LuaError(kind: .runtime, message: "floor call failed") }
                    let r = State(
                        tier: Int(clua_tointeger(L, -3)), misses: Int(clua_tointeger(L, -2)),
                        successes: Int(clua_tointeger(L, -1)))
                    clua_pop(L, 3)
                    sink &+= r.tier &+ r.misses
                }
            }
        }
    }

    /// Instructions the hooked table floor counted (a sink: the hook must do what a budget does).
    nonisolated(unsafe) static var hookedInstructions = 0

    /// The table-in/table-out round trip through the bare C API, with or without a count hook.
    static func tableFloorRound(hooked: Bool) throws -> Round {
        let state = try BareState(hooked: hooked)
        let L = state.L
        let function = state.reference("step")
        var keys: [Int32] = []
        for name in ["current_tier", "consecutive_misses", "consecutive_successes", "yes"] {
            lua_pushstring(L, name)
            keys.append(luaL_ref(L, clua_registryindex()))
        }
        let outputKeys = (0..<3).map { i -> UnsafeRawPointer in
            lua_rawgeti(L, clua_registryindex(), lua_Integer(keys[i]))
            defer { clua_pop(L, 1) }
            return UnsafeRawPointer(lua_tolstring(L, -1, nil)!)
        }
        lua_createtable(L, 0, 4)
        let inputTable = luaL_ref(L, clua_registryindex())
        var sink = 0
        return { iterations in
            defer { if sink == 42 { print("") } }
            return try withExtendedLifetime(state) {
                try time(iterations) { i in
                    let (s, yes) = input(i)
                    lua_rawgeti(L, clua_registryindex(), lua_Integer(function))
                    lua_rawgeti(L, clua_registryindex(), lua_Integer(inputTable))
                    lua_rawgeti(L, clua_registryindex(), lua_Integer(keys[0])); lua_pushinteger(L, lua_Integer(s.tier)); lua_rawset(L, -3)
                    lua_rawgeti(L, clua_registryindex(), lua_Integer(keys[1])); lua_pushinteger(L, lua_Integer(s.misses)); lua_rawset(L, -3)
                    lua_rawgeti(L, clua_registryindex(), lua_Integer(keys[2])); lua_pushinteger(L, lua_Integer(s.successes)); lua_rawset(L, -3)
                    lua_rawgeti(L, clua_registryindex(), lua_Integer(keys[3])); lua_pushboolean(L, yes ? 1 : 0); lua_rawset(L, -3)
                    guard clua_pcall(L, 1, 1, 0) == LUA_OK else { throw LuaError(kind: .runtime, message: "table floor call failed") }
                    var r = State(tier: 0, misses: 0, successes: 0), count = 0
                    lua_pushnil(L)
                    while lua_next(L, -2) != 0 {  // one pass: match keys by their interned pointer
                        let key = UnsafeRawPointer(lua_tolstring(L, -2, nil))
                        let value = Int(clua_tointeger(L, -1))
                        if key == outputKeys[0] {
                            r.tier = value
                        } else if key == outputKeys[1] {
                            r.misses = value
                        } else if key == outputKeys[2] {
                            r.successes = value
                        }
                        count += 1
                        clua_pop(L, 1)
                    }
                    clua_pop(L, 1)
                    sink &+= r.tier &+ r.misses &+ count
                }
            }
        }
    }

    /// (b): the rule through `LuaHost`, state table in, result read into a struct. It checks first
    /// that the Lua rule and the native one agree, or the comparison would mean nothing.
    static func hostRound(limits: LuaLimits) throws -> Round {
        let host = try LuaHost(limits: limits)
        let module = try host.load(source, chunkName: "bench.lua").first?.tableValue
        guard let step = module?["step"].functionValue else { throw LuaError(kind: .runtime, message: "no step") }
        for i in 0..<1000 {
            let (s, yes) = input(i)
            guard try host.call(step, Pooled(Input(state: s, yes: yes)), returning: State.self) == nativeStep(s, yes) else {
                throw LuaError(kind: .runtime, message: "the Lua and native benchmark rules disagree")
            }
        }
        var sink = 0
        return { iterations in
            defer { if sink == 42 { print("") } }
            return try time(iterations) { i in
                let (s, yes) = input(i)
                let r = try host.call(step, Pooled(Input(state: s, yes: yes)), returning: State.self)
                sink &+= r.tier &+ r.misses
            }
        }
    }

    /// The generic path: a `LuaValue` in, `[LuaValue]` out, read by `LuaDecoder`.
    static func genericRound() throws -> Round {
        let host = try LuaHost()
        let module = try host.load(source, chunkName: "bench.lua").first?.tableValue
        guard let step = module?["step"].functionValue else { throw LuaError(kind: .runtime, message: "no step") }
        let decoder = LuaDecoder()
        struct Out: Decodable { var current_tier: Int, consecutive_misses: Int, consecutive_successes: Int }
        var sink = 0
        return { iterations in
            defer { if sink == 42 { print("") } }
            return try time(iterations) { i in
                let (s, yes) = input(i)
                let state: LuaValue = [
                    "current_tier": .integer(Int64(s.tier)), "consecutive_misses": .integer(Int64(s.misses)),
                    "consecutive_successes": .integer(Int64(s.successes)), "yes": .boolean(yes),
                ]
                let results = try host.call(step, state)
                let out = try decoder.decode(Out.self, from: results.first ?? .nil)
                sink &+= out.current_tier
            }
        }
    }
}

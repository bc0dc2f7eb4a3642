import LuaHost
import Testing

/// One test per closed door: each asserts the error kind, the `file:line`, and that the runtime
/// still works afterwards.
@Suite struct SandboxTests {
    @Test func osExecuteIsUnreachable() throws {
        let host = try LuaHost()
        let error = try loadError("local x = 1\nreturn os.execute('echo hi')", name: "esc/escalation.lua", host: host)
        #expect(error.kind == .runtime)
        #expect(error.file == "esc/escalation.lua")
        #expect(error.line == 2)
        #expect(error.message.contains("'os'"))
        try expectUsable(host)
    }

    @Test func ioOpenIsUnreachable() throws {
        let host = try LuaHost()
        let error = try loadError("\n\nlocal f = io.open('/etc/passwd')", host: host)
        #expect(error.kind == .runtime)
        #expect(error.file == "rule.lua" && error.line == 3)
        #expect(error.message.contains("'io'"))
        try expectUsable(host)
    }

    @Test(arguments: [
        "require('os')", "package.loadlib('x', 'y')", "dofile('/etc/passwd')",
        "loadfile('/etc/passwd')", "collectgarbage('stop')", "debug.getregistry()",
        "debug.sethook()", "load('return 1')", "loadstring('return 1')",
    ])
    func removedGlobalsAreNil(_ snippet: String) throws {
        let host = try LuaHost()
        let error = try loadError("-- line 1\n" + snippet, host: host)
        #expect(error.kind == .runtime)
        #expect(error.file == "rule.lua" && error.line == 2)
        #expect(error.message.contains("nil value"))
        try expectUsable(host)
    }

    @Test func loadOfTextIsUnavailable() throws {
        let host = try LuaHost()
        let error = try callError(
            """
            return { run = function()
              local f = load("return 1")
              return f()
            end }
            """, host: host)
        #expect(error.kind == .runtime)
        #expect(error.line == 2)
        #expect(error.message.contains("global 'load'"))
        try expectUsable(host)
    }

    @Test func binaryChunksAreRefused() throws {
        let host = try LuaHost()
        // The signature of a precompiled chunk: ESC "Lua" 0x54.
        let error: LuaError
        do {
            try host.load(bytes: [0x1B, 0x4C, 0x75, 0x61, 0x54, 0x00, 0x19, 0x93], chunkName: "binary.lua")
            Issue.record("a binary chunk loaded")
            return
        } catch let e as LuaError { error = e }
        #expect(error.kind == .syntax)
        #expect(error.file == "binary.lua")
        #expect(error.message.contains("binary chunk"))
        try expectUsable(host)
    }

    @Test func stringDumpIsGoneDirectlyAndThroughTheStringMetatable() throws {
        let host = try LuaHost()
        let direct = try loadError("return string.dump(function() end)", host: host)
        #expect(direct.kind == .runtime && direct.line == 1)
        #expect(direct.message.contains("dump"))
        let method = try loadError("local s = ''\nreturn s.dump(function() end)", host: host)
        #expect(method.kind == .runtime && method.line == 2)
        let colon = try loadError("return (''):dump()", host: host)
        #expect(colon.kind == .runtime && colon.line == 1)
        try expectUsable(host)
    }

    @Test func theStringMetatableCannotBeReachedOrChanged() throws {
        let host = try LuaHost()
        #expect(try host.load("return getmetatable('')", chunkName: "m.lua") == [.boolean(false)])
        let error = try loadError("local mt = getmetatable('')\nmt.__index = {}", host: host)
        #expect(error.kind == .runtime && error.line == 2)
        let viaString = try loadError("string.upper = function() return 'pwned' end", host: host)
        #expect(viaString.kind == .runtime && viaString.line == 1)
        #expect(viaString.message.contains("read-only"))
        #expect(try host.load("return ('abc'):upper()", chunkName: "u.lua") == [.string("ABC")])
    }

    @Test func debugLibraryIsAbsent() throws {
        let host = try LuaHost()
        let error = try loadError("local d = debug\nreturn d.getinfo(1)", host: host)
        #expect(error.kind == .runtime && error.line == 2)
        #expect(error.message.contains("'d'") || error.message.contains("nil"))
        try expectUsable(host)
    }

    @Test func collectgarbageIsAbsent() throws {
        let host = try LuaHost()
        let error = try loadError("collectgarbage()", host: host)
        #expect(error.kind == .runtime && error.line == 1)
        #expect(error.message.contains("collectgarbage"))
        try expectUsable(host)
    }

    @Test func aRuleCannotChangeAGlobalThatAnotherRuleReads() throws {
        let host = try LuaHost()
        // A rule that tries to replace a host global, a library function and the library itself.
        #expect(try loadError("math.max = function() return 0 end", name: "a.lua", host: host).message.contains("read-only"))
        #expect(try loadError("\nmath = {}", name: "a.lua", host: host).line == 2)
        #expect(try loadError("rawset(math, 'max', print)", name: "a.lua", host: host).message.contains("read-only"))
        #expect(try loadError("setmetatable(math, {})", name: "a.lua", host: host).message.contains("read-only"))
        #expect(try loadError("pairs = nil", name: "a.lua", host: host).message.contains("read-only"))
        // A rule's own globals stay its own.
        try host.load("shared = 41", chunkName: "a.lua")
        let b = try host.load("return shared, math.max(1, 2)", chunkName: "b.lua")
        #expect(b == [.nil, .integer(2)])
    }

    @Test func aCallCannotKeepStateForTheNextCall() throws {
        let host = try LuaHost()
        let module = try #require(
            try host.load(
                """
                local M = { count = 0, seen = {} }
                function M.bump() M.count = M.count + 1 return M.count end
                function M.remember(x) M.seen[#M.seen + 1] = x end
                function M.global() counter = 1 end
                return M
                """, chunkName: "state.lua"
            ).first?.tableValue)
        for name in ["bump", "remember", "global"] {
            let f = try #require(module[name].functionValue)
            do {
                _ = try host.call(f, .integer(1))
                Issue.record("\(name) changed state")
            } catch let error as LuaError {
                #expect(error.kind == .runtime)
                #expect(error.file == "state.lua")
                #expect(error.message.contains("read-only") || error.message.contains("state"))
            }
        }
    }

    @Test func pcallCannotCatchABudgetError() throws {
        let host = try LuaHost(limits: LuaLimits(instructionsPerCall: 100_000))
        let error = try callError(
            """
            return { run = function()
              for i = 1, 1000 do
                pcall(function() while true do end end)
              end
            end }
            """, host: host)
        #expect(error.kind == .instructionBudget)
        #expect(error.file == "rule.lua")
        try expectUsable(host)
    }

    @Test func gcMetamethodsAreRefused() throws {
        let host = try LuaHost()
        let error = try loadError("\nsetmetatable({}, { __gc = function() end })", host: host)
        #expect(error.kind == .runtime && error.line == 2)
        #expect(error.message.contains("__gc"))
    }

    @Test func printGoesToTheHost() throws {
        let host = try LuaHost()
        var lines: [String] = []
        host.printHandler = { lines.append($0) }
        try host.load("print('tier', 2, nil, true)", chunkName: "p.lua")
        #expect(lines == ["tier\t2\tnil\ttrue"])
    }

    /// Validation's switch: nothing reaches the handler, and the call costs the same budget.
    @Test func printCanBeSilencedAndToldWhereItWasCalled() throws {
        let host = try LuaHost()
        var lines: [String] = []
        host.printHandler = { lines.append($0) }
        host.printIsSilent = true
        try host.load("print('quiet')", chunkName: "p.lua")
        #expect(lines.isEmpty)
        host.printIsSilent = false
        var located: [String] = []
        host.positionedPrintHandler = { text, position in located.append("\(position?.file ?? "?"):\(position?.line ?? 0): \(text)") }
        try host.load("local x = 1\nprint('loud', x)", chunkName: "q.lua")
        #expect(located == ["q.lua:2: loud\t1"])
        #expect(lines.isEmpty)
    }

    @Test func mathRandomIsReproducibleFromTheHostSeed() throws {
        let a = try LuaHost(randomSeed: 42), b = try LuaHost(randomSeed: 42), c = try LuaHost(randomSeed: 7)
        let source = "local t = {} for i = 1, 5 do t[i] = math.random(1, 1000000) end return t"
        let ra = try a.load(source, chunkName: "r.lua"), rb = try b.load(source, chunkName: "r.lua")
        #expect(ra == rb)
        #expect(try c.load(source, chunkName: "r.lua") != ra)
        #expect(try loadError("math.randomseed(1)").message.contains("randomseed"))
    }
}

/// `pairs` visits keys in a fixed order, so rules give the same results in every process (Lua
/// seeds its string hashes from the clock and addresses).
@Suite struct OrderedPairsTests {
    @Test func keysComeInAFixedOrder() throws {
        let host = try LuaHost()
        let values = try host.load(
            """
            local t = { zeta = 1, alpha = 2, [10] = 3, [2] = 4, [1.5] = 5, [true] = 6, [false] = 7, mid = 8, ["Alpha"] = 9 }
            local keys = {}
            for k in pairs(t) do keys[#keys + 1] = tostring(k) end
            return table.concat(keys, " ")
            """, chunkName: "o.lua")
        #expect(values == [.string("1.5 2 10 Alpha alpha mid zeta false true")])
    }

    /// Integer keys only (sorted in C): ascending, from the most negative to the largest, as
    /// `table.sort` orders them and as `next` visits them, for sparse and dense tables alike.
    @Test func integerKeysComeInAscendingOrder() throws {
        let host = try LuaHost()
        let values = try host.load(
            """
            local t, expected, x = { [math.maxinteger] = 1, [math.mininteger] = 2, [0] = 3, [-1] = 4 }, {}, 12345
            for i = 1, 400 do x = (x * 1103515245 + 12345) % 2147483648; t[x - 1073741824] = i end
            for i = 1, 100 do t[i] = i end
            for k in pairs(t) do expected[#expected + 1] = k end
            local sorted = {}
            for i, k in ipairs(expected) do sorted[i] = k end
            table.sort(sorted)
            local byNext, k = {}, next(t)
            while k ~= nil do byNext[#byNext + 1] = k; k = next(t, k) end
            for i = 1, #sorted do
              if expected[i] ~= sorted[i] or byNext[i] ~= sorted[i] then return i, expected[i], sorted[i], byNext[i] end
            end
            return #expected, #byNext
            """, chunkName: "o.lua")
        #expect(values.count == 2 && values[0] == values[1] && (values[0].integerValue ?? 0) > 400, "\(values)")
    }

    @Test func nextFollowsTheSameFixedOrder() throws {
        // Lua's own `next` order changed from one Lua state to another: results depended on --jobs.
        let host = try LuaHost()
        let values = try host.load(
            """
            local t = { zeta = 1, alpha = 2, [10] = 3, [2] = 4, [1.5] = 5, [true] = 6, [false] = 7, mid = 8, ["Alpha"] = 9 }
            local keys, k = {}, nil
            repeat
              k = next(t, k)
              if k ~= nil then keys[#keys + 1] = tostring(k) end
            until k == nil
            local frozen = { b = 1 }
            return { order = table.concat(keys, " "), first = next({ alpha = 1, beta = 2, gamma = 3, delta = 4 }),
                     empty = next({}) == nil, frozen = frozen, sees = function() return next(frozen) end }
            """, chunkName: "n.lua")
        let result = try #require(values.first?.tableValue)
        #expect(result["order"] == .string("1.5 2 10 Alpha alpha mid zeta false true"))
        #expect(result["first"] == .string("alpha"))
        #expect(result["empty"] == .boolean(true))
        let sees = try #require(result["sees"].functionValue)
        #expect(try host.call(sees) == [.string("b"), .integer(1)])  // a frozen table's contents, not its proxy
    }

    @Test func tostringAndFormatGiveNoAddresses() throws {
        let host = try LuaHost()
        let values = try host.load(
            """
            local Named = setmetatable({}, { __name = "Point" })
            local Shown = setmetatable({}, { __tostring = function() return "shown" end })
            return table.concat({ tostring({}), tostring(print), tostring(function() end), tostring(Named), tostring(Shown),
              string.format("%s|%s|%5s|%d", {}, Shown, "x", 3), tostring(1.5), tostring(nil), tostring(true) }, " ")
            """, chunkName: "t.lua")
        #expect(values == [.string("table function function Point shown table|shown|    x|3 1.5 nil true")])
        let error = try loadError("local t = {}\nreturn string.format('%p', t)", host: host)
        #expect(error.line == 2 && error.message.contains("'%p' is not available in rules"), "\(error)")
        try expectUsable(host)
    }

    @Test func frozenRuleTablesAndOwnPairsWork() throws {
        let host = try LuaHost()
        let values = try host.load(
            """
            local M = { b = 2, a = 1, c = 3 }
            local custom = setmetatable({}, { __pairs = function(t) return function(_, k) if not k then return "only", 1 end end, t, nil end })
            return {
              f = function()
                local seen = {}
                for k, v in pairs(M) do seen[#seen + 1] = k .. v end      -- M is frozen after loading
                for k in pairs(custom) do seen[#seen + 1] = k end
                return table.concat(seen, ",")
              end
            }
            """, chunkName: "f.lua")
        let f = try #require(values.first?["f"].functionValue)
        let seen = try host.call(f)
        #expect(seen == [.string("a1,b2,c3,only")])
    }

    @Test func fieldsClearedDuringTheLoopAreSkippedAndNewOnesNotVisited() throws {
        let host = try LuaHost()
        let values = try host.load(
            """
            local t = { a = 1, b = 2, c = 3 }
            local seen = {}
            for k in pairs(t) do
              seen[#seen + 1] = k
              t.b = nil
              t.z = 26
            end
            return table.concat(seen, ",")
            """, chunkName: "m.lua")
        #expect(values == [.string("a,c")])
    }

    /// A file that extends another gets its table as `base`; both are sealed and frozen after loading.
    @Test func layersShareTheBaseTableAndFreezeIt() throws {
        let host = try LuaHost()
        let base = Array(
            "local M = { cap = 10 }\nfunction M.f(x) return math.min(x, M.cap) end\nfunction M.g() hidden = 1 end\nreturn M\n".utf8)
        let child = Array("local M = base\nM.cap = 3\nreturn M\n".utf8)
        let values = try host.load(layers: [(base, "rules/pricing.lua"), (child, "pricing.lua")])
        let table = try #require(values.first?.tableValue)
        guard case .function(let f) = table["f"], case .function(let g) = table["g"] else { Issue.record("no functions"); return }
        #expect(try host.call(f, [.integer(7)]).first == .integer(3))  // the base's function sees the change
        let error = try #require(throws: LuaError.self) { try host.call(g, []) }
        #expect(error.file == "rules/pricing.lua" && error.line == 3 && error.message.contains("cannot assign global 'hidden'"))
        let broken = try #require(throws: LuaError.self) {
            try host.load(layers: [(Array("return 1\n".utf8), "rules/x.lua"), (child, "x.lua")])
        }
        #expect(broken.file == "rules/x.lua" && broken.message.contains("must return a table"))
    }
}

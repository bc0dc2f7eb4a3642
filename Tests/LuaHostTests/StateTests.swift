@testable import LuaHost
import Testing

/// A file must not keep state in Lua between calls: a function that assigns a local of the file
/// (an upvalue of the main chunk) or `_ENV` is refused when the file loads, at the line of the
/// assignment. What a function does with its own locals, or with the locals of an enclosing
/// function other than the file, stays allowed, and so does the file's top level while it loads.
@Suite struct StateTests {
    func expectRefused(
        _ source: String, name: String = "rule.lua", line: Int, _ fragments: String...,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let host = try LuaHost()
        let error = try loadError(source, name: name, host: host, sourceLocation: sourceLocation)
        #expect(error.kind == .keepsState, "\(error)", sourceLocation: sourceLocation)
        #expect(error.file == name, "\(error)", sourceLocation: sourceLocation)
        #expect(error.line == line, "\(error)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(error.message.contains(fragment), "\(error)", sourceLocation: sourceLocation)
        }
        try expectUsable(host, sourceLocation: sourceLocation)
    }

    // MARK: Refused

    @Test func aCounterInARuleFunction() throws {
        try expectRefused(
            """
            local M = {}
            local calls = 0
            M.max_tier = 3

            function M.transition(state, check_in)
              local tier = state.current_tier
              calls = calls + 1
              return { current_tier = tier }
            end
            return M
            """, name: "rules/escalation.lua", line: 7,
            "function 'transition' assigns to 'calls', a local of the file: rules keep no state between calls (use a local inside the function)"
        )
    }

    @Test func aCounterInAPersonaDayFunction() throws {
        try expectRefused(
            """
            local n = 0
            return { description = "upvalue", commit = 0.9, answer = { yes = 1, no = 0 },
              day = function(d) n = n + 1; if n > 7 then return { commit = 0 } end; return { commit = 1 } end }
            """, name: "examples/personas/upvalue.lua", line: 3, "function 'day' assigns to 'n', a local of the file")
    }

    @Test func aNestedClosureTwoLevelsDeepAssigningALocalOfTheFile() throws {
        try expectRefused(
            """
            local seen = {}
            local last = nil
            local M = {}
            function M.run(x)
              local function remember()
                local function store()
                  last = x
                end
                store()
              end
              remember()
              return x
            end
            return M
            """, line: 7, "function 'store' assigns to 'last', a local of the file")
    }

    @Test func anAnonymousNestedFunctionIsNamedByItsLine() throws {
        try expectRefused(
            """
            local total = 0
            return { run = function(xs)
              table.sort(xs, function(a, b)
                total = total + 1
                return a < b
              end)
            end }
            """, line: 4, "the function defined at line 3 assigns to 'total', a local of the file")
    }

    @Test func aLocalFunctionAndAGlobalFunctionAreNamed() throws {
        try expectRefused(
            """
            local count = 0
            local function bump() count = count + 1 end
            return { run = function() bump() end }
            """, line: 2, "function 'bump' assigns to 'count'")
        try expectRefused(
            """
            local count = 0
            function bump()
              count = count + 1
            end
            return { run = function() bump() end }
            """, line: 3, "function 'bump' assigns to 'count'")
    }

    @Test func replacingENVInsideAFunction() throws {
        try expectRefused(
            """
            local M = {}
            function M.run()
              _ENV = { x = 1 }
              return x
            end
            return M
            """, line: 3, "function 'run' assigns to '_ENV', the environment of the file")
    }

    @Test func aFileLevelENVLocalIsAFileLocalToo() throws {
        try expectRefused(
            """
            local _ENV = { ipairs = ipairs }
            return { run = function() _ENV = {} end }
            """, line: 2, "assigns to '_ENV'")
    }

    @Test func theLineIsRightFarFromTheFunctionsFirstLine() throws {
        // Lines more than 127 apart and more than 128 instructions in: the dump's line info then
        // holds absolute entries.
        var body = "local hits = 0\nreturn { run = function(x)\n  local y = 0\n"
        for _ in 0..<150 { body += "  y = y + x * 2 - 1\n" }
        body += String(repeating: "\n", count: 300)
        body += "  hits = y\nend }\n"
        let line = body.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0 == "  hits = y" }! + 1
        try expectRefused(body, line: line, "function 'run' assigns to 'hits'")
    }

    @Test func aFileThatAnotherExtendsIsCheckedToo() throws {
        let host = try LuaHost()
        let base = Array("local n = 0\nreturn { run = function() n = n + 1 end }".utf8)
        let file = Array("local M = base\nM.k = 1\nreturn M".utf8)
        do {
            try host.load(layers: [(base, "rules/x.lua"), (file, "x.lua")])
            Issue.record("a base file keeping state loaded")
        } catch let error as LuaError {
            #expect(error.file == "rules/x.lua" && error.line == 2, "\(error)")
            #expect(error.message.contains("assigns to 'n'"), "\(error)")
        }
        try expectUsable(host)
    }

    // MARK: Refused: closures made while the file loads

    @Test func aCounterMadeByAFactoryAtLoad() throws {
        try expectRefused(
            """
            local function make_counter()
              local n = 0
              return function()
                n = n + 1
                return n
              end
            end
            local counter = make_counter()
            return { run = function() return counter() end }
            """, line: 4,
            "the function defined at line 3 assigns to 'n', a variable it keeps from the function that made it while the file loaded: rules keep no state between calls"
        )
    }

    @Test func aKeptVariableAssignedByAFunctionNestedInTheClosure() throws {
        try expectRefused(
            """
            local function make()
              local seen = false
              return function(x)
                local function mark() seen = true end
                if x then mark() end
                return seen
              end
            end
            return { run = make() }
            """, line: 4, "assigns to 'seen', a variable it keeps")
    }

    @Test func aKeptClosureReachableOnlyThroughAMetatableOrAnUpvalue() throws {
        try expectRefused(
            """
            local function make()
              local calls = 0
              return function(t, k) calls = calls + 1; return calls end
            end
            local lookups = setmetatable({}, { __index = make() })
            return { run = function() return lookups.x end }
            """, line: 3, "assigns to 'calls'")
        try expectRefused(
            """
            local function make()
              local last
              return { remember = function(x) last = x end, get = function() return last end }
            end
            local memory = make()
            local M = {}
            function M.run(x) memory.remember(x); return memory.get() end
            return M
            """, line: 3, "assigns to 'last'")
    }

    @Test func aKeptClosureInAPersonaDayFunction() throws {
        try expectRefused(
            """
            local function streak_counter()
              local days = 0
              return function(d) days = days + 1; return { commit = days < 7 and 1 or 0 } end
            end
            return { description = "factory", commit = 0.9, answer = { yes = 1, no = 0 }, day = streak_counter() }
            """, name: "examples/personas/factory.lua", line: 3, "assigns to 'days'")
    }

    @Test func aKeptClosureOfAFileThatAnotherExtends() throws {
        let host = try LuaHost()
        let base = Array(
            """
            local function make() local n = 0; return function() n = n + 1; return n end end
            return { run = make() }
            """.utf8)
        let file = Array("local M = base\nM.k = 1\nreturn M".utf8)
        do {
            try host.load(layers: [(base, "rules/x.lua"), (file, "x.lua")])
            Issue.record("a closure keeping state in a base file loaded")
        } catch let error as LuaError {
            #expect(error.kind == .keepsState && error.file == "rules/x.lua" && error.line == 1, "\(error)")
            #expect(error.message.contains("assigns to 'n', a variable it keeps"), "\(error)")
        }
        try expectUsable(host)
    }

    @Test func anIteratorMadeAtLoadIsRefused() throws {
        try expectRefused(
            """
            local M = {}
            local tick = string.gmatch(string.rep("x", 1001), "x")
            function M.transition(state, result)
              if tick() == nil and result == "NO" then result = "YES" end
              return result
            end
            return M
            """, line: 3, "the function defined at line 3 keeps 'tick': an iterator made while the file loaded")
        try expectRefused(
            """
            local step
            do local shared = { n = 0 }; step = pairs({ shared }) end
            return { run = function() local _, box = step(); box.n = box.n + 1; return box.n end }
            """, line: 3, "keeps 'step': an iterator")
        let error = try loadError(
            """
            local iterators = { string.gmatch("a,b", "[^,]+") }
            return { run = function() return iterators[1]() end }
            """)
        #expect(error.kind == .keepsState && error.file == "rule.lua", "\(error)")
        #expect(error.message.contains("a table of the file keeps an iterator"), "\(error)")
    }

    // MARK: Allowed

    @Test func whatKeepsNoStateStillLoads() throws {
        let host = try LuaHost()
        let values = try host.load(
            """
            -- the top level computes file-level locals while it loads
            local limits = {}
            local total = 0
            for i = 1, 3 do total = total + i; limits[i] = total end
            local label = "x"
            label = label .. "y"
            local _ENV = _ENV
            local M = { limits = limits, label = label }
            -- a function assigning its own locals and parameters, and reading the file's
            function M.run(x)
              local acc = 0
              for i = 1, #limits do acc = acc + limits[i] end
              x = x + acc
              -- a nested helper assigning a local of its enclosing function (not the file)
              local count = 0
              local function add(v) count = count + v end
              add(x); add(1)
              local inner = function()
                local deeper = function() count = count * 2 end
                deeper()
              end
              inner()
              local _ENV = { count = count }
              return count
            end
            return M
            """, chunkName: "ok.lua")
        let module = try #require(values.first?.tableValue)
        let run = try #require(module["run"].functionValue)
        // total = 6, limits = {1, 3, 6}: acc = 10; x = 1 + 10 = 11; count = 11 + 1 = 12, doubled: 24
        #expect(try host.call(run, .integer(1)) == [.integer(24)])
        #expect(try host.call(run, .integer(1)) == [.integer(24)])
    }

    @Test func closuresMadeAtLoadThatOnlyReadWhatTheyKeepStillLoad() throws {
        let host = try LuaHost()
        let values = try host.load(
            """
            local function scaled(factor)
              return function(x)
                local total = 0
                local function add(v) total = total + v * factor end   -- a local of the call
                add(x); add(1)
                return total
              end
            end
            local function unused_counter() local n = 0; return function() n = n + 1 end end
            local find, random, words = string.find, math.random, string.gmatch   -- library functions
            local M = { double = scaled(2), triple = scaled(3), find = find, random = random }
            function M.count(text) local n = 0; for _ in words(text, "%a+") do n = n + 1 end; return n end
            unused_counter()   -- made and dropped: nothing can call it
            return M
            """, chunkName: "ok.lua")
        let module = try #require(values.first?.tableValue)
        let double = try #require(module["double"].functionValue)
        #expect(try host.call(double, .integer(4)) == [.integer(10)])
        #expect(try host.call(double, .integer(4)) == [.integer(10)])
        let count = try #require(module["count"].functionValue)
        #expect(try host.call(count, .string("two words")) == [.integer(2)])
    }

    // MARK: The reader of the bytecode

    @Test func aTruncatedOrCorruptDumpIsAnInternalErrorNotACrash() throws {
        let host = try LuaHost()
        let dump = try host.bytecodeForTesting(
            """
            local n, t = 0, { 1.5, "two", true, false, nil, 3 }
            local function f(a, ...) local b = a; return function() b = b + n end end
            return { run = function() n = n + 1 end, f = f, t = t }
            """)
        let whole = LuaHost.checkBytecodeForTesting(dump)
        #expect(whole.verdict == 1 && whole.line == 3, "\(whole)")
        for length in 0..<dump.count {
            let cut = LuaHost.checkBytecodeForTesting(Array(dump.prefix(length)))
            #expect(cut.verdict == -1, "truncated at \(length): \(cut)")
            #expect(cut.message.hasPrefix("internal error:"))
        }
        for position in 0..<dump.count {
            for byte: UInt8 in [0x00, 0x7F, 0xFF] {
                var corrupt = dump
                corrupt[position] = byte
                _ = LuaHost.checkBytecodeForTesting(corrupt)  // any verdict, but no crash
            }
        }
        #expect(LuaHost.checkBytecodeForTesting(dump + [0]).verdict == -1)
    }
}

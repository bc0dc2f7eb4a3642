import LuaHost
import Testing

/// Runaway rules end in a typed error with file and line, never a crash or a hang, and the runtime
/// stays usable afterwards.
@Suite struct BudgetTests {
    @Test func anInfiniteLoopRunsOutOfInstructions() throws {
        let host = try LuaHost(limits: LuaLimits(instructionsPerCall: 1_000_000))
        let error = try callError(
            """
            return { run = function()
              local n = 0
              while true do
                n = n + 1
              end
            end }
            """, name: "loop.lua", host: host)
        #expect(error.kind == .instructionBudget)
        #expect(error.file == "loop.lua")
        #expect((3...4).contains(error.line ?? 0))
        #expect(error.message.contains("instruction budget"))
        try expectUsable(host)
    }

    @Test func anInfiniteLoopAtLoadTimeRunsOutOfInstructions() throws {
        let host = try LuaHost(limits: LuaLimits(instructionsPerLoad: 500_000))
        let error = try loadError("\nrepeat until false", name: "top.lua", host: host)
        #expect(error.kind == .instructionBudget)
        #expect(error.file == "top.lua" && error.line == 2)
        try expectUsable(host)
    }

    /// With no instruction budget the hook still runs, for the memory ceiling's position.
    @Test(arguments: [0, 100_000_000])
    func aGrowingTableHitsTheMemoryCeiling(instructionsPerCall: Int) throws {
        let host = try LuaHost(limits: LuaLimits(instructionsPerCall: instructionsPerCall, memoryBytes: 8 << 20))
        let error = try callError(
            """
            return { run = function()
              local t = {}
              for i = 1, 1e9 do
                t[i] = { i, i, i }
              end
            end }
            """, name: "bomb.lua", host: host)
        #expect(error.kind == .memory)
        #expect(error.file == "bomb.lua" && (3...4).contains(error.line ?? 0))
        try expectUsable(host)
        #expect(host.memoryInUse < 8 << 20)
    }

    @Test func stringRepBombsAreRefusedBeforeAllocating() throws {
        let host = try LuaHost(limits: LuaLimits(memoryBytes: 16 << 20))
        let error = try loadError("local x = 1\nlocal s = string.rep('x', 1 << 40)", name: "rep.lua", host: host)
        #expect(error.kind == .memory)
        #expect(error.file == "rep.lua" && error.line == 2)
        #expect(error.message.contains("string.rep"))
        try expectUsable(host)
    }

    @Test func doublingAStringHitsTheMemoryCeiling() throws {
        let host = try LuaHost(limits: LuaLimits(memoryBytes: 16 << 20))
        let error = try callError(
            """
            return { run = function()
              local s = "xxxxxxxx"
              while true do
                s = s .. s
              end
            end }
            """, host: host)
        #expect(error.kind == .memory)
        #expect(error.file == "rule.lua")
        #expect(error.line != nil)
        try expectUsable(host)
    }

    @Test func tableConcatBombsAreRefused() throws {
        let host = try LuaHost(limits: LuaLimits(memoryBytes: 16 << 20))
        let error = try loadError(
            """
            local s = string.rep("x", 1 << 20)
            local t = {}
            for i = 1, 100 do t[i] = s end
            return table.concat(t)
            """, host: host)
        #expect(error.kind == .memory)
        #expect(error.line == 4)
        try expectUsable(host)
    }

    @Test(arguments: [
        #"return string.rep("a", 30000):find(".-.-.-.-b")"#,
        #"return string.rep("a", 30000):match("(a*)*b")"#,
        #"return string.rep("a", 5000):gsub("a*a*a*a*a*b", "")"#,
        #"for w in string.rep("a", 20000):gmatch(".-.-.-x") do end"#,
        #"return string.rep("(", 10000):find(string.rep("%b()", 40))"#,
        #"return string.rep("ab", 1500):find("(.-)%1%1x")"#,
    ])
    func patternBombsAreRefused(_ snippet: String) throws {
        let host = try LuaHost()
        let error = try loadError("-- a pattern bomb\n" + snippet, name: "pattern.lua", host: host)
        #expect(error.kind == .instructionBudget)
        #expect(error.file == "pattern.lua" && error.line == 2)
        #expect(error.message.contains("pattern"))
        try expectUsable(host)
    }

    @Test func ordinaryPatternsStillWork() throws {
        let host = try LuaHost()
        let values = try host.load(
            """
            local h, m = ("21:30"):match("^(%d%d):(%d%d)$")
            local words = {}
            for w in ("a bb  ccc"):gmatch("%a+") do words[#words + 1] = w end
            local s = string.rep("word ", 2000):gsub("%s+", "_")
            return tonumber(h) * 60 + tonumber(m), #words, #s, ("x=1"):find("=", 1, true)
            """, chunkName: "ok.lua")
        #expect(values == [.integer(1290), .integer(3), .integer(10000), .integer(2), .integer(2)])
    }

    @Test func deepRecursionIsAStackOverflowError() throws {
        let host = try LuaHost(limits: LuaLimits(instructionsPerCall: 50_000_000))
        let error = try callError(
            """
            local function down(n) return 1 + down(n + 1) end
            return { run = function() return down(1) end }
            """, name: "deep.lua", host: host)
        #expect(error.kind == .runtime || error.kind == .memory)
        #expect(error.file == "deep.lua" && error.line == 1)
        #expect(error.message.contains("stack overflow") || error.message.contains("memory"))
        try expectUsable(host)
    }

    /// Reaching Lua's stack limit counts a few hundred thousand instructions but takes a tenth of a
    /// second: a stack overflow is charged as 20 million, so a rule cannot catch one after another.
    /// The stack and call frames a deep recursion allocates are charged too: the budget may run out
    /// in the recursion (line 1) before the overflow is caught (line 3); either way it ends the call.
    @Test func stackOverflowsCaughtByPcallUseUpTheBudget() throws {
        let host = try LuaHost()
        let error = try callError(
            """
            local function down(n) return 1 + down(n + 1) end
            return { run = function()
              for i = 1, 1000 do pcall(down, 1) end
            end }
            """, name: "again.lua", host: host)
        #expect(error.kind == .instructionBudget, "\(error)")
        #expect(error.file == "again.lua" && [1, 3].contains(error.line), "\(error)")
        #expect(error.message.contains("instruction budget exceeded"), "\(error)")
        try expectUsable(host)
    }

    /// The traceback of a deep stack shows its first levels only: finding the last ones walks the
    /// whole stack dozens of times.
    @Test func aDeepStacksTracebackIsShort() throws {
        let host = try LuaHost()
        let error = try callError(
            """
            local function down(n) if n == 5000 then error("deep enough") end return 1 + down(n + 1) end
            return { run = function() return down(1) end }
            """, name: "tb.lua", host: host)
        #expect(error.message == "deep enough", "\(error)")
        let traceback = try #require(error.traceback)
        #expect(traceback.contains("(deeper levels left out)"), "\(traceback)")
        #expect(traceback.split(separator: "\n").count <= 15, "\(traceback)")
        #expect(traceback.contains("tb.lua:1: in "), "\(traceback)")
    }

    @Test func deepRecursionThroughMetamethodsIsAnError() throws {
        let host = try LuaHost()
        let error = try loadError(
            """
            local t = setmetatable({}, {})
            getmetatable(t).__index = function(self, k) return self[k] end
            return t.x
            """, name: "meta.lua", host: host)
        #expect(error.kind == .runtime || error.kind == .memory)
        #expect(error.file == "meta.lua")
        try expectUsable(host)
    }

    @Test(arguments: [
        "return { table.unpack({}, 1, 1e8) }",
        "return ('x'):find('[a')",
        "return { string.byte(string.rep('x', 3000000), 1, -1) }",
        "local t = {} for i = 1, 3e6 do t[i] = i end return { table.unpack(t) }",
    ])
    func hugeTableConstructorsAreErrors(_ snippet: String) throws {
        let host = try LuaHost(limits: LuaLimits(memoryBytes: 32 << 20))
        let error = try loadError("\n" + snippet, name: "huge.lua", host: host)
        #expect(error.kind == .runtime || error.kind == .memory)
        #expect(error.file == "huge.lua" && error.line == 2)
        try expectUsable(host)
    }

    @Test func anOversizedFileIsRefused() throws {
        let host = try LuaHost(limits: LuaLimits(maxSourceBytes: 1000))
        let error = try loadError(String(repeating: "-- padding\n", count: 200), name: "big.lua", host: host)
        #expect(error.kind == .syntax && error.file == "big.lua")
        #expect(error.message.contains("more than the 1000 allowed"))
    }

    @Test func budgetsAreConfigurable() throws {
        let host = try LuaHost(limits: LuaLimits(instructionsPerCall: 1_000))
        let module = try #require(
            try host.load(
                """
                return { run = function(n) local s = 0 for i = 1, n do s = s + i end return s end }
                """, chunkName: "sum.lua"
            ).first?.tableValue)
        let run = try #require(module["run"].functionValue)
        #expect(try host.call(run, .integer(10)) == [.integer(55)])
        #expect(throws: LuaError.self) { try host.call(run, .integer(100_000)) }
        #expect(try host.call(run, .integer(10)) == [.integer(55)])
    }
}

@Suite struct ConversionLimitTests {
    // Converting 2^40 paths would never end: the limit is a guard against that hang, not a timing.
    // Alone the test takes about a second; on a busy 2-core machine running the whole suite it once
    // waited past a one-minute limit, hence ten.
    @Test(.timeLimit(.minutes(10)))
    func aTableThatSharesSubtablesCannotExplodeTheConversion() throws {
        let host = try LuaHost()
        let error = try loadError("local t = {} for i = 1, 40 do t = { t, t } end return t", name: "dag.lua", host: host)
        #expect(error.kind == .decoding)
        #expect(error.message.contains("too large to convert"))
        #expect(error.file == "dag.lua")
        try expectUsable(host)
    }

    @Test func aCycleIsAnErrorNotAHang() throws {
        let host = try LuaHost()
        let error = try loadError("local t = {} t.self = t return t", name: "cycle.lua", host: host)
        #expect(error.kind == .decoding)
        #expect(error.description == "cycle.lua: self: a cycle: the top-level table contains itself here")
    }

    @Test func aCycleIsNamedAtTheFieldThatClosesIt() throws {
        let host = try LuaHost()
        let error = try loadError(
            "local t = { a = 1, knobs = { list = {} } }\nt.knobs.list[1] = t.knobs\nreturn t", name: "cycle.lua", host: host)
        #expect(error.path == "knobs.list[1]")
        #expect(error.description == "cycle.lua: knobs.list[1]: a cycle: the table knobs contains itself here")
        try expectUsable(host)
    }

    @Test func deepNestingIsNotCalledACycle() throws {
        let host = try LuaHost()
        let built = try loadError("local t = {} for i = 1, 300 do t = { next = t } end return { deep = t }", name: "deep.lua", host: host)
        #expect(built.description == "deep.lua: deep.next.next…: tables are nested more than 64 levels deep")
        // Just past the limit, the path is shown whole.
        let tight = try LuaHost(limits: LuaLimits(maxTableDepth: 2))
        let shallow = try loadError("return { a = { { 1 } } }", name: "deep.lua", host: tight)
        #expect(shallow.description == "deep.lua: a[1]: tables are nested more than 2 levels deep")
        try expectUsable(host)
    }

    @Test func aLiteralNestedPastWhatLuaParsesNamesItsLine() throws {
        let source =
            "local M = {}\nM.ok = 1\nM.deep = " + String(repeating: "{", count: 300) + String(repeating: "}", count: 300) + "\nreturn M"
        let error = try loadError(source, name: "deep.lua")
        #expect(error.kind == .syntax)
        #expect(error.description == "deep.lua:3: tables or blocks are nested more than about 200 levels deep (C stack overflow)")
    }

    @Test func textThatIsNotUTF8IsQuotedAtItsField() throws {
        let error = try loadError(#"return { costs = { { minutes = 5, label = "é\xff\xfe" } } }"#, name: "text.lua")
        #expect(error.kind == .decoding)
        #expect(error.description == #"text.lua: costs[1].label: expected UTF-8 text, found string "é\xFF\xFE""#)
        let key = try loadError(#"return { names = { ["\xff"] = 1 } }"#, name: "text.lua")
        #expect(key.description == #"text.lua: names[?]: expected UTF-8 text, found string "\xFF""#)
    }

    @Test func aRuleFunctionsBadResultNamesTheFunctionAndTheField() throws {
        let host = try LuaHost()
        let cycle = try callError(
            """
            return {
              run = function()
                local t = { list = {} }
                t.list[1] = t
                return t
              end,
            }
            """, name: "rule.lua", host: host)
        #expect(
            cycle.description
                == "rule.lua:2: list[1]: in the table returned by the function at line 2: a cycle: the top-level table contains itself here"
        )
        let text = try callError("return {\n  run = function() return \"\\xff\" end,\n}", name: "rule.lua", host: host)
        #expect(
            text.description == #"rule.lua:2: in the value returned by the function at line 2: expected UTF-8 text, found string "\xFF""#)
        try expectUsable(host)
    }
}

/// C library calls do not run the hook; they are charged by the size of what they work on.
@Suite struct MeteredLibraryTests {
    @Test(arguments: [
        "local s = string.rep(string.rep('x', 1 << 12), 1 << 12)\nfor i = 1, 1e6 do local u = s:upper() end",
        "local t = {} for i = 1, 2e5 do t[i] = i end\nfor i = 1, 1e6 do table.insert(t, 1, i) end",
        "local s = string.rep(string.rep('é', 1 << 10), 1 << 12)\nfor i = 1, 1e6 do local n = utf8.len(s) end",
        "local s = string.rep(string.rep('ab', 1 << 10), 1 << 12)\nfor i = 1, 1e6 do local r = s:reverse() end",
    ])
    func bigDataInAShortLoopRunsOutOfBudget(_ snippet: String) throws {
        // Building the data (line 1) allocates some 40 MB, charged one instruction per 16 bytes.
        let host = try LuaHost(limits: LuaLimits(instructionsPerCall: 2_000_000, instructionsPerLoad: 10_000_000, memoryBytes: 256 << 20))
        let error = try loadError(snippet, name: "c.lua", host: host)
        #expect(error.kind == .instructionBudget, "\(error)")
        #expect(error.file == "c.lua" && error.line == 2, "\(error)")
        try expectUsable(host)
    }

    @Test func smallCallsCostNothingExtra() throws {
        let host = try LuaHost(limits: LuaLimits(instructionsPerLoad: 100_000))
        let values = try host.load("local n = 0 for i = 1, 1000 do n = n + #(('ab'):rep(10):upper()) end return n", chunkName: "s.lua")
        #expect(values == [.integer(20_000)])
        #expect(try host.load("return type(utf8.charpattern), utf8.len('héllo')", chunkName: "u.lua") == [.string("string"), .integer(5)])
    }
}

/// Library calls that do much work on little data are charged for the work, not the data.
@Suite struct LibraryWorkTests {
    @Test func repeatingNothingIsImmediate() throws {
        let host = try LuaHost(limits: LuaLimits(instructionsPerLoad: 100_000))
        let values = try host.load(
            """
            return string.rep("", math.maxinteger), string.rep("", math.maxinteger, ""),
              string.rep("ab", 3, ""), string.rep("", 3, ","), string.rep("x", 0)
            """, chunkName: "rep.lua")
        #expect(values == [.string(""), .string(""), .string("ababab"), .string(",,"), .string("")])
    }

    @Test func tableMoveIsChargedByTheElementsItMoves() throws {
        let host = try LuaHost()
        let error = try callError(
            """
            return { run = function()
              return table.move({}, 1, math.maxinteger - 1, 1)
            end }
            """, name: "move.lua", host: host)
        #expect(error.kind == .instructionBudget)
        #expect(error.file == "move.lua" && error.line == 2)
        try expectUsable(host)
        #expect(
            try host.load("local t = table.move({1, 2, 3}, 1, 3, 2) return #t, t[1], t[4]", chunkName: "m.lua")
                == [.integer(4), .integer(1), .integer(3)])
    }

    @Test func tableUnpackIsChargedByTheValuesItReturns() throws {
        let host = try LuaHost(limits: LuaLimits(instructionsPerLoad: 2_000_000))
        let error = try loadError(
            "local n = 0\nfor i = 1, 1000 do n = n + select('#', table.unpack({}, 1, 999000)) end",
            name: "unpack.lua", host: host)
        #expect(error.kind == .instructionBudget)
        #expect(error.file == "unpack.lua" && error.line == 2)
        try expectUsable(host)
        #expect(try host.load("return table.unpack({1, 2, 3}, 2)", chunkName: "u.lua") == [.integer(2), .integer(3)])
    }

    /// Sorting compares about n log2 n pairs in C, which the size of the table (n / 8) did not cover:
    /// `table.sort` and `pairs` (which sorts the keys) are charged by their comparisons.
    @Test(arguments: ["table.sort(t)", "for _ in pairs(t) do end", "for _ in pairs(t) do break end"])
    func sortingIsChargedByTheComparisons(_ statement: String) throws {
        let host = try LuaHost(limits: LuaLimits(instructionsPerLoad: 3_000_000))
        let error = try loadError("local t = {}\nfor i = 1, 200000 do t[i] = -i end\n" + statement, name: "sort.lua", host: host)
        #expect(error.kind == .instructionBudget, "\(error)")
        #expect(error.file == "sort.lua" && error.line == 3, "\(error)")
        try expectUsable(host)
        #expect(
            try host.load(
                "local t = {3, 1, 2} table.sort(t) local keys = {} for k in pairs({b = 1, a = 2}) do keys[#keys + 1] = k end "
                    + "return t[1], t[3], keys[1]", chunkName: "s.lua") == [.integer(1), .integer(3), .string("a")])
    }

    /// Every function a file keeps is dumped once more at load, to check that it keeps no state:
    /// charged to the load's budget, so that thousands of closures of one huge function are refused
    /// rather than loaded for seconds.
    @Test func keptClosuresAreChargedToTheLoad() throws {
        let body = String(repeating: "x = x + 1\n", count: 1000)
        let host = try LuaHost(limits: LuaLimits(instructionsPerLoad: 1_000_000))
        let error = try loadError(
            "local t = {}\nfor i = 1, 2000 do t[i] = function() local x = 0\n\(body) return x end end\nreturn { fs = t }",
            name: "many.lua", host: host)
        #expect(error.kind == .instructionBudget, "\(error)")
        try expectUsable(host)
        let few = try host.load(
            "local t = {}\nfor i = 1, 20 do t[i] = function() local x = 0\n\(body) return x end end\nreturn { fs = t }",
            chunkName: "few.lua")
        #expect(few.count == 1)
    }

    /// The budget error is raised inside the count hook, where no hook fires: xpcall's handler must
    /// not run there, nor turn the error into something else.
    @Test(arguments: [
        "xpcall(function() while true do end end, function() while true do end end)",
        "local ok, m = xpcall(function() while true do end end, function(m) return 'fine' end)\nerror(m)",
        "xpcall(function() error('x') end, function() while true do end end)",
    ])
    func xpcallHandlersCannotOutliveTheBudget(_ snippet: String) throws {
        let host = try LuaHost(limits: LuaLimits(instructionsPerLoad: 1_000_000))
        let error = try loadError("-- handlers\n" + snippet, name: "x.lua", host: host)
        #expect(error.kind == .instructionBudget, "\(error)")
        #expect(error.file == "x.lua" && error.line == 2, "\(error)")
        try expectUsable(host)
    }

    @Test func xpcallHandlersCannotOutliveTheBudgetInARule() throws {
        let host = try LuaHost(limits: LuaLimits(instructionsPerCall: 1_000_000))
        let error = try callError(
            """
            return { run = function()
              return xpcall(function() error("x") end, function() while true do end end)
            end }
            """, name: "xr.lua", host: host)
        #expect(error.kind == .instructionBudget)
        #expect(error.file == "xr.lua" && error.line == 2)
        try expectUsable(host)
    }

    @Test func xpcallHandlersCannotHideTheMemoryCeiling() throws {
        let host = try LuaHost(limits: LuaLimits(memoryBytes: 8 << 20))
        let error = try loadError(
            """
            local ok, m = xpcall(function()
              local t = {} for i = 1, 1e9 do t[i] = { i } end
            end, function(m) return "swallowed" end)
            error(m)
            """, name: "xm.lua", host: host)
        #expect(error.kind == .memory)
        #expect(error.file == "xm.lua" && error.line == 2)
        try expectUsable(host)
    }

    @Test func xpcallStillHandlesOrdinaryErrors() throws {
        let host = try LuaHost()
        let values = try host.load(
            """
            return xpcall(function() error("x", 0) end, function(m) return "handled " .. m end)
            """, chunkName: "xo.lua")
        #expect(values == [.boolean(false), .string("handled x")])
        #expect(
            try host.load("return xpcall(function(a, b) return a + b end, print, 1, 2)", chunkName: "xs.lua")
                == [.boolean(true), .integer(3)])
    }

    @Test(arguments: [", 1, true", ""])
    func plainFindIsChargedForItsComparisons(_ flags: String) throws {
        let host = try LuaHost(limits: LuaLimits(maxPatternBytes: 1 << 20))
        let error = try loadError(
            """
            local s = string.rep("a", 1 << 20); local p = string.rep("a", 1 << 19) .. "b"
            for i = 1, 3 do s:find(p\(flags)) end
            """, name: "find.lua", host: host)
        #expect(error.kind == .instructionBudget, "\(error)")
        #expect(error.file == "find.lua" && error.line == 2, "\(error)")
        #expect(error.message.contains("instruction budget"))
        try expectUsable(host)
    }

    @Test func plainFindStopsAtThePatternStepLimitWithoutABudget() throws {
        let host = try LuaHost(limits: LuaLimits(instructionsPerLoad: 0))
        let error = try loadError(
            """
            local s = string.rep("a", 1 << 20); local p = string.rep("a", 1 << 19) .. "b"
            return s:find(p, 1, true)
            """, name: "find.lua", host: host)
        #expect(error.kind == .instructionBudget, "\(error)")
        #expect(error.file == "find.lua" && error.line == 2)
        #expect(error.message.contains("plain search"))
        try expectUsable(host)
    }

    @Test func plainFindKeepsLuasResults() throws {
        let host = try LuaHost()
        let values = try host.load(
            """
            local s = "hello"
            local function f(...) return table.pack(...) end
            local r = { f(s:find("l", -2, true)), f(s:find("", 10, true)), f(s:find("", 6, true)),
              f(s:find("lo", 1, true)), f(s:find("lox", 1, true)), f(("a.b"):find(".", 1, true)),
              f(("a.b"):find("b")), f(s:find("l", 4)), f(s:find("hello!", 1, true)), f(s:find("o", -100, true)),
              f(("a\\0b"):find("\\0b", 1, true)), f(s:find("", 0, true)) }
            local out = {}
            for _, t in ipairs(r) do out[#out + 1] = tostring(t[1]) .. "," .. tostring(t[2]) end
            return table.concat(out, " ")
            """, chunkName: "f.lua")
        #expect(values == [.string("4,4 nil,nil 6,5 4,5 nil,nil 2,2 3,3 4,4 nil,nil 5,5 2,3 1,0")])
    }

    @Test func printIsChargedAndCapped() throws {
        let host = try LuaHost()
        var lines: [String] = []
        host.printHandler = { lines.append($0) }
        let error = try loadError(
            """
            local big = string.rep("x", 8e6)
            for i = 1, 200 do print(big) end
            """, name: "print.lua", host: host)
        #expect(error.kind == .instructionBudget)
        #expect(error.file == "print.lua" && error.line == 2)
        #expect(!lines.isEmpty && lines.count < 200)
        #expect(lines.allSatisfy { $0 == String(repeating: "x", count: 4096) + "… (8000000 bytes)" })
        try expectUsable(host)
        lines = []
        try host.load("print(string.rep('€', 2000))\nprint('a', string.rep('b', 5000))", chunkName: "p.lua")
        #expect(
            lines == [
                String(repeating: "€", count: 1365) + "… (6000 bytes)",
                "a\t" + String(repeating: "b", count: 4094) + "… (5002 bytes)",
            ])
    }

    @Test(arguments: [
        #"return (string.rep("a", 100000) .. "b"):find("a*$")"#,
        #"return (string.rep("a", 100000) .. "b"):match("a-$")"#,
        #"for w in (string.rep("a", 100000) .. "b"):gmatch("[%a]+$") do end"#,
        #"return (string.rep("1", 100000) .. "x"):find("%d+:")"#,
    ])
    func greedyRunsBeforeAFailingEndAreRefused(_ snippet: String) throws {
        let host = try LuaHost()
        let error = try loadError("-- a slow pattern\n" + snippet, name: "end.lua", host: host)
        #expect(error.kind == .instructionBudget, "\(error)")
        #expect(error.file == "end.lua" && error.line == 2)
        #expect(error.message.contains("pattern"))
        try expectUsable(host)
    }

    @Test func ordinaryPatternsOnAFewKilobytesStillWork() throws {
        let host = try LuaHost()
        let values = try host.load(
            """
            local h, m = (string.rep("1", 3000) .. ":" .. string.rep("2", 3000)):match("^(%d+):(%d+)$")
            local csv = string.rep("alpha,beta,,gamma delta,", 250)
            local fields = 0
            for f in csv:gmatch("[^,]+") do fields = fields + 1 end
            local squeezed, spaces = string.rep("a  b\\t\\n", 1000):gsub("%s+", " ")
            return #h + #m, fields, #squeezed, spaces
            """, chunkName: "ok.lua")
        #expect(values == [.integer(6000), .integer(750), .integer(4000), .integer(2000)])
    }
}

/// What a call costs besides its instructions — the memory it allocates, the C library's work, the
/// host's conversion of its result — is charged to its budget, so that no call (and no validation,
/// which makes thousands) costs seconds while counting few instructions.
@Suite struct HiddenCostTests {
    @Test(arguments: [
        "local t = {} for i = 1, 1e5 do t = { t } end",  // a deep table
        "local t = {} for i = 1, 1.5e5 do t[i] = {} end",  // many small tables
        "local s = string.rep('x', 8e6)",  // a big string
        "local s = '' for i = 1, 1000 do s = s .. string.format('%99d', i) end",  // format widths, concatenation
        "local s = string.rep('ab', 1000):rep(1000):gsub('a', 'bb')",  // gsub over a big subject
        "local t = {} for i = 1, 1e5 do t[i] = 'a' end local s = table.concat(t)",  // concat of many elements
        "local s = string.format('%q', string.rep('\\0', 200000))",  // %q escaping
        "local s = string.rep('é', 1000) local n = 0 for i = 1, 4000 do n = n + utf8.len(s) end",  // scans in C
        "local n = 0 for i = 1, 1e5 do n = n + #string.format('%%d') end",  // many library calls
    ])
    func aCallWhoseHiddenCostIsOverTheBudgetIsStoppedAtItsLine(_ snippet: String) throws {
        let host = try LuaHost()
        let error = try callError("return { run = function()\n  \(snippet)\nend }", name: "cost.lua", host: host)
        #expect(error.kind == .instructionBudget, "\(error)")
        #expect(error.file == "cost.lua" && error.line == 2, "\(error)")
        try expectUsable(host)
    }

    @Test func aLargeResultIsChargedForItsConversion() throws {
        let host = try LuaHost()
        let error = try callError(
            """
            return { run = function()
              local t = {} for i = 1, 10000 do t[i] = i end
              return t
            end }
            """, name: "big.lua", host: host)
        #expect(error.kind == .instructionBudget, "\(error)")
        #expect(error.file == "big.lua" && error.line == 1, "\(error)")
        #expect(error.message.contains("return a smaller table"), "\(error)")
        try expectUsable(host)
    }

    @Test func ordinaryCallsStayFarBelowTheBudget() throws {
        let host = try LuaHost(limits: LuaLimits(instructionsPerCall: 20_000))
        let module = try #require(
            try host.load(
                """
                return { run = function(n)
                  local t = {}
                  for i = 1, n do t[#t + 1] = string.format("%02d:%02d", i // 60, i % 60) end
                  table.sort(t)
                  return { count = #t, text = table.concat(t, ","):upper():sub(1, 5) }
                end }
                """, chunkName: "ok.lua"
            ).first?.tableValue)
        let run = try #require(module["run"].functionValue)
        let result = try host.call(run, .integer(20)).first?.tableValue
        #expect(result?["count"] == .integer(20))
        #expect(result?["text"] == .string("00:01"))
    }
}

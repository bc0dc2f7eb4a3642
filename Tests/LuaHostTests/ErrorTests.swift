import LuaHost
import Testing

@Suite struct ErrorTests {
    @Test func aSyntaxErrorNamesFileAndLine() throws {
        let host = try LuaHost()
        let error = try loadError("local tiers = {\n  1, 2,\n  3 4\n}", name: "rules/escalation.lua", host: host)
        #expect(error.kind == .syntax)
        #expect(error.file == "rules/escalation.lua")
        #expect(error.line == 3)
        #expect(error.message.contains("'}' expected"))
        #expect(error.description.hasPrefix("rules/escalation.lua:3: "))
        try expectUsable(host)
    }

    @Test func aRuntimeErrorNamesFileLineAndHasATraceback() throws {
        let host = try LuaHost()
        let error = try callError(
            """
            local function threshold(state)
              return state.misses + 1
            end
            return { run = function() local r = threshold({}) return r end }
            """, name: "escalation.lua", host: host)
        #expect(error.kind == .runtime)
        #expect(error.file == "escalation.lua" && error.line == 2)
        #expect(error.message.contains("arithmetic on a nil value (field 'misses')"))
        #expect(error.traceback?.contains("escalation.lua:4") == true)
        #expect(error.description == "escalation.lua:2: attempt to perform arithmetic on a nil value (field 'misses')")
        try expectUsable(host)
    }

    /// Lua cuts a chunk name longer than 60 bytes from the left in its messages (`...`): the
    /// errors, the budget's and the functions' sources name the file whole.
    @Test func aLongChunkNameIsGivenWhole() throws {
        let name = "/home/someone/projects/simulations/a-long-folder-name/personas/broken.lua"
        let host = try LuaHost()
        let error = try callError(
            """
            return { run = function()
              local t = nil
              return t.x
            end }
            """, name: name, host: host)
        #expect(error.file == name && error.line == 3, "\(error)")
        #expect(error.description.hasPrefix(name + ":3: "), "\(error)")
        let budget = try callError("return { run = function() while true do end end }", name: name + "2", host: host)
        #expect(budget.file == name + "2", "\(budget)")
        let module = try #require(try host.load("return { f = function() end }", chunkName: name + "3").first?.tableValue)
        #expect(module["f"].functionValue?.source == name + "3")
        try expectUsable(host)
    }

    @Test func errorWithATableValueIsDescribedAtItsLine() throws {
        let error = try loadError("local x = 1\nerror({ code = 1 })", name: "e.lua")
        #expect(error.kind == .runtime)
        #expect(error.file == "e.lua" && error.line == 2, "\(error)")
        #expect(error.message == "(error object is a table value)")
        let shown = try callError(
            """
            local Failure = { __tostring = function(f) return "failure " .. f.code end }
            return { run = function()
              error(setmetatable({ code = 7 }, Failure))
            end }
            """, name: "f.lua")
        #expect(shown.file == "f.lua" && shown.line == 3 && shown.message == "failure 7", "\(shown)")
    }

    @Test func errorWithLevelZeroHasNoPosition() throws {
        let error = try loadError("error('plain', 0)", name: "e.lua")
        #expect(error.kind == .runtime)
        #expect(error.file == "e.lua" && error.line == nil)
        #expect(error.message == "plain")
    }
}

@testable import LuaHost
import Testing

/// Classes and metatables a file defines are frozen like its other tables: their fields are
/// read-only after loading, so a class cannot carry state from one call to the next, and yet
/// `setmetatable(obj, Class)`, methods, inheritance, metamethods and `getmetatable(obj) == Class`
/// keep working.
@Suite struct ClassTests {
    static let classes = """
        local Animal = {}
        Animal.__index = Animal
        Animal.count = 0
        function Animal.new(name) return setmetatable({ name = name }, Animal) end
        function Animal:speak() return self.name .. " makes a sound" end
        Animal.__tostring = function(a) return "Animal(" .. a.name .. ")" end
        Animal.__eq = function(a, b) return a.name == b.name end
        Animal.__lt = function(a, b) return a.name < b.name end
        local Dog = setmetatable({}, { __index = Animal })
        Dog.__index = Dog
        Dog.__tostring = Animal.__tostring
        function Dog.new(name) return setmetatable({ name = name }, Dog) end
        function Dog:speak() return self.name .. " barks" end
        local Point = setmetatable({}, { __call = function(_, x, y) return { x = x, y = y } end })
        local rex = Dog.new("rex")          -- an object made while the file loads
        local M = {}                         -- (a class cannot be returned: its __index is a cycle)
        function M.run()
          local d, a = Dog.new("fido"), Animal.new("fido")
          d.age = 3                          -- an object made by the call is the call's own
          return table.concat({ d:speak(), a:speak(), tostring(d), tostring(a == Animal.new("fido")),
            tostring(Animal.new("a") < Animal.new("b")), tostring(getmetatable(d) == Dog),
            rex:speak(), tostring(rex), tostring(Point(1, 2).y), tostring(d.age), tostring(Animal.count) }, "|")
        end
        function M.count() Animal.count = Animal.count + 1; return Animal.count end
        function M.through_object() local d = Dog.new("x"); getmetatable(d).count = 1 end
        function M.method() Dog.speak = function() return "changed" end end
        function M.change_class() local d = Dog.new("x"); setmetatable(d, Animal); return d:speak() end
        return M
        """

    func module(_ host: LuaHost) throws -> LuaTable {
        let value = try #require(try host.load(Self.classes, chunkName: "classes.lua").first?.tableValue)
        return value
    }

    @Test func classesStillWorkAfterLoading() throws {
        let host = try LuaHost()
        let run = try #require(try module(host)["run"].functionValue)
        let expected = "fido barks|fido makes a sound|Animal(fido)|true|true|true|rex barks|Animal(rex)|2|3|0"
        #expect(try host.call(run) == [.string(expected)])
        #expect(try host.call(run) == [.string(expected)])
    }

    @Test func aClassFieldIsReadOnly() throws {
        let host = try LuaHost()
        let functions = try module(host)
        for (name, line) in [("count", 24), ("through_object", 25), ("method", 26)] {
            let function = try #require(functions[name].functionValue)
            do {
                _ = try host.call(function)
                Issue.record("\(name) changed a class")
            } catch let error as LuaError {
                #expect(error.file == "classes.lua" && error.line == line, "\(name): \(error)")
                #expect(error.message.contains("read-only"), "\(name): \(error)")
            }
        }
        let run = try #require(functions["run"].functionValue)
        #expect(try host.call(run).first?.stringValue?.hasSuffix("|0") == true)
    }

    @Test func anObjectCanChangeClass() throws {
        let host = try LuaHost()
        let change = try #require(try module(host)["change_class"].functionValue)
        #expect(try host.call(change) == [.string("x makes a sound")])
    }

    @Test func aFrozenClassCannotSmuggleAFinalizer() throws {
        let error = try callError(
            """
            local Class = { __index = function() return 0 end, __gc = function() end }
            return { run = function() return setmetatable({}, Class) end }
            """)
        #expect(error.line == 2 && error.message.contains("__gc metamethods are not allowed"), "\(error)")
    }

    @Test func aMetatableTheRuleProtectsStaysProtected() throws {
        let host = try LuaHost()
        let values = try host.load(
            """
            local Locked = { __index = function() return 1 end, __metatable = "locked" }
            return { run = function()
              local t = setmetatable({}, Locked)
              assert(getmetatable(t) == "locked" and t.anything == 1)
              setmetatable(t, {})
            end }
            """, chunkName: "locked.lua")
        let run = try #require(values.first?.tableValue?["run"].functionValue)
        do {
            _ = try host.call(run)
            Issue.record("a protected metatable changed")
        } catch let error as LuaError {
            #expect(error.line == 5 && error.message.contains("cannot change a protected metatable"), "\(error)")
        }
        try expectUsable(host)
    }
}

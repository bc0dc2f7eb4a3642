import LuaHost
import Testing

/// The lists of one-field records the host keeps between calls (`call(_:records:field:)`, MIGA's
/// days): only the records whose value changed are written again, unless a rule wrote into a kept
/// table, which it may (as into any argument) without the next call seeing it.
@Suite struct KeptListTests {
    static let source = """
        local M = {}
        function M.sum(days) local n = 0 for _, d in ipairs(days) do n = n * 10 + d.exits end return n end
        function M.first_raw(days) return rawget(days, 1).exits * 1000 + rawlen(days) * 100 + rawget(rawget(days, 2), "exits") end
        function M.length(days) return #days end
        function M.sorts(days) table.sort(days, function(a, b) return a.exits > b.exits end) return days[1].exits end
        function M.sets(days) days[1].exits = 9 return days[1].exits end
        function M.removes(days) table.remove(days) return #days end
        function M.adds(days) days[#days + 1] = { exits = 1 } return 0 end
        function M.adds_field(days) days[1].other = 1 return 0 end
        function M.keys(days) local s = "" for k, v in pairs(days[1]) do s = s .. k .. "=" .. v end return s end
        return M
        """

    let host: LuaHost
    let module: LuaTable
    init() throws {
        host = try LuaHost()
        module = try #require(try host.load(Self.source, chunkName: "kept.lua").first?.tableValue)
    }

    func call(_ name: String, _ values: [Int]) throws -> LuaValue {
        let function = try #require(module[.string(name)].functionValue)
        return try host.call(function, records: values, field: LuaKey("exits")).first ?? .nil
    }

    @Test func eachCallSeesItsOwnValues() throws {
        #expect(try call("sum", [1, 2, 3]) == .integer(123))
        #expect(try call("sum", [1, 2, 4]) == .integer(124))
        #expect(try call("sum", [5, 2]) == .integer(52))
        #expect(try call("length", [5, 2]) == .integer(2))
        #expect(try call("sum", [5, 2, 7, 8]) == .integer(5278))
        #expect(try call("sum", []) == .integer(0))
        #expect(try call("sum", [3]) == .integer(3))
    }

    @Test func rawAccessSeesTheRecords() throws {
        #expect(try call("first_raw", [4, 6, 1]) == .integer(4306))
        #expect(try call("keys", [4]) == .string("exits=4"))
    }

    /// A rule may change the tables it is given (sort them, set a field, remove the last): the next
    /// call with the same values still sees them as the host wrote them.
    @Test func aRuleThatChangesItsArgumentsDoesNotChangeTheNextCall() throws {
        #expect(try call("sorts", [1, 3, 2]) == .integer(3))
        #expect(try call("sum", [1, 3, 2]) == .integer(132))
        #expect(try call("sets", [1, 3, 2]) == .integer(9))
        #expect(try call("sum", [1, 3, 2]) == .integer(132))
        #expect(try call("removes", [1, 3, 2]) == .integer(2))
        #expect(try call("sum", [1, 3, 2]) == .integer(132))
    }

    @Test func aNewKeyIsRefused() throws {
        for name in ["adds", "adds_field"] {
            let function = try #require(module[.string(name)].functionValue)
            #expect {
                _ = try host.call(function, records: [1, 2], field: LuaKey("exits"))
            } throws: { error in
                "\(error)".contains("the tables the host passes to a rule are read-only")
            }
            #expect(try call("sum", [1, 2]) == .integer(12))
        }
    }
}

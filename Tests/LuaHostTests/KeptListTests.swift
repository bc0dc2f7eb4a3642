import LuaHost
import Testing

/// The lists of one-field records the host keeps between calls (`call(_:records:field:)`, MIGA's
/// days): only the records whose value changed are written again, unless a rule wrote into a kept
/// table, which it may (as into any argument) without the next call seeing it.
/// A history's record: a tier and, on some days, a note.
struct HistoryDay: LuaFlatRecord {
    var tier: Int
    var note: String?
    func encode(to t: inout LuaTableWriter) {
        t.set(Snapshot.tier, tier)
        if let note { t.set(Snapshot.note, note) }
    }
}

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

    /// A history (`call(_:history:key:_:_:returning:)`): records newest first, kept by their
    /// distance from the oldest under a key. Every call sees exactly its own records, whether the
    /// history grew at its head, changed in the middle, shrank, belongs to another key or was
    /// changed by the rule before.
    @Test func aHistorySeesItsOwnRecordsWhateverCameBefore() throws {
        let source = """
            local M = {}
            function M.read(days, a, b)
              local s = ""
              for _, d in ipairs(days) do s = s .. d.current_tier .. (d.note or "-") .. " " end
              return { current_tier = #days, reminders = { s }, persistent_badge = rawlen(days) == #days }
            end
            function M.edges(days, a, b)
              return { current_tier = #days, reminders = { days[1].current_tier .. "," .. days[#days].current_tier } }
            end
            function M.sorts(days, a, b)
              table.sort(days, function(x, y) return x.current_tier > y.current_tier end)
              days[#days].current_tier = 0
              return { current_tier = 0, reminders = {} }
            end
            return M
            """
        let module = try #require(try host.load(source, chunkName: "history.lua").first?.tableValue)
        let read = try #require(module["read"].functionValue), sorts = try #require(module["sorts"].functionValue)
        func history(_ tiers: [Int], notes: [Int: String] = [:]) -> [HistoryDay] {
            tiers.enumerated().map { HistoryDay(tier: $0.element, note: notes[$0.offset]) }
        }
        func seen(_ items: [HistoryDay], key: String = "run") throws -> String {
            let d = try host.call(read, history: items, key: key, Snapshot(tier: 0), Snapshot(tier: 0), returning: Decision.self)
            #expect(d.tier == items.count && d.badge == true)
            return d.reminders.first ?? ""
        }
        #expect(try seen(history([1, 2, 3])) == "1- 2- 3- ")
        #expect(try seen(history([4, 1, 2, 3])) == "4- 1- 2- 3- ")  // grew at its head
        #expect(try seen(history([4, 1, 2, 3], notes: [2: "x"])) == "4- 1- 2x 3- ")  // a note added in the middle
        #expect(try seen(history([4, 1, 2, 3])) == "4- 1- 2- 3- ")  // and gone again
        #expect(try seen(history([5, 4, 7, 2, 3])) == "5- 4- 7- 2- 3- ")
        #expect(try seen(history([9]), key: "read") == "9- ")  // another key
        #expect(try seen(history([5, 4, 7, 2, 3])) == "5- 4- 7- 2- 3- ")
        #expect(try seen(history([3])) == "3- ")  // shrank
        #expect(try seen(history([5, 4, 7, 2, 3])) == "5- 4- 7- 2- 3- ")
        _ = try host.call(
            sorts, history: history([5, 4, 7, 2, 3]), key: "run", Snapshot(tier: 0), Snapshot(tier: 0), returning: Decision.self)
        #expect(try seen(history([5, 4, 7, 2, 3])) == "5- 4- 7- 2- 3- ")  // the rule's changes are gone
        // Past the cap of 256 keys: the shared history.
        for k in 0..<300 { #expect(try seen(history([k % 7, 1]), key: "task \(k)") == "\(k % 7)- 1- ") }
        #expect(try seen(history([5, 4, 7, 2, 3])) == "5- 4- 7- 2- 3- ")
        // A history longer than the cap of kept tables (a new key: the shared history).
        let edges = try #require(module["edges"].functionValue)
        func ends(_ items: [HistoryDay]) throws -> [String] {
            try host.call(edges, history: items, key: "long", Snapshot(tier: 0), Snapshot(tier: 0), returning: Decision.self).reminders
        }
        let long = (0..<9_000).map { $0 % 10 }
        #expect(try ends(history(long)) == ["0,9"])
        #expect(try seen(history([5, 4, 7, 2, 3])) == "5- 4- 7- 2- 3- ")
        #expect(try ends(history([3] + long)) == ["3,9"])
    }
}

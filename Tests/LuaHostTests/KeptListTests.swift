import LuaHost
import Testing

/// The lists of one-field records the host keeps between calls (`call(_:records:field:)`, MIGA's
/// days): only the records whose value changed are written again, unless a rule wrote into a kept
/// table, which it may (as into any argument) without the next call seeing it.
/// A history's record: a tier and, on some days, a note.
struct HistoryDay: LuaKeptRecord {
    var tier: Int
    var note: String?
    func encode(to t: inout LuaTableWriter) {
        t.set(Snapshot.tier, tier)
        if let note { t.set(Snapshot.note, note) }
    }
}

/// A kept list's record with nested tables: a group, its tags (strings), its members (records)
/// and its scores (integers).
struct Group: LuaKeptRecord {
    static let name = LuaKey("name"), tags = LuaKey("tags"), members = LuaKey("members"), scores = LuaKey("scores")
    var name: String
    var tags: [String]
    var members: [HistoryDay]
    var scores: [Int]
    func encode(to t: inout LuaTableWriter) {
        t.set(Self.name, name)
        t.set(Self.tags, list: tags)
        t.set(Self.members, records: members)
        t.set(Self.scores, list: scores)
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
        return try host.call(function, FieldRecords(values, field: LuaKey("exits")), returning: [LuaValue].self).first ?? .nil
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
                _ = try host.call(function, FieldRecords([1, 2], field: LuaKey("exits")), returning: [LuaValue].self)
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
            let d = try host.call(
                read, History(items, key: key), Kept(Snapshot(tier: 0), key: key), Kept(Snapshot(tier: 0)), returning: Decision.self)
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
            sorts, History(history([5, 4, 7, 2, 3]), key: "run"), Kept(Snapshot(tier: 0), key: "run"), Kept(Snapshot(tier: 0)),
            returning: Decision.self)
        #expect(try seen(history([5, 4, 7, 2, 3])) == "5- 4- 7- 2- 3- ")  // the rule's changes are gone
        // Past the cap of 256 keys: the shared history.
        for k in 0..<300 { #expect(try seen(history([k % 7, 1]), key: "task \(k)") == "\(k % 7)- 1- ") }
        #expect(try seen(history([5, 4, 7, 2, 3])) == "5- 4- 7- 2- 3- ")
        // A history longer than the cap of kept tables (a new key: the shared history).
        let edges = try #require(module["edges"].functionValue)
        func ends(_ items: [HistoryDay]) throws -> [String] {
            try host.call(
                edges, History(items, key: "long"), Kept(Snapshot(tier: 0), key: "long"), Kept(Snapshot(tier: 0)), returning: Decision.self
            ).reminders
        }
        let long = (0..<9_000).map { $0 % 10 }
        #expect(try ends(history(long)) == ["0,9"])
        #expect(try seen(history([5, 4, 7, 2, 3])) == "5- 4- 7- 2- 3- ")
        #expect(try ends(history([3] + long)) == ["3,9"])
    }

    /// A kept list (`callFirst(_:keptList:_:)`), whose records nest tables: every call sees its own
    /// records, nested values included, whatever the previous call was given or did to its
    /// tables (sorted a nested list, set a nested field, removed a nested element); a new key in a
    /// nested table is refused, as in any argument.
    @Test func aKeptListSeesItsOwnNestedRecordsWhateverCameBefore() throws {
        let source = """
            local M = {}
            function M.read(groups, extra)
              local s = ""
              for _, g in ipairs(groups) do
                s = s .. g.name .. "[" .. table.concat(g.tags, ",") .. "]"
                for _, m in ipairs(g.members) do s = s .. m.current_tier .. (m.note or "-") end
                s = s .. "(" .. #g.scores .. ":" .. rawlen(g.scores) .. ":" .. (rawget(g.scores, 1) or 0) .. ")"
                for k, v in pairs(g.scores) do s = s .. k .. "=" .. v end
                s = s .. ";"
              end
              return s .. extra.current_tier
            end
            function M.meddles(groups, extra)
              local g = groups[1]
              table.sort(g.tags, function(a, b) return a > b end)
              g.members[1].current_tier = 99
              table.remove(g.scores)
              return ""
            end
            function M.renames(groups, extra) groups[2].name = "changed" return "" end
            function M.adds(groups, extra) groups[1].members[1].other = 1 return "" end
            function M.adds_tag(groups, extra) local t = groups[1].tags t[#t + 1] = "new" return "" end
            return M
            """
        let module = try #require(try host.load(source, chunkName: "groups.lua").first?.tableValue)
        let read = try #require(module["read"].functionValue)
        func seen(_ groups: [Group], _ tier: Int = 0) throws -> String {
            try host.call(read, KeptList(groups), Pooled(Snapshot(tier: tier)), returning: LuaValue.self).stringValue ?? "?"
        }
        let a = Group(
            name: "a", tags: ["x", "y"], members: [HistoryDay(tier: 1, note: nil), HistoryDay(tier: 2, note: "n")], scores: [7, 8])
        let b = Group(name: "b", tags: [], members: [], scores: [])
        #expect(try seen([a, b]) == "a[x,y]1-2n(2:2:7)1=72=8;b[](0:0:0);0")
        #expect(try seen([a, b], 3) == "a[x,y]1-2n(2:2:7)1=72=8;b[](0:0:0);3")
        var a2 = a
        a2.members[1].note = nil
        a2.scores = [5]
        #expect(try seen([a2, b]) == "a[x,y]1-2-(1:1:5)1=5;b[](0:0:0);0")  // a nested change
        #expect(try seen([b]) == "b[](0:0:0);0")  // shrank, and another record in the first place
        #expect(try seen([a, b]) == "a[x,y]1-2n(2:2:7)1=72=8;b[](0:0:0);0")
        for name in ["meddles", "renames"] {
            _ = try host.call(
                try #require(module[.string(name)].functionValue), KeptList([a, b]), Pooled(Snapshot(tier: 0)), returning: LuaValue.self)
            #expect(try seen([a, b]) == "a[x,y]1-2n(2:2:7)1=72=8;b[](0:0:0);0", "after \(name)")  // the rule's changes are gone
        }
        for name in ["adds", "adds_tag"] {
            let function = try #require(module[.string(name)].functionValue)
            #expect {
                _ = try host.call(function, KeptList([a, b]), Pooled(Snapshot(tier: 0)), returning: LuaValue.self)
            } throws: { error in
                "\(error)".contains("the tables the host passes to a rule are read-only")
            }
            #expect(try seen([a, b]) == "a[x,y]1-2n(2:2:7)1=72=8;b[](0:0:0);0")
        }
    }

    /// The two records that go with a history (a task and its user) are kept too: each call sees
    /// the records it was given, whether they changed, belong to another key, or the rule before
    /// wrote into them.
    @Test func theRecordsWithAHistorySeeTheirOwnValues() throws {
        let source = """
            local M = {}
            function M.read(days, task, user)
              return { current_tier = task.current_tier * 100 + user.current_tier, reminders = { task.note or "-", user.note or "-" } }
            end
            function M.meddles(days, task, user) task.current_tier = 9 user.current_tier = 9 return { current_tier = 0, reminders = {} } end
            function M.adds(days, task, user) task.other = 1 return { current_tier = 0, reminders = {} } end
            return M
            """
        let module = try #require(try host.load(source, chunkName: "task.lua").first?.tableValue)
        let read = try #require(module["read"].functionValue)
        func seen(_ task: Snapshot, _ user: Snapshot, key: String = "walk") throws -> String {
            let d = try host.call(
                read, History([HistoryDay(tier: 1)], key: key), Kept(task, key: key), Kept(user), returning: Decision.self)
            return "\(d.tier) " + d.reminders.joined(separator: ",")
        }
        #expect(try seen(Snapshot(tier: 3), Snapshot(tier: 4)) == "304 -,-")
        #expect(try seen(Snapshot(tier: 3, note: "t"), Snapshot(tier: 4)) == "304 t,-")
        #expect(try seen(Snapshot(tier: 5), Snapshot(tier: 6, note: "u"), key: "read") == "506 -,u")
        #expect(try seen(Snapshot(tier: 3, note: "t"), Snapshot(tier: 4)) == "304 t,-")
        _ = try host.call(
            try #require(module["meddles"].functionValue), History([HistoryDay(tier: 1)], key: "walk"),
            Kept(Snapshot(tier: 3, note: "t"), key: "walk"), Kept(Snapshot(tier: 4)), returning: Decision.self)
        #expect(try seen(Snapshot(tier: 3, note: "t"), Snapshot(tier: 4)) == "304 t,-")  // the rule's changes are gone
        #expect {
            _ = try host.call(
                try #require(module["adds"].functionValue), History([HistoryDay(tier: 1)], key: "walk"),
                Kept(Snapshot(tier: 3), key: "walk"), Kept(Snapshot(tier: 4)), returning: Decision.self)
        } throws: { error in
            "\(error)".contains("the tables the host passes to a rule are read-only")
        }
        #expect(try seen(Snapshot(tier: 3), Snapshot(tier: 4)) == "304 -,-")
    }
}

import LuaHost
import Testing

struct Snapshot: LuaTableEncodable {
    static let tier = LuaKey("current_tier")
    static let note = LuaKey("note")
    var tier: Int
    var note: String?
    func encode(to t: inout LuaTableWriter) {
        t.set(Self.tier, tier)
        if let note { t.set(Self.note, note) }  // conditional on purpose
    }
}

struct Decision: LuaTableDecodable, Equatable {
    static let tier = LuaKey("current_tier")
    static let reminders = LuaKey("reminders")
    static let badge = LuaKey("persistent_badge")
    var tier: Int
    var reminders: [String]
    var badge: Bool?
    init(tier: Int, reminders: [String], badge: Bool?) {
        self.tier = tier
        self.reminders = reminders
        self.badge = badge
    }
    init(from t: inout LuaTableReader) throws {
        tier = try t.int(Self.tier)
        reminders = try t.strings(Self.reminders)
        badge = try t.optionalBool(Self.badge)
    }
}

/// A generic table result, for reading back what the rule saw.
struct Echo: LuaTableDecodable {
    static let seen = LuaKey("seen")
    var seen: LuaValue
    init(from t: inout LuaTableReader) throws { seen = try t.value(Self.seen) }
}

@Suite struct RecordCallTests {
    func function(_ host: LuaHost, _ source: String, _ name: String = "f") throws -> LuaFunction {
        let module = try #require(try host.load(source, chunkName: "rule.lua").first?.tableValue)
        return try #require(module[name].functionValue)
    }

    @Test func recordsGoInAndComeOutTyped() throws {
        let host = try LuaHost()
        let f = try function(
            host,
            """
            return { f = function(s)
              return { current_tier = s.current_tier + 1, reminders = { "12:00", "21:00" }, persistent_badge = s.current_tier >= 2 }
            end }
            """)
        #expect(
            try host.call(f, Snapshot(tier: 2), returning: Decision.self)
                == Decision(tier: 3, reminders: ["12:00", "21:00"], badge: true))
    }

    @Test func keysLeftOutOfACallAreNotSeenByTheNext() throws {
        let host = try LuaHost()
        let f = try function(host, "return { f = function(s) return { seen = s.note or 'none' } end }")
        #expect(try host.call(f, Snapshot(tier: 1, note: "first"), returning: Echo.self).seen == "first")
        #expect(try host.call(f, Snapshot(tier: 1, note: nil), returning: Echo.self).seen == "none")
    }

    @Test func argumentTablesAreReadOnlyAndFreshEachCall() throws {
        let host = try LuaHost()
        let add = try function(host, "return { f = function(s) s.extra = 1 return { seen = 1 } end }")
        let error = #expect(throws: LuaError.self) { try host.call(add, Snapshot(tier: 1), returning: Echo.self) }
        #expect(error?.message.contains("read-only") == true)
        #expect(error?.file == "rule.lua" && error?.line == 1)
        let raw = try function(host, "return { f = function(s) rawset(s, 'x', 1) return { seen = 1 } end }")
        #expect(throws: LuaError.self) { try host.call(raw, Snapshot(tier: 1), returning: Echo.self) }
        // Changing a field it was given does not carry over to the next call.
        let change = try function(
            host, "return { f = function(s) local was = s.current_tier s.current_tier = 99 return { seen = was } end }")
        #expect(try host.call(change, Snapshot(tier: 1), returning: Echo.self).seen == 1)
        #expect(try host.call(change, Snapshot(tier: 2), returning: Echo.self).seen == 2)
    }

    @Test func aHostFunctionMayCallBackIntoLua() throws {
        let host = try LuaHost()
        let inner = try function(host, "return { f = function(s) return { seen = s.current_tier * 10 } end }")
        try host.register("inner") { args in
            let tier = Int(args.first?.integerValue ?? 0)
            return [try host.call(inner, Snapshot(tier: tier), returning: Echo.self).seen]
        }
        let outer = try function(host, "return { f = function(s) return { seen = inner(s.current_tier + 1) + s.current_tier } end }")
        #expect(try host.call(outer, Snapshot(tier: 3), returning: Echo.self).seen == 43)
    }

    @Test func wrongResultsNameTheField() throws {
        let host = try LuaHost()
        let typo = try function(host, "return { f = function(s) return { current_tier = 1, reminders = {}, persistant_badge = true } end }")
        let unknown = #expect(throws: LuaError.self) { try host.call(typo, Snapshot(tier: 1), returning: Decision.self) }
        #expect(unknown?.kind == .decoding)
        #expect(unknown?.path == "persistant_badge")
        #expect(unknown?.message.contains("unknown field (did you mean 'persistent_badge'?)") == true)
        #expect(unknown?.file == "rule.lua" && unknown?.line == 1)

        let wrongType = try function(host, "return { f = function(s) return { current_tier = 'two', reminders = {} } end }")
        let mismatch = #expect(throws: LuaError.self) { try host.call(wrongType, Snapshot(tier: 1), returning: Decision.self) }
        #expect(mismatch?.path == "current_tier")
        #expect(mismatch?.message.hasSuffix("expected an integer, found string \"two\"") == true)

        let badList = try function(host, "return { f = function(s) return { current_tier = 1, reminders = { '12:00', 7 } } end }")
        let element = #expect(throws: LuaError.self) { try host.call(badList, Snapshot(tier: 1), returning: Decision.self) }
        #expect(element?.path == "reminders[2]")

        let badText = try function(host, #"return { f = function(s) return { current_tier = 1, reminders = { '12:00', '\xff' } } end }"#)
        let text = #expect(throws: LuaError.self) { try host.call(badText, Snapshot(tier: 1), returning: Decision.self) }
        #expect(
            text?.description
                == #"rule.lua:1: reminders[2]: in the table returned by the function at line 1: expected UTF-8 text, found string "\xFF""#)

        let cyclic = try function(host, "return { f = function(s) local t = { seen = { a = {} } } t.seen.a.back = t.seen return t end }")
        let cycle = #expect(throws: LuaError.self) { try host.call(cyclic, Snapshot(tier: 1), returning: Echo.self) }
        #expect(cycle?.path == "seen.a.back")
        #expect(cycle?.message.hasSuffix("a cycle: the table seen contains itself here") == true, "\(String(describing: cycle))")

        let missing = try function(host, "return { f = function(s) return { reminders = {} } end }")
        let absent = #expect(throws: LuaError.self) { try host.call(missing, Snapshot(tier: 1), returning: Decision.self) }
        #expect(absent?.path == "current_tier" && absent?.message.hasSuffix("required field is missing") == true)

        let notTable = try function(host, "return { f = function(s) return 3 end }")
        let shape = #expect(throws: LuaError.self) { try host.call(notTable, Snapshot(tier: 1), returning: Decision.self) }
        #expect(shape?.message == "the function returned integer 3 where a table was expected")
    }

    @Test func aFrozenRuleTableCanBeReturned() throws {
        let host = try LuaHost()
        let f = try function(
            host,
            """
            local fixed = { current_tier = 0, reminders = { "12:00" } }
            return { f = function(s) return fixed end }
            """)
        #expect(try host.call(f, Snapshot(tier: 1), returning: Decision.self) == Decision(tier: 0, reminders: ["12:00"], badge: nil))
    }
}

import LuaHost
import Testing

struct Snapshot: LuaKeptRecord {
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

/// A record whose key is longer than the strings Lua interns (40 bytes), read twice (and counted
/// once), with a nested record.
struct LongKeyed: LuaTableDecodable, Equatable {
    static let long = LuaKey("a_field_name_longer_than_the_forty_bytes_lua_interns")
    static let inner = LuaKey("inner")
    var long: Int
    var inner: Decision?
    init(long: Int, inner: Decision?) {
        self.long = long
        self.inner = inner
    }
    init(from t: inout LuaTableReader) throws {
        long = try t.int(Self.long)
        guard try t.int(Self.long) == long else { throw LuaError(kind: .decoding, message: "read twice, differently") }
        inner = try t.optionalRecord(Self.inner, Decision.self)
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
            try host.call(f, Pooled(Snapshot(tier: 2)), returning: Decision.self)
                == Decision(tier: 3, reminders: ["12:00", "21:00"], badge: true))
    }

    @Test func keysLeftOutOfACallAreNotSeenByTheNext() throws {
        let host = try LuaHost()
        let f = try function(host, "return { f = function(s) return { seen = s.note or 'none' } end }")
        #expect(try host.call(f, Pooled(Snapshot(tier: 1, note: "first")), returning: Echo.self).seen == "first")
        #expect(try host.call(f, Pooled(Snapshot(tier: 1, note: nil)), returning: Echo.self).seen == "none")
    }

    @Test func argumentTablesAreReadOnlyAndFreshEachCall() throws {
        let host = try LuaHost()
        let add = try function(host, "return { f = function(s) s.extra = 1 return { seen = 1 } end }")
        let error = #expect(throws: LuaError.self) { try host.call(add, Pooled(Snapshot(tier: 1)), returning: Echo.self) }
        #expect(error?.message.contains("read-only") == true)
        #expect(error?.file == "rule.lua" && error?.line == 1)
        let raw = try function(host, "return { f = function(s) rawset(s, 'x', 1) return { seen = 1 } end }")
        #expect(throws: LuaError.self) { try host.call(raw, Pooled(Snapshot(tier: 1)), returning: Echo.self) }
        // Changing a field it was given does not carry over to the next call.
        let change = try function(
            host, "return { f = function(s) local was = s.current_tier s.current_tier = 99 return { seen = was } end }")
        #expect(try host.call(change, Pooled(Snapshot(tier: 1)), returning: Echo.self).seen == 1)
        #expect(try host.call(change, Pooled(Snapshot(tier: 2)), returning: Echo.self).seen == 2)
    }

    @Test func aHostFunctionMayCallBackIntoLua() throws {
        let host = try LuaHost()
        let inner = try function(host, "return { f = function(s) return { seen = s.current_tier * 10 } end }")
        try host.register("inner") { args in
            let tier = Int(args.first?.integerValue ?? 0)
            return [try host.call(inner, Pooled(Snapshot(tier: tier)), returning: Echo.self).seen]
        }
        let outer = try function(host, "return { f = function(s) return { seen = inner(s.current_tier + 1) + s.current_tier } end }")
        #expect(try host.call(outer, Pooled(Snapshot(tier: 3)), returning: Echo.self).seen == 43)
    }

    @Test func wrongResultsNameTheField() throws {
        let host = try LuaHost()
        let typo = try function(host, "return { f = function(s) return { current_tier = 1, reminders = {}, persistant_badge = true } end }")
        let unknown = #expect(throws: LuaError.self) { try host.call(typo, Pooled(Snapshot(tier: 1)), returning: Decision.self) }
        #expect(unknown?.kind == .decoding)
        #expect(unknown?.path == "persistant_badge")
        #expect(unknown?.message.contains("unknown field (did you mean 'persistent_badge'?)") == true)
        #expect(unknown?.file == "rule.lua" && unknown?.line == 1)

        let wrongType = try function(host, "return { f = function(s) return { current_tier = 'two', reminders = {} } end }")
        let mismatch = #expect(throws: LuaError.self) { try host.call(wrongType, Pooled(Snapshot(tier: 1)), returning: Decision.self) }
        #expect(mismatch?.path == "current_tier")
        #expect(mismatch?.message.hasSuffix("expected an integer, found string \"two\"") == true)

        let badList = try function(host, "return { f = function(s) return { current_tier = 1, reminders = { '12:00', 7 } } end }")
        let element = #expect(throws: LuaError.self) { try host.call(badList, Pooled(Snapshot(tier: 1)), returning: Decision.self) }
        #expect(element?.path == "reminders[2]")

        let badText = try function(host, #"return { f = function(s) return { current_tier = 1, reminders = { '12:00', '\xff' } } end }"#)
        let text = #expect(throws: LuaError.self) { try host.call(badText, Pooled(Snapshot(tier: 1)), returning: Decision.self) }
        #expect(
            text?.description
                == #"rule.lua:1: reminders[2]: in the table returned by the function at line 1: expected UTF-8 text, found string "\xFF""#)

        let cyclic = try function(host, "return { f = function(s) local t = { seen = { a = {} } } t.seen.a.back = t.seen return t end }")
        let cycle = #expect(throws: LuaError.self) { try host.call(cyclic, Pooled(Snapshot(tier: 1)), returning: Echo.self) }
        #expect(cycle?.path == "seen.a.back")
        #expect(cycle?.message.hasSuffix("a cycle: the table seen contains itself here") == true, "\(String(describing: cycle))")

        let missing = try function(host, "return { f = function(s) return { reminders = {} } end }")
        let absent = #expect(throws: LuaError.self) { try host.call(missing, Pooled(Snapshot(tier: 1)), returning: Decision.self) }
        #expect(absent?.path == "current_tier" && absent?.message.hasSuffix("required field is missing") == true)

        let notTable = try function(host, "return { f = function(s) return 3 end }")
        let shape = #expect(throws: LuaError.self) { try host.call(notTable, Pooled(Snapshot(tier: 1)), returning: Decision.self) }
        #expect(shape?.message == "the function returned integer 3 where a table was expected")
    }

    /// A result table with a hundred more keys than the record reads, in it or in a nested record,
    /// is refused with the same message, and the reader leaves the stack as it found it.
    @Test(arguments: [0, 100])
    func smallAndLargeResultTablesReadTheSame(extraKeys: Int) throws {
        let host = try LuaHost()
        let wide = try function(
            host,
            """
            return { f = function(s)
              local t = { a_field_name_longer_than_the_forty_bytes_lua_interns = s.current_tier,
                          inner = { current_tier = 2, reminders = { "09:00" } } }
              if s.current_tier == 2 then for i = 1, \(extraKeys) do t["x" .. i] = i end end
              if s.current_tier == 3 then
                for i = 1, \(extraKeys) do t.inner["x" .. i] = i end
                t.inner.current_tier = "two"
              end
              return t
            end }
            """)
        let expected = LongKeyed(long: 1, inner: Decision(tier: 2, reminders: ["09:00"], badge: nil))
        #expect(try host.call(wide, Pooled(Snapshot(tier: 1)), returning: LongKeyed.self) == expected)
        if extraKeys == 0 {
            #expect(try host.call(wide, Pooled(Snapshot(tier: 2)), returning: LongKeyed.self).long == 2)
        } else {
            let unknown = #expect(throws: LuaError.self) { try host.call(wide, Pooled(Snapshot(tier: 2)), returning: LongKeyed.self) }
            #expect(unknown?.path == "x1")
            #expect(unknown?.message.contains("unknown field") == true, "\(String(describing: unknown))")
        }
        let nested = #expect(throws: LuaError.self) { try host.call(wide, Pooled(Snapshot(tier: 3)), returning: LongKeyed.self) }
        #expect(nested?.path == "inner.current_tier")
        #expect(nested?.message.hasSuffix("expected an integer, found string \"two\"") == true, "\(String(describing: nested))")
        // Every call leaves the stack as it found it: a thousand calls, failing or not, in a row.
        for i in 0..<1000 {
            if i % 3 == 0 {
                #expect(try host.call(wide, Pooled(Snapshot(tier: 1)), returning: LongKeyed.self) == expected)
            } else {
                _ = try? host.call(wide, Pooled(Snapshot(tier: 2 + i % 2)), returning: LongKeyed.self)
            }
        }
    }

    @Test func aFrozenRuleTableCanBeReturned() throws {
        let host = try LuaHost()
        let f = try function(
            host,
            """
            local fixed = { current_tier = 0, reminders = { "12:00" } }
            return { f = function(s) return fixed end }
            """)
        #expect(
            try host.call(f, Pooled(Snapshot(tier: 1)), returning: Decision.self) == Decision(tier: 0, reminders: ["12:00"], badge: nil))
    }
}

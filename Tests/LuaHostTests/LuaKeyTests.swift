import LuaHost
import Testing

/// Two argument types that both have a field `result`, each with its own `LuaKey`.
private struct CheckIn: LuaTableEncodable {
    static let result = LuaKey("result")
    var result: String
    func encode(to t: inout LuaTableWriter) { t.set(Self.result, result) }
}

private struct Day: LuaTableEncodable {
    static let result = LuaKey("result")
    static let shield = LuaKey("shield_used")
    var result: String
    func encode(to t: inout LuaTableWriter) {
        t.set(Self.result, result)
        t.set(Self.shield, false)
    }
}

@Suite struct LuaKeyTests {
    @Test func keysWithTheSameNameAreTheSameKey() {
        #expect(CheckIn.result == Day.result)
        #expect(CheckIn.result != Day.shield)
    }

    /// The pooled argument table clears the keys its previous fill wrote and this one did not: a
    /// field written under the same name by another type must survive (it once read as nil, so a
    /// YES counted as a miss when `transition` and `pressure.next` were called in turn).
    @Test func aPooledTableKeepsAFieldThatAnotherTypeWroteUnderTheSameName() throws {
        let host = try LuaHost()
        let module = try #require(
            try host.load(
                "return { f = function(_, s) return { seen = s.result or 'nil' } end }",
                chunkName: "rule.lua"
            ).first?.tableValue)
        let f = try #require(module["f"].functionValue)
        for _ in 0..<3 {
            #expect(try host.call(f, CheckIn(result: "YES"), CheckIn(result: "YES"), returning: Seen.self).seen == "YES")
            #expect(try host.call(f, CheckIn(result: "YES"), Day(result: "YES"), returning: Seen.self).seen == "YES")
        }
    }
}

private struct Seen: LuaTableDecodable {
    static let seen = LuaKey("seen")
    var seen: LuaValue
    init(from t: inout LuaTableReader) throws { seen = try t.value(Self.seen) }
}

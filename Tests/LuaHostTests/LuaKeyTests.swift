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
            #expect(try host.call(f, Pooled(CheckIn(result: "YES")), Pooled(CheckIn(result: "YES")), returning: Seen.self).seen == "YES")
            #expect(try host.call(f, Pooled(CheckIn(result: "YES")), Pooled(Day(result: "YES")), returning: Seen.self).seen == "YES")
        }
    }
}

private struct Seen: LuaTableDecodable {
    static let seen = LuaKey("seen")
    var seen: LuaValue
    init(from t: inout LuaTableReader) throws { seen = try t.value(Self.seen) }
}

/// A text numbered within a kind (`LuaTableWriter.set(_:text:of:write:)`), written as `<kind>:<number>`.
private struct Numbered: LuaTableEncodable {
    static let value = LuaKey("value")
    static let kinds = (LuaKey("first kind"), LuaKey("second kind"))
    var number: Int
    var second: Bool
    func encode(to t: inout LuaTableWriter) {
        let kind = second ? Self.kinds.1 : Self.kinds.0
        let text = "\(second ? "second" : "first"):\(number)"
        t.set(Self.value, text: number, of: kind) { buffer in
            let bytes = Array(text.utf8)
            buffer.copyBytes(from: bytes)
            return bytes.count
        }
    }
}

extension LuaKeyTests {
    /// Kept texts: the same number gives the same text whether written or kept, two kinds with the
    /// same number do not mix, and past the most a host keeps every text is still right.
    @Test func aKeptTextIsTheTextOfItsKindAndNumber() throws {
        let host = try LuaHost()
        let module = try #require(
            try host.load("return { f = function(n) return { seen = n.value } end }", chunkName: "rule.lua").first?.tableValue)
        let f = try #require(module["f"].functionValue)
        for round in 0..<2 {
            for number in [0, 1, -1, 20_000, Int(Int32.max), -719_162] {
                for second in [false, true] {
                    let seen = try host.call(f, Pooled(Numbered(number: number, second: second)), returning: Seen.self).seen
                    #expect(seen == .string("\(second ? "second" : "first"):\(number)"), "round \(round)")
                }
            }
        }
        for number in stride(from: 0, to: 10_000, by: 1) {
            let seen = try host.call(f, Pooled(Numbered(number: number, second: number % 2 == 0)), returning: Seen.self).seen
            #expect(seen == .string("\(number % 2 == 0 ? "second" : "first"):\(number)"))
        }
    }
}

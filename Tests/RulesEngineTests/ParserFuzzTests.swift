import LuaHost
import RulesEngine
import Testing

/// Random token soup through the parsers that read user input: none may crash or hang.
@Suite struct ParserFuzzTests {
    /// SplitMix64: a tiny seeded generator, so the soup is the same on every run.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
    }

    static let jsonTokens = ["{", "}", "[", "]", ",", ":", "\"at\"", "\"type\"", "\"tick\"", "\"2026-03-02T08:00:00Z\"", "\"\\u00e9\"",
                             "\"\\ud83d\\ude00\"", "\"\\ud800\"", "\"\\", "1", "-0", "1e999", "1.5", "true", "null", "\"user\"", " ", "\"",
                             "\"check_in\"", "\"result\"", "\"YES\"", "\u{1}", "é", "\"2026-13-40T25:61:00+99:99\""]
    static let luaTokens = ["return", "{", "}", "local", "M", "=", ".", "x", "[", "]", "\"s\"", "[[", "]]", "--", "--[==[", "]==]", "function",
                            "end", "if", "then", "(", ")", ",", ";", "1", "0x1p4", "1e", "..", "...", "\n", "'", "\\", "do", "repeat", "until"]

    @Test func eventLinesNeverCrashTheParser() {
        var random = Random(state: 0xF022)
        var accepted = 0
        for _ in 0..<5_000 {
            let line = (0..<Int(random.next() % 24)).map { _ in random.pick(Self.jsonTokens) }.joined()
            if (try? EngineEvent.parse(line)) != nil { accepted += 1 }
        }
        #expect(accepted < 5_000)
        #expect(throws: EngineError.self) { try EngineEvent.parse("{\"at\": \"2026-03-02T08:00:00Z\", \"type\": \"tick\", \"type\": \"tick\"}") }
    }

    @Test func ruleSourcesNeverCrashTheSourceMapOrTheLoader() throws {
        var random = Random(state: 0x5EED)
        let host = try LuaHost(limits: LuaLimits(instructionsPerLoad: 100_000))
        for _ in 0..<2_000 {
            let source = (0..<Int(random.next() % 40)).map { _ in random.pick(Self.luaTokens) }.joined(separator: random.pick([" ", "", "\n"]))
            _ = LuaSourceMap(source: source).line(for: "x")
            _ = try? host.load(source, chunkName: "fuzz.lua")
        }
        try expectHostUsable(host)
    }

    func expectHostUsable(_ host: LuaHost) throws {
        #expect(try host.load("return 1 + 1", chunkName: "ok.lua") == [.integer(2)])
    }
}

import LuaHost
import RulesModel
import RulesSim
import Testing

/// The generators of property cases (`gen.*` in test files): what they draw, from a seed, and how
/// a value shrinks.
@Suite struct CaseGeneratorTests {
    static func table(_ entries: [String: LuaValue]) -> LuaValue {
        var table = LuaTable()
        for (key, value) in entries { table[key] = value }
        return .table(table)
    }

    @Test func integersShrinkTowardZeroOrTheBoundNearestIt() {
        #expect(CaseGenerator.int(min: -10, max: 100).shrink(.integer(40)) == [.integer(0), .integer(20), .integer(39)])
        #expect(CaseGenerator.int(min: 5, max: 100).shrink(.integer(9)) == [.integer(5), .integer(7), .integer(8)])
        #expect(CaseGenerator.int(min: -9, max: -3).shrink(.integer(-9)) == [.integer(-3), .integer(-6), .integer(-8)])
        #expect(CaseGenerator.int(min: 0, max: 3).shrink(.integer(0)).isEmpty)
    }

    @Test func aListShrinksToFewerElementsFirst() {
        let list = CaseGenerator.list(of: .int(min: 0, max: 9), max: 10)
        let candidates = list.shrink([.integer(4), .integer(7)])
        #expect(candidates.first == .table(LuaTable(sequence: [])))
        #expect(candidates.contains(.table(LuaTable(sequence: [.integer(0), .integer(7)]))))
    }

    @Test func theSameSeedAndCaseDrawTheSameValue() throws {
        let generator = try CaseGenerator.parse(
            Self.table([
                "generator": "record",
                "fields": Self.table([
                    "n": Self.table(["generator": "int", "min": 0, "max": 1_000_000]),
                    "xs": Self.table(["generator": "list", "of": Self.table(["generator": "one_of", "values": ["a", "b"]])]),
                ]),
            ]), path: "cases.prop_x")
        func draw(_ k: UInt64) -> LuaValue {
            var rng = SeededGenerator(seed: 3, k, 0)
            return generator.draw(using: &rng)
        }
        #expect(draw(1) == draw(1))
        #expect((0..<20).map(draw).contains { $0 != draw(1) })
    }

    @Test func aHistoryIsAWholeCaseNotAField() {
        let history = Self.table(["generator": "history", "app": "earned"])
        #expect(throws: CaseGeneratorError.self) {
            try CaseGenerator.parse(Self.table(["generator": "record", "fields": Self.table(["h": history])]), path: "cases.prop_x")
        }
        let wrongApp = Self.table(["generator": "history", "app": "miga"])
        do {
            _ = try CaseGenerator.parse(wrongApp, path: "cases.prop_x")
            Issue.record("an unknown app was accepted")
        } catch {
            #expect(error.description == "cases.prop_x: gen.history(APP): APP is one of pressure, earned, habits, found string \"miga\"")
        }
    }
}

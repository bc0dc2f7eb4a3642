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
        func shrink(_ generator: CaseGenerator, _ value: LuaValue) -> [LuaValue] { Array(generator.shrink(value)) }
        #expect(shrink(.int(min: -10, max: 100), .integer(40)) == [.integer(0), .integer(20), .integer(39)])
        #expect(shrink(.int(min: 5, max: 100), .integer(9)) == [.integer(5), .integer(7), .integer(8)])
        #expect(shrink(.int(min: -9, max: -3), .integer(-9)) == [.integer(-3), .integer(-6), .integer(-8)])
        #expect(shrink(.int(min: 0, max: 3), .integer(0)).isEmpty)
    }

    @Test func aListShrinksToFewerElementsFirst() {
        let list = CaseGenerator.list(of: .int(min: 0, max: 9), max: 10)
        let candidates = Array(list.shrink([.integer(4), .integer(7)]))
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
            return (try? generator.draw(using: &rng)) ?? .nil
        }
        #expect(draw(1) == draw(1))
        #expect((0..<20).map(draw).contains { $0 != draw(1) })
    }

    /// A case is counted as it is drawn: lists of lists of lists of 1,000 elements are refused
    /// once they hold more than `CaseSize.maxValues` values, before the rest is built; so are
    /// strings past `CaseSize.maxBytes` in all.
    @Test func aCaseIsRefusedPastItsBoundsBeforeItIsBuilt() throws {
        let bomb = CaseGenerator.list(of: .list(of: .list(of: .list(of: .int(min: 0, max: 9), max: 1_000), max: 1_000), max: 1_000), max: 1_000)
        var rng = SeededGenerator(seed: 1, 0, 0)
        #expect(throws: CaseTooLarge.self) { try bomb.draw(using: &rng) }
        let text = CaseGenerator.list(of: .oneOf([.string(String(repeating: "x", count: 1 << 20))]), max: 1_000)
        #expect(throws: CaseTooLarge.self) { try text.draw(using: &rng) }
        // Within the bounds: a list of 1,000 records of three fields (4,001 values).
        let records = CaseGenerator.list(of: .record([("a", .int(min: 0, max: 9)), ("b", .oneOf(["x", "y"])), ("c", .int(min: 0, max: 1))]), max: 1_000)
        #expect(throws: Never.self) { try records.draw(using: &rng) }
    }

    /// What a property gets is counted too: a list of a domain's inputs, each drawn as its index
    /// (one value) but given as the input it stands for, is refused when the inputs are too large.
    @Test func aCaseIsRefusedPastItsBoundsWhenItIsPresented() throws {
        let input = LuaValue.table(LuaTable(sequence: (0..<1_000).map { LuaValue.integer($0) }))
        let inputs = CaseGenerator.list(of: .domain(count: 10) { _ in input }, max: 1_000)
        let drawn = LuaValue.table(LuaTable(sequence: (0..<200).map { _ in LuaValue.integer(3) }))
        #expect(throws: CaseTooLarge.self) { try inputs.present(drawn) }
        let few = LuaValue.table(LuaTable(sequence: (0..<50).map { _ in LuaValue.integer(3) }))
        #expect(try inputs.present(few) == .table(LuaTable(sequence: Array(repeating: input, count: 50))))
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

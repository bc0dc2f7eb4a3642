import LuaHost
import Testing

struct Tier: Decodable, Equatable {
    var level: Int
    var recover_after: Int
    var reminders: [String]
    var note: String?
}

enum Strictness: String, Decodable, CaseIterable { case GENTLE, STRICT, HARD }

struct Policy: Decodable, Equatable {
    var name: String
    var tiers: [Tier]
    var ratio: Double
    var strictness: Strictness
    var limits: [String: Int]
    var enabled: Bool
}

@Suite struct DecoderTests {
    let host: LuaHost
    init() throws { host = try LuaHost() }

    func decode<T: Decodable>(_ type: T.Type, _ lua: String) throws -> T {
        let value = try host.load("return " + lua, chunkName: "policy.lua").first ?? .nil
        return try LuaDecoder().decode(type, from: value, file: "policy.lua")
    }

    func failure<T: Decodable>(_ type: T.Type, _ lua: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> LuaError {
        do {
            _ = try decode(type, lua)
        } catch let error as LuaError {
            #expect(error.kind == .decoding, sourceLocation: sourceLocation)
            return error
        }
        Issue.record("decoded without error", sourceLocation: sourceLocation)
        return LuaError(kind: .runtime, message: "")
    }

    let valid = """
        { name = "default", ratio = 0.5, strictness = "STRICT", enabled = true,
          limits = { per_day = 2, cooldown = 15 },
          tiers = { { level = 1, recover_after = 3, reminders = { "12:00" } },
                    { level = 2, recover_after = 5, reminders = { "12:00", "19:00" }, note = "two" } } }
        """

    @Test func decodesNestedStructsListsDictionariesAndEnums() throws {
        let policy = try decode(Policy.self, valid)
        #expect(policy.tiers.count == 2)
        #expect(policy.tiers[1] == Tier(level: 2, recover_after: 5, reminders: ["12:00", "19:00"], note: "two"))
        #expect(policy.limits == ["per_day": 2, "cooldown": 15])
        #expect(policy.strictness == .STRICT && policy.ratio == 0.5 && policy.enabled)
    }

    @Test func decodesFromFrozenRuleTables() throws {
        // What a rule file returns is frozen; decoding reads through to its contents.
        let value = try host.load("local M = " + valid + "\nreturn M", chunkName: "policy.lua").first ?? .nil
        #expect(try LuaDecoder().decode(Policy.self, from: value).tiers.count == 2)
    }

    @Test func aWrongTypeNamesTheWholePath() throws {
        let error = try failure(Policy.self, valid.replacingOccurrences(of: "recover_after = 5", with: "recover_after = \"two\""))
        #expect(error.path == "tiers[2].recover_after")
        #expect(error.message == "expected an integer, found string \"two\"")
        #expect(error.description == "policy.lua: tiers[2].recover_after: expected an integer, found string \"two\"")
    }

    @Test func unknownKeysAreRejectedWithASuggestion() throws {
        let error = try failure(
            Policy.self, valid.replacingOccurrences(of: "recover_after = 3", with: "recover_after = 3, recover_afterr = 4"))
        #expect(error.path == "tiers[1].recover_afterr")
        #expect(error.message == "unknown field (did you mean 'recover_after'?)")
        let far = try failure(Tier.self, "{ level = 1, recover_after = 2, reminders = {}, colour = 'red', zz = 1 }")
        #expect(far.path == "colour")
        #expect(far.message == "unknown field (expected one of: level, note, recover_after, reminders); also unknown: 'zz'")
    }

    @Test func missingFieldsAreNamed() throws {
        let error = try failure(Tier.self, "{ level = 1, reminders = {} }")
        #expect(error.path == "recover_after")
        #expect(error.message == "required field is missing")
    }

    @Test func nanAndInfinityAreNotFiniteNumbers() throws {
        let nan = try failure(Policy.self, valid.replacingOccurrences(of: "ratio = 0.5", with: "ratio = 0/0"))
        #expect(nan.path == "ratio" && nan.message.hasPrefix("expected a finite number, found number"))
        let inf = try failure(Policy.self, valid.replacingOccurrences(of: "ratio = 0.5", with: "ratio = math.huge"))
        #expect(inf.message == "expected a finite number, found number inf")
    }

    @Test func integersMustBeWholeAndInRange() throws {
        #expect(try decode(Tier.self, "{ level = 2.0, recover_after = 1, reminders = {} }").level == 2)
        let fraction = try failure(Tier.self, "{ level = 2.5, recover_after = 1, reminders = {} }")
        #expect(fraction.message == "expected an integer, found number 2.5")
        struct Small: Decodable { var x: UInt8 }
        let range = try failure(Small.self, "{ x = 300 }")
        #expect(range.message == "expected an integer between 0 and 255, found integer 300")
    }

    @Test func enumsListTheirValues() throws {
        let error = try failure(Policy.self, valid.replacingOccurrences(of: "\"STRICT\"", with: "\"SOFT\""))
        #expect(error.path == "strictness")
        #expect(error.message == "expected one of \"GENTLE\", \"STRICT\", \"HARD\", found string \"SOFT\"")
    }

    @Test func listsMustBeSequences() throws {
        let error = try failure(Tier.self, "{ level = 1, recover_after = 1, reminders = { [1] = 'a', [3] = 'c' } }")
        #expect(error.path == "reminders")
        #expect(error.message.contains("expected a list"))
        let notTable = try failure(Tier.self, "{ level = 1, recover_after = 1, reminders = 'a' }")
        #expect(notTable.message == "expected a list, found string \"a\"")
    }

    @Test func odditiesInKeysArePrintedAsLuaWouldWriteThem() throws {
        struct Box: Decodable { var items: [String: Int] }
        let error = try failure(Box.self, "{ items = { ['per day'] = 'x' } }")
        #expect(error.path == "items[\"per day\"]")
    }

    @Test func positionalEntriesInAStructAreRejected() throws {
        let error = try failure(Tier.self, "{ 1, level = 1, recover_after = 1, reminders = {} }")
        #expect(error.path == "[1]")
        #expect(error.message.contains("unexpected entry"))
    }

    @Test func functionsDecodeAsHandlesAndPartialViewsCanIgnoreUnknownKeys() throws {
        struct Rule: Decodable { var limit: Int; var check: LuaFunction }
        let value =
            try host.load(
                "return { limit = 3, check = function(n) return n <= 3 end, extra = true }",
                chunkName: "r.lua"
            ).first ?? .nil
        #expect(throws: LuaError.self) { try LuaDecoder().decode(Rule.self, from: value) }
        let rule = try LuaDecoder(rejectsUnknownKeys: false).decode(Rule.self, from: value)
        #expect(try host.call(rule.check, .integer(4)) == [.boolean(false)])
        let notFunction = try failure(Rule.self, "{ limit = 3, check = 'no' }")
        #expect(notFunction.path == "check" && notFunction.message == "expected a function, found string \"no\"")
    }

    @Test func suggestionsAreForTyposOnly() {
        #expect(Suggestion.closest(to: "recover_afterr", among: ["recover_after", "level"]) == "recover_after")
        #expect(Suggestion.closest(to: "levle", among: ["recover_after", "level"]) == "level")
        #expect(Suggestion.closest(to: "banana", among: ["recover_after", "level"]) == nil)
    }
}

@Suite struct MisspeltRequiredFieldTests {
    @Test func aMisspeltRequiredFieldIsReportedAsTheTypo() throws {
        let host = try LuaHost()
        let value = try host.load("return { level = 1, recover_aftr = 2, reminders = {} }", chunkName: "t.lua").first ?? .nil
        let error = try #require(throws: LuaError.self) { try LuaDecoder().decode(Tier.self, from: value) }
        #expect(error.path == "recover_aftr")
        #expect(error.message == "unknown field (did you mean 'recover_after'?)")
    }
}

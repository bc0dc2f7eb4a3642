import LuaHost
import Testing

/// `LuaDecoder.decodeReportingAll`: every bad field of a table, not the first (issue 18).
@Suite struct DecoderReportingAllTests {
    func problems(_ lua: String) throws -> [String] {
        let host = try LuaHost()
        let value = try host.load("return " + lua, chunkName: "policy.lua").first ?? .nil
        let (decoded, problems) = LuaDecoder().decodeReportingAll(Policy.self, from: value, file: "policy.lua")
        if problems.isEmpty { #expect(decoded != nil) }
        return problems.map(\.description)
    }

    @Test func everyBadFieldIsReportedNestedOnesWithoutHidingTheirSiblings() throws {
        let found = try problems(
            """
            { name = 1, tiers = { { level = "one", recover_after = 2.5, reminders = {} }, { level = 2, recover_aftr = 1, reminders = {} } },
              ratio = "half", strictness = "SOFT", limits = { a = true }, enabled = "yes", extra = 1 }
            """)
        #expect(
            found == [
                "policy.lua: name: expected a string, found integer 1",
                "policy.lua: tiers[1].level: expected an integer, found string \"one\"",
                "policy.lua: tiers[1].recover_after: expected an integer, found number 2.5",
                "policy.lua: tiers[2].recover_aftr: unknown field (did you mean 'recover_after'?)",
                "policy.lua: ratio: expected a number, found string \"half\"",
                "policy.lua: strictness: expected one of \"GENTLE\", \"STRICT\", \"HARD\", found string \"SOFT\"",
                "policy.lua: limits.a: expected an integer, found boolean true",
                "policy.lua: enabled: expected a boolean, found string \"yes\"",
                "policy.lua: extra: unknown field (expected one of: enabled, limits, name, ratio, strictness, tiers)",
            ], "\(found)")
    }

    /// Each unknown key of a table is its own problem at its own path (so at its own line), not
    /// a note on the first one's ("also unknown: 'zz'").
    @Test func everyUnknownKeyIsItsOwnProblem() throws {
        let found = try problems(
            "{ name = 'p', tiers = {}, ratio = 0.5, strictness = 'HARD', limits = {}, enabled = true, ratoi = 1, nmae = 'q', zz = 2 }")
        #expect(
            found == [
                "policy.lua: nmae: unknown field (did you mean 'name'?)",
                "policy.lua: ratoi: unknown field (did you mean 'ratio'?)",
                "policy.lua: zz: unknown field (expected one of: enabled, limits, name, ratio, strictness, tiers)",
            ], "\(found)")
    }

    @Test func aValidTableDecodesAsDecodeDoes() throws {
        let lua = "{ name = 'p', tiers = {}, ratio = 0.5, strictness = 'HARD', limits = {}, enabled = true }"
        #expect(try problems(lua).isEmpty)
    }

    @Test func aValueThatIsNotATableIsOneProblem() throws {
        #expect(try problems("3") == ["policy.lua: expected a table, found integer 3"])
    }
}

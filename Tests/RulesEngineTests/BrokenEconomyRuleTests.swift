import Foundation
import RulesEngine
import Testing

@Suite struct BrokenEconomyRuleTests {
    func line(_ text: String, _ file: String) throws -> Int { try RuleFixture.line(of: text, in: file) }

    @Test func creditCostsMustIncrease() throws {
        let problems = try RuleFixture.problems("{ minutes = 15, credits = 25 }", "{ minutes = 15, credits = 9 }", in: "pricing.lua")
        #expect(problems.map(\.description) == [
            "pricing.lua:\(try line("{ minutes = 15, credits = 25 }", "pricing.lua")): credit_costs[2].credits: must be greater than the 5-minute unlock's 10 (credit costs must be strictly increasing), found 9"])
    }

    @Test func v11FixesTheQuestLimitsUnlessTheSetIsExperimental() throws {
        let fixed = try RuleFixture.problems("max_unlocks_per_app_per_day = 2,", "max_unlocks_per_app_per_day = 3,", in: "quests.lua")
        #expect(fixed.first?.line == (try line("max_unlocks_per_app_per_day = 2,", "quests.lua")))
        #expect(fixed.first?.message.contains("must be 2 (\"quest max/cooldown fixed to 2 and 15 in v1.1\"), found 3") == true, "\(fixed)")
        // Declared experimental, the same value is accepted (and the proofs follow the new limit).
        var source = try RuleFixture.defaultSource("quests.lua")
        source = source.replacingOccurrences(of: #"M.spec_version = "1.1""#, with: #"M.spec_version = "experimental""#)
            .replacingOccurrences(of: "max_unlocks_per_app_per_day = 2,", with: "max_unlocks_per_app_per_day = 3,")
        let dir = try RuleFixture.folder(replacing: "quests.lua", with: source)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try RuleSet.load(dir.path).quests.quest.maxUnlocksPerAppPerDay == 3)
    }

    @Test func questsInHardModeAreRefused() throws {
        let problems = try RuleFixture.problems("allowed_in = { GENTLE = true, STRICT = true, HARD = false },",
                                                "allowed_in = { GENTLE = true, STRICT = true, HARD = true },", in: "quests.lua")
        #expect(problems.first?.message == "quest.allowed_in.HARD: must be false: quests are DISALLOWED_IN_HARD_MODE (A4.2)", "\(problems)")
    }

    @Test func aQuestRuleThatForgetsTheCooldownIsCaught() throws {
        let problems = try RuleFixture.problems("if since ~= nil and since < M.quest.cooldown_minutes_per_app then return \"COOLDOWN_ACTIVE\" end",
                                                "", in: "quests.lua")
        let first = try #require(problems.first)
        #expect(first.line == (try line("function M.quest_blocked(", "quests.lua")))
        #expect(first.message.contains("allows a quest within the 15-minute cooldown"), "\(first)")
        #expect(first.message.contains("other inputs"), "\(first)")
    }

    @Test func anEmergencyRuleThatAllowsTheSameAppTwiceIsCaught() throws {
        let problems = try RuleFixture.problems("if M.emergency.block_same_app_consecutive and gate.same_app_as_last_emergency then",
                                                "if false then", in: "quests.lua")
        #expect(problems.first?.message.contains("allows the same app twice in a row (SAME_APP_CONSECUTIVE_BLOCKED)") == true, "\(problems)")
    }

    @Test func creditsForShortFocusSessionsAreCaught() throws {
        let problems = try RuleFixture.problems("if session.actual_minutes < M.focus.min_minutes_to_qualify then return 0 end", "", in: "pricing.lua")
        #expect(problems.first?.message.contains("for a session shorter than min_minutes_to_qualify (20)") == true, "\(problems)")
    }

    @Test func carryingMoreThanTheCapIsCaught() throws {
        let problems = try RuleFixture.problems("return math.min(balance, M.rollover_cap)", "return balance", in: "pricing.lua")
        #expect(problems.first?.message.contains("at most rollover_cap (10)") == true, "\(problems)")
    }

    @Test func anUnknownDenialReasonIsCaught() throws {
        let problems = try RuleFixture.problems(#"return "DISALLOWED_IN_HARD_MODE" end"#, #"return "NOT_IN_HARD_MODE" end"#, in: "quests.lua")
        #expect(problems.first?.message.contains("returned string \"NOT_IN_HARD_MODE\", expected nil or one of") == true, "\(problems)")
    }
}

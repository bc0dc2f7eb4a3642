import Foundation
import RulesEngine
import Testing

@Suite struct BrokenEconomyRuleTests {
    func line(_ text: String, _ file: String) throws -> Int { try RuleFixture.line(of: text, in: file) }

    @Test func creditCostsMustIncrease() throws {
        let problems = try RuleFixture.problems("{ minutes = 15, credits = 25 }", "{ minutes = 15, credits = 9 }", in: "pricing.lua")
        #expect(
            problems.map(\.description) == [
                "pricing.lua:\(try line("{ minutes = 15, credits = 25 }", "pricing.lua")): credit_costs[2].credits: must be greater than the 5-minute unlock's 10 (credit costs must be strictly increasing), found 9"
            ])
    }

    // MARK: price(ctx), proved over a bounded domain of situations

    static let priceBody = "    if cost.minutes == ctx.minutes then return cost.credits end\n"

    /// A price that falls for the longest unlock after three unlocks in a day is caught, with the
    /// first situation that shows it, at the function's line.
    @Test func aPriceThatStopsIncreasingWithTheLengthIsCaughtWithItsSituation() throws {
        let problems = try RuleFixture.problems(
            Self.priceBody,
            """
                if ctx.unlocks_today >= 3 and ctx.minutes == 30 then return 20 end
                if cost.minutes == ctx.minutes then return cost.credits end

            """, in: "pricing.lua")
        #expect(
            problems.map(\.description) == [
                "pricing.lua:\(try line("function M.price(", "pricing.lua")): price returned 20 credits for 30 minutes, not more than the 25 for 15 minutes: prices must be strictly increasing with the length (app android:com.example.app, 3 unlocks today (0 of this app), Monday 00:00, mode Focus HARD, streak 365, balance 10) (and 8095 other inputs)"
            ])
    }

    @Test func aPriceOutOfBoundsOrNotAnIntegerIsCaught() throws {
        let late = try RuleFixture.problems(
            Self.priceBody,
            """
                if ctx.hour == 23 and ctx.weekday == 7 and ctx.minutes == 15 then return 20000 end
                if cost.minutes == ctx.minutes then return cost.credits end

            """, in: "pricing.lua")
        #expect(late.first?.message.hasPrefix("price returned 20000 credits for 15 minutes, outside 0…10000") == true, "\(late)")
        #expect(late.first?.message.contains("Sunday 23:00") == true, "\(late)")
        let half = try RuleFixture.problems(
            Self.priceBody, "    if cost.minutes == ctx.minutes then return cost.credits + 0.5 end\n",
            in: "pricing.lua")
        #expect(half.first?.line == (try line("function M.price(", "pricing.lua")), "\(half)")
        #expect(
            half.first?.message.contains("price(5 minutes; app android:com.example.app, 0 unlocks today (0 of this app), Monday 00:00")
                == true, "\(half)")
        #expect(half.first?.message.contains("returned number 10.5, expected an integer") == true, "\(half)")
    }

    @Test func aRuleSetWithoutPriceIsRefused() throws {
        let problems = try RuleFixture.problems("function M.price(ctx)", "function M.old_price(ctx)", in: "pricing.lua")
        #expect(problems.contains { $0.message.contains("price") }, "\(problems)")
    }

    // MARK: Knobs the host cannot read, at the line of their field

    @Test func aKnobThatIsACycleNamesTheFieldThatClosesIt() throws {
        let problems = try RuleFixture.problems(
            "M.rollover_cap = 10\n", "M.rollover_cap = 10\nM.focus_cycle = {}\nM.focus_cycle.self = M.focus_cycle\n",
            in: "pricing.lua")
        #expect(
            problems.map(\.description) == [
                "pricing.lua:\(try line("M.rollover_cap = 10", "pricing.lua") + 2): focus_cycle.self: a cycle: the table focus_cycle contains itself here"
            ])
    }

    @Test func aKnobThatIsNotUTF8NamesItsField() throws {
        let problems = try RuleFixture.problems(
            "M.rollover_cap = 10\n", "M.rollover_cap = 10\nM.credit_costs[1].label = \"\\xff\\xfe\"\n",
            in: "pricing.lua")
        #expect(
            problems.map(\.description) == [
                #"pricing.lua:\#(try line("M.rollover_cap = 10", "pricing.lua") + 1): credit_costs[1].label: expected UTF-8 text, found string "\xFF\xFE""#
            ])
    }

    @Test func aKnobNestedTooDeeplyIsNotCalledACycle() throws {
        let built = try RuleFixture.problems(
            "M.rollover_cap = 10\n", "M.rollover_cap = 10\nlocal t = {}\nfor i = 1, 300 do t = { next = t } end\nM.deep = t\n",
            in: "pricing.lua")
        #expect(
            built.map(\.description) == [
                "pricing.lua:\(try line("M.rollover_cap = 10", "pricing.lua") + 3): deep.next.next…: tables are nested more than 64 levels deep"
            ])
        let written = try RuleFixture.problems(
            "M.rollover_cap = 10\n",
            "M.rollover_cap = 10\nM.deep = " + String(repeating: "{", count: 300)
                + String(repeating: "}", count: 300) + "\n", in: "pricing.lua")
        #expect(
            written.map(\.description) == [
                "pricing.lua:\(try line("M.rollover_cap = 10", "pricing.lua") + 1): tables or blocks are nested more than about 200 levels deep (C stack overflow)"
            ])
    }

    @Test func aRuleFunctionReturningACycleIsReportedWithTheCallAndTheField() throws {
        let problems = try RuleFixture.problems(
            "return math.min(balance, M.rollover_cap)", "local t = { balance }\n  t.me = t\n  return t",
            in: "pricing.lua")
        let at = try line("function M.carried_credits(", "pricing.lua")
        #expect(
            problems.map(\.description) == [
                "pricing.lua:\(at): carried_credits(0): me: in the table returned by the function at line \(at): a cycle: the top-level table contains itself here (and 200 other inputs)"
            ])
    }

    @Test func v11FixesTheQuestLimitsUnlessTheSetIsExperimental() throws {
        let fixed = try RuleFixture.problems("max_unlocks_per_app_per_day = 2,", "max_unlocks_per_app_per_day = 3,", in: "quests.lua")
        #expect(fixed.first?.line == (try line("max_unlocks_per_app_per_day = 2,", "quests.lua")))
        #expect(fixed.first?.message.contains("must be 2 (\"quest max/cooldown fixed to 2 and 15 in v1.1\"), found 3") == true, "\(fixed)")
        // Declared experimental, the same value is accepted (and the proofs follow the new limit).
        let source = try RuleFixture.edited(
            [
                (#"M.spec_version = "1.1""#, #"M.spec_version = "experimental""#),
                ("max_unlocks_per_app_per_day = 2,", "max_unlocks_per_app_per_day = 3,"),
            ], in: "quests.lua")
        let dir = try RuleFixture.folder(replacing: "quests.lua", with: source)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try RuleSet.load(dir.path).quests.quest.maxUnlocksPerAppPerDay == 3)
    }

    @Test func questsInHardModeAreRefused() throws {
        let problems = try RuleFixture.problems(
            "allowed_in = { GENTLE = true, STRICT = true, HARD = false },",
            "allowed_in = { GENTLE = true, STRICT = true, HARD = true },", in: "quests.lua")
        #expect(problems.first?.message == "quest.allowed_in.HARD: must be false: quests are DISALLOWED_IN_HARD_MODE (A4.2)", "\(problems)")
    }

    @Test func aQuestRuleThatForgetsTheCooldownIsCaught() throws {
        let problems = try RuleFixture.problems(
            "if since ~= nil and since < M.quest.cooldown_minutes_per_app then return \"COOLDOWN_ACTIVE\" end",
            "", in: "quests.lua")
        let first = try #require(problems.first)
        #expect(first.line == (try line("function M.quest_blocked(", "quests.lua")))
        #expect(first.message.contains("allows a quest within the 15-minute cooldown"), "\(first)")
        #expect(first.message.contains("other inputs"), "\(first)")
    }

    @Test func anEmergencyRuleThatAllowsTheSameAppTwiceIsCaught() throws {
        let problems = try RuleFixture.problems(
            "if M.emergency.block_same_app_consecutive and gate.same_app_as_last_emergency then",
            "if false then", in: "quests.lua")
        #expect(
            problems.first?.message.contains("allows the same app twice in a row (SAME_APP_CONSECUTIVE_BLOCKED)") == true, "\(problems)")
    }

    @Test func creditsForShortFocusSessionsAreCaught() throws {
        let problems = try RuleFixture.problems(
            "if session.actual_minutes < M.focus.min_minutes_to_qualify then return 0 end", "", in: "pricing.lua")
        #expect(problems.first?.message.contains("for a session shorter than min_minutes_to_qualify (20)") == true, "\(problems)")
    }

    @Test func carryingMoreThanTheCapIsCaught() throws {
        let problems = try RuleFixture.problems("return math.min(balance, M.rollover_cap)", "return balance", in: "pricing.lua")
        #expect(problems.first?.message.contains("at most rollover_cap (10)") == true, "\(problems)")
    }

    @Test func anUnknownDenialReasonIsCaught() throws {
        let problems = try RuleFixture.problems(
            #"return "DISALLOWED_IN_HARD_MODE" end"#, #"return "NOT_IN_HARD_MODE" end"#, in: "quests.lua")
        #expect(problems.first?.message.contains("returned string \"NOT_IN_HARD_MODE\", expected nil or one of") == true, "\(problems)")
    }
}

import Foundation
import LuaHost
@testable import RulesEngine
import RulesModel
import Testing

/// `RuleSet.load(_:overrides:)`: a knob given another value is what the file's functions read, and
/// the variant is validated like the file itself.
@Suite struct KnobOverrideTests {
    let rules = RuleFixture.rulesFolder.path

    @Test func theRuleFunctionsReadTheOverriddenKnob() throws {
        // Tier 3 needs 3 YES days to recover; with recover_after[3] = 1, one is enough.
        let state = EscalationCounters(tier: 3, misses: 0, successes: 0)
        let base = try RuleSet.load(rules, proving: false)
        #expect(try base.transition(state, .yes).tier == 3)
        let variant = try RuleSet.load(rules, overrides: [try KnobOverride(path: "escalation.recover_after[3]", value: 1)])
        #expect(variant.escalation.recoverAfter == [1, 2, 1])
        #expect(try variant.transition(state, .yes).tier == 0)
    }

    @Test func aValueBreakingAConstraintIsAProblemOfTheFileAtTheKnobsLine() throws {
        let override = try KnobOverride(path: "escalation.max_reminders_per_day", value: 4)
        let error = try #require(throws: RuleSetError.self) { try RuleSet.load(rules, overrides: [override]) }
        let problem = try #require(error.problems.first)
        #expect(error.problems.count == 1, "\(error)")
        #expect(problem.file == "escalation.lua")
        #expect(problem.field == "max_reminders_per_day")
        #expect(problem.line == (try RuleFixture.line(of: "M.max_reminders_per_day = 3")))
        #expect(problem.message.contains("found 4"), "\(problem)")
    }

    @Test func inAFolderThatExtendsAnotherTheProblemIsAtTheLineThatWritesTheKnob() throws {
        // examples/graduated-recovery/escalation.lua changes transition only: max_reminders_per_day is rules/escalation.lua's.
        let folder = RuleFixture.rulesFolder.deletingLastPathComponent().appendingPathComponent("examples/graduated-recovery").path
        let override = try KnobOverride(path: "escalation.max_reminders_per_day", value: 4)
        let error = try #require(throws: RuleSetError.self) { try RuleSet.load(folder, overrides: [override]) }
        #expect(error.problems.map(\.file) == ["rules/escalation.lua"], "\(error)")
        #expect(error.problems.first?.line == (try RuleFixture.line(of: "M.max_reminders_per_day = 3")))
    }

    @Test func aKnobTheFileDoesNotHaveOrOfAnotherTypeIsRefused() throws {
        for (path, value, expected) in [
            ("escalation.recover_after[7]", LuaValue.integer(1), "escalation.recover_after[7] does not exist"),
            ("escalation.max_tier", .string("3"), "escalation.max_tier is a number (3), not a string"),
            ("pricing.rollover_cap", .number(2.5), "pricing.rollover_cap is an integer (10); 2.5 is not one"),
        ] {
            let error = try #require(throws: RuleSetError.self) {
                try RuleSet.load(rules, proving: false, overrides: [try KnobOverride(path: path, value: value)])
            }
            #expect(error.problems.map(\.message) == ["--set \(expected)"] || error.description.contains(expected), "\(error)")
        }
        #expect(throws: KnobOverrideError.self) { try KnobOverride(path: "escalaton.max_tier", value: 1) }
        #expect(throws: KnobOverrideError.self) { try KnobOverride(path: "max_tier", value: 1) }
        #expect(throws: KnobOverrideError.self) { try KnobOverride(path: "escalation.max_tier", value: .number(.infinity)) }
    }

    @Test func stringsAndNumbersReachLuaUnchanged() throws {
        // A string with quotes, a backslash, a newline and a digit after an escape; a float that decimal text would round.
        let text = "a\"b\\c\n1é"
        let host = try LuaHost()
        let chunk =
            "local base = { s = 'x', f = 0.5 }\n"
            + KnobOverride.chunk([
                try KnobOverride(path: "escalation.s", value: .string(text)),
                try KnobOverride(path: "escalation.f", value: .number(0.1 + 0.2)),
            ])
        let value = try #require(try host.load(chunk, chunkName: "test.lua").first)
        #expect(value["s"] == .string(text))
        #expect(value["f"] == .number(0.1 + 0.2))
    }
}

import Foundation
import LuaHost
import RulesEngine
import Testing

@Suite struct ModePolicyTests {
    let rules: RuleSet
    init() throws { rules = try RuleSet.load(RuleFixture.rulesFolder.path) }

    func open(_ mask: Int, _ start: Int, _ end: Int, weekday: Int, at minutes: Int) throws -> Bool {
        let out = try rules.host.call(
            rules.modes.windowActive,
            ["days_mask": .integer(Int64(mask)), "start_minutes": .integer(Int64(start)), "end_minutes": .integer(Int64(end))],
            ["weekday": .integer(Int64(weekday)), "minutes": .integer(Int64(minutes))]
        ).first
        return out == .boolean(true)
    }

    @Test func windowsAcrossMidnightBelongToTheDayTheyStart() throws {
        let friday = 1 << 4  // bit 0 Monday … bit 4 Friday
        // Friday 22:00–02:00: open Friday 23:00 and Saturday 01:00, closed Saturday 23:00 and Friday 01:00.
        #expect(try open(friday, 22 * 60, 2 * 60, weekday: 5, at: 23 * 60))
        #expect(try open(friday, 22 * 60, 2 * 60, weekday: 6, at: 60))
        #expect(try !open(friday, 22 * 60, 2 * 60, weekday: 6, at: 23 * 60))
        #expect(try !open(friday, 22 * 60, 2 * 60, weekday: 5, at: 60))
        // Sunday's window spills into Monday.
        #expect(try open(1 << 6, 23 * 60, 60, weekday: 1, at: 30))
        // 09:00–09:00 is the whole day.
        #expect(try open(1, 9 * 60, 9 * 60, weekday: 1, at: 3 * 60))
    }

    @Test func aRuleThatIgnoresPriorityIsCaught() throws {
        let problems = try RuleFixture.problems(
            "        if mode.priority > b.priority\n          or", "        if mode.priority < b.priority\n          or", in: "modes.lua")
        #expect(problems.first?.message.contains("over a mode of higher priority") == true, "\(problems)")
    }

    @Test func aWindowAcrossMidnightThatStaysOpenAllDayIsCaught() throws {
        let problems = try RuleFixture.problems(
            "or (has_day(window.days_mask, previous) and m < e)", "or has_day(window.days_mask, previous)", in: "modes.lua")
        #expect(problems.first?.message.contains("is open outside its hours (a window across midnight)") == true, "\(problems)")
    }

    @Test func strictnessMustBeRankedInOrder() throws {
        let problems = try RuleFixture.problems(
            "M.strictness_rank = { GENTLE = 1, STRICT = 2, HARD = 3 }", "M.strictness_rank = { GENTLE = 3, STRICT = 2, HARD = 1 }",
            in: "modes.lua")
        #expect(problems.first?.message.contains("must rank GENTLE < STRICT < HARD") == true, "\(problems)")
    }
}

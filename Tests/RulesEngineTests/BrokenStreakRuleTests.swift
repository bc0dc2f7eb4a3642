import Foundation
import RulesEngine
import Testing

@Suite struct BrokenStreakRuleTests {
    func problems(_ old: String, _ new: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [RuleProblem] {
        try RuleFixture.problems(old, new, in: "streaks.lua", sourceLocation: sourceLocation)
    }

    func line(_ text: String) throws -> Int { try RuleFixture.line(of: text, in: "streaks.lua") }

    @Test func aMalformedTimeOfDay() throws {
        let found = try problems(#"day_starts_at = "04:00","#, #"day_starts_at = "4 am","#)
        #expect(found.count == 1)
        #expect(found.first?.line == (try line(#"day_starts_at = "04:00","#)))
        #expect(found.first?.message.hasPrefix("earned.day_starts_at: ") == true, "\(found)")
        #expect(found.first?.message.contains("HH:MM") == true, "\(found)")
    }

    @Test func anEarnedDayThatDoesNotStartOnTheHour() throws {
        let found = try problems(#"day_starts_at = "04:00","#, #"day_starts_at = "04:30","#)
        #expect(
            found.map(\.description) == [
                "streaks.lua:\(try line(#"day_starts_at = "04:00","#)): earned.day_starts_at: must be on the hour (the store keeps daily_reset_hour_local, 0–23), found \"04:30\""
            ])
    }

    @Test func aStreakThatCountsMorePeriodsThanThereAre() throws {
        let found = try problems(
            "        streak = streak + 1\n      elseif not running then", "        streak = streak + 2\n      elseif not running then")
        let first = try #require(found.first)
        #expect(first.line == (try line("function M.habit.streak(")))
        #expect(
            first.message.hasPrefix(
                "habit.streak([done 1], daily task, times_per_day 1) returned current 2, outside 0…1 (the number of periods)"), "\(first)")
    }

    /// Each host check of `habit.streak`'s result, broken: reported at the function's line with the
    /// history that breaks it.
    @Test(arguments: [
        (
            "return { current = -1 }",
            "habit.streak([], daily task, times_per_day 1) returned current -1, outside 0…0 (the number of periods)"
        ),
        ("return { current = streak, score = 1.5 }", "habit.streak([], daily task, times_per_day 1) returned score 1.5, outside 0…1"),
        (
            "return { current = streak, best = {} }",
            "habit.streak([done 1], daily task, times_per_day 1) returned no best streak while current is 1"
        ),
        (
            #"if streak > 1 then return { current = streak, best = { { first = "2024-01-01", last = "2024-01-01", length = 1 } } } end return { current = streak }"#,
            "habit.streak([done 1, done 1], daily task, times_per_day 1) returned best streaks at most 1 long, shorter than current 2 (the current streak is one of the best)"
        ),
        (
            #"return { current = streak, best = { { first = "2024-01-02", last = "2024-01-01", length = 1 } } }"#,
            "habit.streak([], daily task, times_per_day 1) returned best[1].length 1, outside 1…0 (the number of periods)"
        ),
        (
            #"if #periods > 0 then return { current = streak, best = { { first = "2024-01-02", last = "2024-01-01", length = 1 } } } end return { current = 0 }"#,
            "habit.streak([open 0], daily task, times_per_day 1) returned best[1]: first 2024-01-02 after last 2024-01-01"
        ),
    ])
    func aStreakResultTheHostRefuses(_ body: String, _ message: String) throws {
        let found = try problems("  return { current = streak }\n", "  \(body)\n")
        let first = try #require(found.first)
        #expect(first.line == (try line("function M.habit.streak(")))
        #expect(first.message.hasPrefix(message), "\(first)")
    }

    @Test func aStreakOfTheWrongType() throws {
        let found = try problems("  return { current = streak }\n", "  return streak\n")
        let first = try #require(found.first)
        #expect(first.line == (try line("function M.habit.streak(")))
        #expect(first.message.contains("where a table was expected"), "\(first)")
    }

    /// A folder written for the old signature is told the new one, at the old function.
    @Test func theOldCurrentStreakFunction() throws {
        let found = try problems("function M.habit.streak(periods, task, user)", "function M.habit.current_streak(periods)")
        #expect(
            found.map(\.description) == [
                "streaks.lua:\(try line("function M.habit.streak(")): habit.current_streak: habit.current_streak(periods) was replaced by habit.streak(periods, task, user), which returns { current = n, best = {…}?, score = x? }: rename it and return a table (see docs/rules.md)"
            ], "\(found)")
    }

    @Test func aLongestStreakThatShrinks() throws {
        let found = try problems("longest_streak = math.max(streak.longest_streak, current)", "longest_streak = current")
        let first = try #require(found.first)
        #expect(first.line == (try line("function M.pressure.next(")))
        #expect(first.message.contains("returned longest_streak"), "\(first)")
    }

    /// The proof of `earned.day_ends` finds a streak grown over a day that did not qualify, at
    /// the function's line, with the day that shows it.
    @Test func aDayEndThatGrowsTheStreak() throws {
        let found = try problems(
            "  return { streak_count = 0, freezes = freezes }\n", "  return { streak_count = day.streak_count + 1, freezes = freezes }\n")
        let first = try #require(found.first)
        #expect(first.line == (try line("function M.earned.day_ends(")))
        #expect(
            first.message.hasPrefix(
                "earned.day_ends(2026-01-05 (weekday 1), qualified nil, streak_count 0, freezes 0) returned streak_count 1 (a day that did not qualify keeps the count, 0, or resets it to 0)"
            ), "\(first)")
    }

    /// Freezes beyond the host's cap, on Sundays only: the proof tries every weekday.
    @Test func aDayEndWithTooManyFreezesOnSundays() throws {
        let found = try problems(
            "  return { streak_count = 0, freezes = freezes }\n",
            "  if day.weekday == 7 then return { streak_count = 0, freezes = 101 } end\n  return { streak_count = 0, freezes = freezes }\n")
        let first = try #require(found.first)
        #expect(
            first.message.hasPrefix(
                "earned.day_ends(2026-01-11 (weekday 7), qualified nil, streak_count 0, freezes 0) returned freezes 101, outside 0…100"),
            "\(first)")
    }

    @Test func aFreezeKnobOutOfRange() throws {
        let max = try problems("freeze_max = 0,", "freeze_max = 101,")
        #expect(
            max.map(\.description) == [
                "streaks.lua:\(try line("freeze_max = 0,")): earned.freeze_max: must be between 0 and 100 freezes, found 101"
            ])
        let every = try problems("freeze_every_days = 7,", "freeze_every_days = 0,")
        #expect(
            every.map(\.description) == [
                "streaks.lua:\(try line("freeze_every_days = 7,")): earned.freeze_every_days: must be at least 1, found 0"
            ])
    }

    /// `day_ends` is a required function of streaks.lua.
    @Test func aFolderWithoutDayEnds() throws {
        let found = try problems("function M.earned.day_ends(day)", "local function day_ends(day)")
        #expect(found.first?.message.contains("earned.day_ends") == true, "\(found)")
    }

    @Test func aQualificationMethodThatDoesNotExist() throws {
        let found = try problems(#"then return "HABITS" end"#, #"then return "HABIT" end"#)
        let first = try #require(found.first)
        #expect(first.message.contains("returned string \"HABIT\", expected \"FOCUS\", \"HABITS\" or nil"), "\(first)")
        #expect(first.message.contains("other inputs"), "\(first)")
    }

    @Test func aBonusOutOfRange() throws {
        let at = "streaks.lua:\(try line("bonus_credits = 10,")): earned.bonus_credits"
        let negative = try problems("bonus_credits = 10,", "bonus_credits = -10,")
        #expect(negative.first?.description == "\(at): must be between 0 and 10000 credits, found -10")
        // The engine refuses a bonus above 10,000: a knob above it made every streak day's events refused.
        let huge = try problems("bonus_credits = 10,", "bonus_credits = 1000000,")
        #expect(huge.first?.description == "\(at): must be between 0 and 10000 credits, found 1000000")
    }

    /// The proof tries every streak a run can reach (up to the longest, 3660 days) against the range
    /// the engine enforces: a bonus out of it for one streak length only was "proved", then refused
    /// every Earned event after that streak with RULE_VIOLATION.
    @Test(arguments: [37, 400, 3660])
    func aBonusOutOfRangeForOneStreakLength(_ streak: Int) throws {
        let found = try problems(
            "function M.earned.bonus(streak_count)\n",
            "function M.earned.bonus(streak_count)\n  if streak_count == \(streak) then return math.maxinteger end\n")
        #expect(
            found.map(\.description) == [
                "streaks.lua:\(try line("function M.earned.bonus(")): earned.bonus(\(streak)) returned integer 9223372036854775807, expected a whole number of credits from 0 to 10000"
            ], "\(found)")
    }

    @Test func whatIsNotProvedIsSaid() throws {
        let rules = try RuleSet.load(RuleFixture.rulesFolder.path)
        #expect(
            rules.unproved.contains("earned.bonus: not proved for streaks above 3660 (3660 days, the longest run)"), "\(rules.unproved)")
        #expect(rules.unproved.contains { $0.hasPrefix("transition: not proved for states reached after day 3660") }, "\(rules.unproved)")
        #expect(rules.unproved.contains { $0.hasPrefix("pressure.next: not proved for streaks reached after day ") }, "\(rules.unproved)")
    }
}

@Suite struct ImpureRuleTests {
    @Test func randomRemindersAreImpure() throws {
        let problems = try RuleFixture.problems(
            "  local times = {}\n", "  local times = {}\n  if math.random() < 0.5 then return { \"12:00\" } end\n")
        #expect(problems.contains { $0.message.contains("reminder_times(") && $0.message.contains("rules must be pure") }, "\(problems)")
    }

    @Test func aStreakWithACounterInAnUpvalueIsImpure() throws {
        let problems = try RuleFixture.problems(
            edits: [
                ("local M = {}\n", "local M = {}\nlocal calls = 0\n"),
                (
                    "function M.miga.current_streak(days)\n  local streak = 0\n",
                    "function M.miga.current_streak(days)\n  calls = calls + 1\n  local streak = calls % 2\n"
                ),
            ], in: "streaks.lua")
        // Refused when the file loads (before, only the purity proof caught it, by calling twice).
        #expect(problems.map(\.file) == ["streaks.lua"], "\(problems)")
        #expect(
            problems.first?.message.hasPrefix("function 'current_streak' assigns to 'calls', a local of the file") == true, "\(problems)")
    }
}

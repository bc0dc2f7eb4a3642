import Foundation
import LuaHost
@testable import RulesEngine
import RulesModel
import Testing

/// streaks.lua's plain values as the engine reads them (`PolicyRules.streakKnobs`): the decoded
/// file's, and the values derived from them.
@Suite struct StreakKnobsTests {
    let rules = RuleFixture.rulesFolder.path

    @Test func theEngineReadsTheDecodedFilesValues() throws {
        let base = try RuleSet.load(rules, proving: false)
        #expect(base.streakKnobs == base.streaks.knobs)
        #expect(base.streakKnobs.habit.minCompletions == 1 && !base.streakKnobs.habit.requireTimesPerDay)
        #expect(base.streakKnobs.earned.dayStartsAt == LocalTime(hour: 4, minute: 0))
        let variant = try RuleSet.load(
            rules, proving: false,
            overrides: [
                try KnobOverride(path: "streaks.habit.min_completions", value: 2),
                try KnobOverride(path: "streaks.earned.day_starts_at", value: .string("05:00")),
            ])
        #expect(variant.streakKnobs.habit.minCompletions == 2)
        #expect(variant.streakKnobs.earned.dayStartsAt == LocalTime(hour: 5, minute: 0))
        #expect(variant.streakKnobs.pressure == base.streakKnobs.pressure && variant.streakKnobs.miga == base.streakKnobs.miga)
    }

    /// A period is done with `min_completions`, raised to the task's times per day only under `require_times_per_day`.
    @Test func theCompletionsAPeriodNeeds() {
        var habit = NativeReference.streaks.habit
        habit.minCompletions = 2
        #expect(habit.neededCompletions(timesPerDay: 1) == 2)
        #expect(habit.neededCompletions(timesPerDay: 5) == 2)
        habit.requireTimesPerDay = true
        #expect(habit.neededCompletions(timesPerDay: 1) == 2)
        #expect(habit.neededCompletions(timesPerDay: 5) == 5)
    }

    /// The freeze policy is on when `freeze_max` is above 0.
    @Test func theFreezePolicyIsOnWithAFreezeToHold() {
        var earned = NativeReference.streaks.earned
        #expect(!earned.freezesOn)
        earned.freezeMax = 1
        #expect(earned.freezesOn)
    }
}

import Foundation
import PropertyBased
import RulesEngine
import RulesModel
import RulesSim
import Testing

/// The default Lua rules (`rules/`) and `NativeReference` make the same decisions: the same
/// parameters, and the same answers on random histories and random streak inputs.
///
/// Every property runs on fixed seeds (`SeededCases`): the cases are the same on every run, and a
/// failure prints the shrunk input, day by day, and the shrunk history as a replay file
/// (`ReplayScript.failureReport`). 4 seeds × 2,500 histories of 30–90 days = 10,000.
@Suite(.shrinking) struct NativeReferenceTests {
    static let historySeeds: [UInt64] = [0x5EED_0001, 0x5EED_0002, 0x5EED_0003, 0x5EED_0004]
    static let historiesPerSeed = 2_500

    func defaultRules() throws -> RuleSet { try RuleSet.load(Repository.rules.path) }

    @Test func theKnobsAreTheDefaultRuleSets() throws {
        let rules = try defaultRules()
        let native = NativeReference()
        #expect(native.escalationKnobs == rules.escalationKnobs && native.streakKnobs == rules.streakKnobs)
        #expect(NativeReference.escalation == rules.escalation.knobs)
        #expect(NativeReference.streaks == rules.streaks.knobs)
    }

    /// The economy's values are the decoded policies' type: the reference's are pricing.lua's and
    /// quests.lua's, value for value (retention included), and the engine reads them the same way.
    @Test func theEconomyKnobsAreTheDefaultPolicies() throws {
        let rules = try defaultRules()
        let native = NativeReference()
        #expect(NativeReference.pricing == rules.pricing.knobs)
        #expect(NativeReference.quests == rules.quests.knobs)
        #expect(native.pricingKnobs == rules.pricingKnobs && native.questKnobs == rules.questKnobs)
        #expect(NativeReference.quests.retention.policy == rules.quests.retention.policy)
    }

    /// Every end of an Earned day of a week, qualified or not, streaks 0…10, holding 0…2 freezes.
    @Test func earnedDayEndsAgree() throws {
        let rules = try defaultRules()
        let native = NativeReference()
        let monday = try DayID("2026-03-02")
        for weekday in 0..<7 {
            for qualified in [nil, StreakQualificationMethod.focus, .habits] {
                for streak in 0...10 {
                    for freezes in 0...2 {
                        let day = EarnedDayEnd(
                            date: monday.adding(days: weekday)!, qualified: qualified, streakCount: streak, freezes: freezes)
                        let lua = try rules.earnedDayEnds(day)
                        let swift = try native.earnedDayEnds(day)
                        #expect(lua == swift, "earnedDayEnds(\(day.text)): rules/ \(lua), NativeReference \(swift)")
                    }
                }
            }
        }
    }

    /// The escalation document's own examples, through the reference alone.
    @Test func theReferenceFollowsThePseudoCode() throws {
        let native = NativeReference()
        func tiers(_ results: [CommitmentStatus]) throws -> [Int] {
            var state = EscalationCounters(tier: 0, misses: 0, successes: 0)
            return try results.map {
                state = try native.transition(state, $0); return state.tier
            }
        }
        #expect(try tiers([.no, .missed, .no, .yes, .yes, .yes]) == [1, 2, 3, 3, 3, 0])
        #expect(try tiers([.no, .no, .no, .yes, .no]) == [1, 2, 3, 3, 1])
        #expect(try tiers([.no, .no, .yes, .yes]) == [1, 2, 2, 0])
        let nine = LocalTime(hour: 9, minute: 0), ten = LocalTime(hour: 22, minute: 0)
        #expect(try native.reminderTimes(tier: 0, open: nine, close: ten).map(\.text) == ["15:30"])
        #expect(try native.reminderTimes(tier: 1, open: nine, close: ten).map(\.text) == ["15:30", "21:00"])
        #expect(try native.reminderTimes(tier: 3, open: nine, close: ten).map(\.text) == ["15:30", "20:00", "21:30"])
    }

    // MARK: Random histories

    @Test(arguments: historySeeds)
    func theDefaultRulesAndTheReferenceAgreeOnRandomHistories(seed: UInt64) async throws {
        let comparison = HistoryComparison(left: ("rules/", try defaultRules()), right: ("NativeReference", NativeReference()))
        await propertyCheck(count: Self.historiesPerSeed, input: SeededCases.histories(HistoryGenerator(seed: seed))) { history in
            if let difference = comparison.firstDifference(in: history) {
                Issue.record("\(difference)\n\(ReplayScript.failureReport(history))\(SeededCases.replayNote(seed: seed))")
            }
        }
    }

    /// What a failing history test prints: the day-by-day difference and a replay file that
    /// `rulesrun replay` runs (here with a rule set that differs, standing in for a broken reference).
    @Test func aFailingHistoryPrintsItsReplayFile() throws {
        let other = try RuleSet.load(Repository.graduatedRecovery.path)
        let comparison = HistoryComparison(left: ("rules/", try defaultRules()), right: ("graduated", other))
        let generator = HistoryGenerator(seed: 0x5EED_0001, days: 30...30, freshStart: true)
        let failing = try #require((0..<100).lazy.map { generator.history(case: $0) }.first { comparison.firstDifference(in: $0) != nil })
        let shrunk = Shrinker<PressureHistory>(candidates: { HistoryGenerator.shrink($0) })
            .shrink(failing) { comparison.firstDifference(in: $0) != nil }.value
        let report = ReplayScript.failureReport(shrunk)
        let events = report.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(events.count == ReplayScript(shrunk).lines.count && events.count >= 3, "\(report)")
        // Every event line is one the engine accepts.
        for line in events { #expect((try? EngineEvent.parse(String(line))) != nil, "\(line)") }
        #expect(shrunk.days.count <= 4, "\(shrunk)")
    }

    // MARK: Random streak inputs

    @Test func habitStreaksAgree() async throws {
        let rules = try defaultRules()
        let native = NativeReference()
        await propertyCheck(count: 2_000, input: StreakInputGenerator.habitPeriods(seed: 0x4AB1_7001)) { periods in
            for times in 1...3 {
                let task = HabitTaskRecord(
                    name: "read", measurement: .daily, timesPerDay: times, startDate: try periods.last?.start ?? DayID("2026-01-31"))
                let user = HabitUserRecord(timezone: "Europe/Paris", dayStartsAt: LocalTime(hour: 0, minute: 0))
                let lua = try rules.habitStreak(periods, task: task, user: user)
                let swift = try native.habitStreak(periods, task: task, user: user)
                #expect(
                    lua == swift,
                    "habitStreak(\(periods.map { "\($0.completions)\($0.scheduled ? "" : " unscheduled")" }), times_per_day \(times)): rules/ \(lua), NativeReference \(swift)"
                )
            }
        }
    }

    @Test func migaStreaksAgree() async throws {
        let rules = try defaultRules()
        let native = NativeReference()
        await propertyCheck(count: 2_000, input: StreakInputGenerator.migaDays(seed: 0x3167_A001)) { days in
            let lua = try rules.migaStreak(days)
            let swift = try native.migaStreak(days)
            #expect(lua == swift, "migaStreak(\(days)): rules/ \(lua), NativeReference \(swift)")
        }
    }

    @Test func earnedQualificationsAgree() async throws {
        let rules = try defaultRules()
        let native = NativeReference()
        await propertyCheck(count: 2_000, input: StreakInputGenerator.earnedDays(seed: 0xEA27_ED01)) { day in
            let lua = try rules.earnedQualification(focusMinutes: day.focusMinutes, habitCompletions: day.habitCompletions)
            let swift = try native.earnedQualification(focusMinutes: day.focusMinutes, habitCompletions: day.habitCompletions)
            #expect(
                lua == swift,
                "earnedQualification(focusMinutes: \(day.focusMinutes), habitCompletions: \(day.habitCompletions)): rules/ \(String(describing: lua)), NativeReference \(String(describing: swift))"
            )
        }
    }

    @Test func earnedBonusesAgree() async throws {
        let rules = try defaultRules()
        let native = NativeReference()
        await propertyCheck(count: 1_000, input: StreakInputGenerator.streakCounts(seed: 0xB0_2501)) { count in
            let lua = try rules.earnedBonus(streakCount: count)
            let swift = try native.earnedBonus(streakCount: count)
            #expect(lua == swift, "earnedBonus(streakCount: \(count)): rules/ \(lua), NativeReference \(swift)")
        }
    }
}

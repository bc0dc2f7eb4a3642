import Testing

/// examples/loop-habits (Loop Habit Tracker) against the test cases of iSoron/uhabits, each file
/// replayed through the real CLI (examples/loop-habits/tests/: the events and the expected values).
/// Not ported, and why: ScoreTest.test_compute_* (a pure function of a given previous score: only the
/// 0 → 0.051922 step is reachable from events, checked in every S20 case); NumericalAt*ScoreListTest.
/// test_withZeroTarget (a goal_value must be > 0); YesNoScoreListTest.test_irregularNonDaily of
/// commonMain (weeks from Sunday: the example's calendar weeks start on Saturday, as Loop's other
/// tests; the old core's rolling variant is ported); EntryListTest.testAddFromInterval and testSnapIntervalsTogether2 (they give intervals directly, which events
/// cannot; testSnapIntervalsTogether1 is derived from checks that make its intervals), testComputeNumerical,
/// testGroupBy*, testEmptyList, testWeekdayFrequency (storage and statistics, not the streak).
@Suite struct LoopHabitsExampleTests {
    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: NumericalAtLeastScoreListTest.shouldAchieveComparableScoreToProgress.
    @Test func atleastComparableToProgress() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/atleast-comparableToProgress.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: NumericalAtLeastScoreListTest.test_getValue.
    @Test func atleastGetValue() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/atleast-getValue.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: NumericalAtLeastScoreListTest.shouldAchieveHighScoreInReasonableTime.
    @Test func atleastHighScoreInReasonableTime() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/atleast-highScoreInReasonableTime.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: NumericalAtLeastScoreListTest.overeachievingIsntRelevant.
    @Test func atleastOverachieving() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/atleast-overachieving.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: NumericalAtLeastScoreListTest.test_recompute.
    @Test func atleastRecompute() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/atleast-recompute.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: NumericalAtLeastScoreListWithSkipTest.skipsShouldNotAffectScore.
    @Test func atleastSkipsDoNotAffectScore() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/atleast-skipsDoNotAffectScore.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: NumericalAtLeastScoreListWithSkipTest.test_getValue.
    @Test func atleastWithSkip() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/atleast-withSkip.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: NumericalAtMostScoreListTest.shouldAchieveComparableScoreToProgress.
    @Test func atmostComparableToProgress() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/atmost-comparableToProgress.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: NumericalAtMostScoreListTest.test_getValue.
    @Test func atmostGetValue() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/atmost-getValue.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: NumericalAtMostScoreListTest.overeachievingIsntRelevant.
    @Test func atmostOverachieving() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/atmost-overachieving.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: NumericalAtMostScoreListTest.test_recompute.
    @Test func atmostRecompute() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/atmost-recompute.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: NumericalAtMostScoreListTest.undereachievingIsntRelevant.
    @Test func atmostUndereachieving() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/atmost-undereachieving.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/EntryListTest.kt: EntryListTest.testBuildIntervals1.
    @Test func entriesBuildIntervals1Weeks() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/entries-buildIntervals1-weeks.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/EntryListTest.kt: EntryListTest.testBuildIntervals2.
    @Test func entriesBuildIntervals2() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/entries-buildIntervals2.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/EntryListTest.kt: EntryListTest.testBuildIntervals3.
    @Test func entriesBuildIntervals3Weeks() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/entries-buildIntervals3-weeks.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/EntryListTest.kt: EntryListTest.testBuildIntervals4.
    @Test func entriesBuildIntervals4() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/entries-buildIntervals4.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/EntryListTest.kt: EntryListTest.testComputeBoolean.
    @Test func entriesComputeBoolean() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/entries-computeBoolean.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/EntryListTest.kt: EntryListTest.testSnapIntervalsTogether1 (derived.
    @Test func entriesSnapIntervalsTogether1() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/entries-snapIntervalsTogether1.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/StreakListTest.kt: StreakListTest.testGetCurrentStreak_brokenTwoDaysAgo.
    @Test func streaksCurrentBrokenTwoDaysAgo() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/streaks-currentBrokenTwoDaysAgo.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/StreakListTest.kt: StreakListTest.testGetCurrentStreak_completedToday.
    @Test func streaksCurrentCompletedToday() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/streaks-currentCompletedToday.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/StreakListTest.kt: StreakListTest.testGetCurrentStreak_completedYesterdayNotToday.
    @Test func streaksCurrentCompletedYesterday() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/streaks-currentCompletedYesterday.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/StreakListTest.kt: StreakListTest.testGetCurrentStreak_empty.
    @Test func streaksCurrentEmpty() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/streaks-currentEmpty.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/StreakListTest.kt: StreakListTest.testGetBest.
    @Test func streaksGetBest() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/streaks-getBest.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/StreakListTest.kt: StreakListTest.testGetBest_withUnknowns.
    @Test func streaksGetBestWithUnknowns() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/streaks-getBestWithUnknowns.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: YesNoScoreListTest.test_addThenRemove.
    @Test func yesnoAddThenRemove() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/yesno-addThenRemove.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: YesNoScoreListTest.test_getValue.
    @Test func yesnoGetValue() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/yesno-getValue.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: YesNoScoreListTest.test_getValueWithSkip.
    @Test func yesnoGetValueWithSkip() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/yesno-getValueWithSkip.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: YesNoScoreListTest.test_getValueWithSkip2.
    @Test func yesnoGetValueWithSkip2() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/yesno-getValueWithSkip2.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: YesNoScoreListTest.shouldAchieveHighScoreInReasonableTime.
    @Test func yesnoHighScoreInReasonableTime() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/yesno-highScoreInReasonableTime.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/jvmTest/java/org/isoron/uhabits/core/models/ScoreListTest.kt: jvmTest YesNoScoreListTest.test_imperfectNonDaily (the rolling Frequency(3, 7) of the old core; commonMain's calendar-week mode is not ported).
    @Test func yesnoImperfectNonDailyRolling() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/yesno-imperfectNonDaily-rolling.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: YesNoScoreListTest.test_imperfectNonDaily.
    @Test func yesnoImperfectNonDailyWeeks() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/yesno-imperfectNonDaily-weeks.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/jvmTest/java/org/isoron/uhabits/core/models/ScoreListTest.kt: jvmTest YesNoScoreListTest.test_irregularNonDaily (the rolling 1/7 of the old core).
    @Test func yesnoIrregularNonDailyRolling() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/yesno-irregularNonDaily-rolling.jsonl", rules: "examples/loop-habits")
    }

    /// iSoron/uhabits uhabits-core/src/commonTest/kotlin/org/isoron/uhabits/core/models/ScoreListTest.kt: YesNoScoreListTest.test_recompute.
    @Test func yesnoRecompute() throws {
        try PeerReplayCheck.check("examples/loop-habits/tests/yesno-recompute.jsonl", rules: "examples/loop-habits")
    }
}

import Testing

/// examples/habitica-dailies (Habitica's dailies) replayed through the real CLI against the cases of
/// examples/habitica-dailies/tests/: ported from HabitRPG/habitica's test/common/shouldDo.test.js and
/// test/common/ops/scoreTask.test.js where they are about streaks, derived from cron.js and scoreTask.js
/// where Habitica's tests assert no streak (its cron tests check HP, not task.streak). Not expressible:
/// weekly every-X-weeks, monthly n-th weekday and yearly repeats (no such frequency), sleeping, stealth,
/// challenge dailies, HP damage and the 21-day achievement (no such input or output).
@Suite struct HabiticaDailiesExampleTests {
    /// Derived from HabitRPG/habitica website/common/script/ops/scoreTask.js: checking a daily adds 1 to its streak whether it is due or not (scoreTask does not read isDue).
    @Test func checkOnNonDueDay() throws {
        try PeerReplayCheck.check("examples/habitica-dailies/tests/check-on-non-due-day.jsonl", rules: "examples/habitica-dailies")
    }

    /// Ported from HabitRPG/habitica test/common/shouldDo.test.js "Custom Day Start" (CDS 7: 01:00 is still yesterday, 09:00 is today): with day_starts_at 07:00 a check at 01:00 on 05-03 is 05-02's, so no day is missed.
    @Test func customDayStart() throws {
        try PeerReplayCheck.check("examples/habitica-dailies/tests/custom-day-start.jsonl", rules: "examples/habitica-dailies")
    }

    /// Ported from HabitRPG/habitica test/common/shouldDo.test.js "Every X Days" ("returns false on days between intervals", "returns true on multiples of x"): every 2 days from 2017-05-01, the days between are not due and never break the streak; a due day missed (05-07) does.
    @Test func everyXDays() throws {
        try PeerReplayCheck.check("examples/habitica-dailies/tests/every-x-days.jsonl", rules: "examples/habitica-dailies")
    }

    /// Derived (peers17.md §2.4 case b) from HabitRPG/habitica website/common/script/ops/scoreTask.js (`if (!user.stats.buffs.streaks …) task.streak = 0`) and content/spells.js (frost): Chilling Frost on the missed due day keeps the streak.
    @Test func frostKeepsStreak() throws {
        try PeerReplayCheck.check("examples/habitica-dailies/tests/frost-keeps-streak.jsonl", rules: "examples/habitica-dailies")
    }

    /// Derived (peers17.md §2.4 case a) from HabitRPG/habitica website/server/libs/cron.js (cron: a due daily left unchecked is scored down) and website/common/script/ops/scoreTask.js (cron "down" sets task.streak = 0).
    @Test func missedDueDayResets() throws {
        try PeerReplayCheck.check("examples/habitica-dailies/tests/missed-due-day-resets.jsonl", rules: "examples/habitica-dailies")
    }

    /// Derived (peers17.md §2.4 case c) from HabitRPG/habitica website/common/script/cron.js shouldDo ("Certain Days of the Week": due only on the repeat days) and server cron.js (only a due day is scored down): a daily on Mon/Wed/Fri keeps its streak over Tuesday, Thursday and the weekend.
    @Test func notDueNeverBreaks() throws {
        try PeerReplayCheck.check("examples/habitica-dailies/tests/not-due-never-breaks.jsonl", rules: "examples/habitica-dailies")
    }

    /// Ported from HabitRPG/habitica test/common/ops/scoreTask.test.js ("checks that the streak parameters affects the score": scored up twice, streak 2) and derived (peers17.md §2.4 case h): an uncheck takes 1 back.
    @Test func uncheckTakesBack() throws {
        try PeerReplayCheck.check("examples/habitica-dailies/tests/uncheck-takes-back.jsonl", rules: "examples/habitica-dailies")
    }
}

import Testing

/// examples/duolingo-streak (Duolingo's streak) replayed through the real CLI against the cases of
/// examples/duolingo-streak/tests/ (Duolingo publishes no source nor tests: each case says whether it is
/// documented by the help center, community-reported or assumed; peers17.md §3).
@Suite struct DuolingoStreakExampleTests {
    /// Documented ("You can equip up to 2 streak freezes at a time"; peers17.md §3 case d): a third freeze equipped is not held, so three missed days break the streak; a task with params.freeze_max 3 keeps it.
    @Test func freezeMax() throws {
        try PeerReplayCheck.check("examples/duolingo-streak/tests/freeze-max.jsonl", rules: "examples/duolingo-streak")
    }

    /// Community-reported (forum threads 20393493, 25241550; peers17.md §3 case b): a freeze equipped in advance is used on the missed day; the streak stays 5, then goes on to 6.
    @Test func freezeUsedAutomatically() throws {
        try PeerReplayCheck.check("examples/duolingo-streak/tests/freeze-used-automatically.jsonl", rules: "examples/duolingo-streak")
    }

    /// Documented (Duolingo Help Center, "What is a streak?"; peers17.md §3 case a): 5 days with a lesson, today not done yet: the streak is 5, not broken.
    @Test func openToday() throws {
        try PeerReplayCheck.check("examples/duolingo-streak/tests/open-today.jsonl", rules: "examples/duolingo-streak")
    }

    /// Assumed (peers17.md §3 case g: a repair within repair_window_days = 1): the missed day, completed the day after it (for_day), counts again and the streak is restored.
    @Test func repairWithinWindow() throws {
        try PeerReplayCheck.check("examples/duolingo-streak/tests/repair-within-window.jsonl", rules: "examples/duolingo-streak")
    }

    /// Community-reported (forum threads 24410478, 25466984; peers17.md §3 case c): two missed days need two freezes: task a holds 2 and keeps its streak, task b holds 1 and loses it on the second day.
    @Test func twoMisses() throws {
        try PeerReplayCheck.check("examples/duolingo-streak/tests/two-misses.jsonl", rules: "examples/duolingo-streak")
    }

    /// Documented ("a streak freeze must be purchased in advance of a day of a missed lesson"; peers17.md §3 case e): a freeze equipped the day after the miss does not save the streak; it is held for the next miss.
    @Test func freezeAfterTheMiss() throws {
        try PeerReplayCheck.check("examples/duolingo-streak/tests/freeze-after-the-miss.jsonl", rules: "examples/duolingo-streak")
    }
}

import Foundation
import Testing

/// examples/duolingo-streak (Duolingo's streak) replayed through the real CLI against the cases of
/// examples/duolingo-streak/tests/ (Duolingo publishes no source nor tests: each case says whether it is
/// documented by the help center, community-reported or assumed; peers17.md §3).
@Suite struct DuolingoStreakExampleTests {
    /// `rulesrun test examples/duolingo-streak --no-inherit` runs every case (a scenario file each, whose lines'
    /// `expect` hold the peer's expected values) and all of them pass.
    @Test func everyCasePasses() throws {
        try PeerCases.checkAllPass("duolingo-streak", cases: Self.cases)
    }

    /// The cases, one scenario file each in examples/duolingo-streak/tests/ (where each comes from is in its header).
    static let cases = [
        "freeze-max",
        "freeze-used-automatically",
        "open-today",
        "repair-within-window",
        "two-misses",
        "freeze-after-the-miss",
        "no-streak-keeps-freeze",
    ]
}

import Foundation
import Testing

/// examples/habitica-dailies (Habitica's dailies) replayed through the real CLI against the cases of
/// examples/habitica-dailies/tests/: ported from HabitRPG/habitica's test/common/shouldDo.test.js and
/// test/common/ops/scoreTask.test.js where they are about streaks, derived from cron.js and scoreTask.js
/// where Habitica's tests assert no streak (its cron tests check HP, not task.streak). Not expressible:
/// weekly every-X-weeks, monthly n-th weekday and yearly repeats (no such frequency), sleeping, stealth,
/// challenge dailies, HP damage and the 21-day achievement (no such input or output).
@Suite struct HabiticaDailiesExampleTests {
    /// `rulesrun test examples/habitica-dailies --no-inherit` runs every case (a scenario file each, whose lines'
    /// `expect` hold the peer's expected values) and all of them pass.
    @Test func everyCasePasses() throws {
        try PeerCases.checkAllPass("habitica-dailies", cases: Self.cases)
    }

    /// The cases, one scenario file each in examples/habitica-dailies/tests/ (where each comes from is in its header).
    static let cases = [
        "check-on-non-due-day",
        "cron-judges-only-yesterday",
        "custom-day-start",
        "day-31-not-due-in-short-months",
        "every-x-days",
        "frost-keeps-streak",
        "missed-due-day-resets",
        "not-due-never-breaks",
        "record-yesterdays-activity",
        "second-check-refused",
        "uncheck-takes-back",
    ]
}

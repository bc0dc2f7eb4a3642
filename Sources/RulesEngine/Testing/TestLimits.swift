/// The bounds of one run of a rule folder's tests (`rulesrun test`, each cycle of `rulesrun
/// watch`), so that whatever the tests do the run ends, in bounded memory, naming the test that
/// reached a bound. Each call a test makes already has the rules' budgets (instructions and
/// memory, `LuaLimits`); what these bound is how many calls a test makes (a property's cases and
/// shrink candidates, a scenario's lines), how many tests run, and the text their results keep.
package struct TestLimits: Sendable {
    /// The most time one test may take: a property's cases and its shrinking, a scenario's lines.
    /// When it is reached the test stops (an ERROR; a property that broke during shrinking still
    /// FAILs, with the smallest failing case found so far).
    package var testTime: Duration
    /// The most time the whole run may take. When it is reached the test running stops as at its
    /// own limit, and the tests after it are not run (one ERROR, `(not run)`, says how many).
    package var runTime: Duration
    /// The options that set them, named in the messages of a limit reached (`rulesrun test`'s
    /// `--test-timeout` and `--timeout`); nil where they cannot be set.
    package var options: (test: String, run: String)?

    package static let defaultTestSeconds = 60
    package static let defaultRunSeconds = 300
    /// The largest limit accepted, in seconds: a day.
    package static let maxSeconds = 86_400

    /// What one test keeps of what it prints, and a run of what all its tests print, in bytes:
    /// past either, the lines are counted, not kept (`PrintCapture`).
    package static let printedBytesPerTest = 64 << 10
    package static let printedBytesPerRun = 1 << 20
    /// The longest line of a failure kept, in characters (a Lua error message can be megabytes long).
    package static let failureLineCharacters = 4_096

    package init(testSeconds: Int = defaultTestSeconds, runSeconds: Int = defaultRunSeconds, options: (test: String, run: String)? = nil) {
        testTime = .seconds(testSeconds)
        runTime = .seconds(runSeconds)
        self.options = options
    }

    /// `its time limit (60 s, --test-timeout)`.
    var testLimitText: String { "its time limit (\(testTime.components.seconds) s\(options.map { ", " + $0.test } ?? ""))" }
    /// `the run's time limit (300 s, --timeout)`.
    var runLimitText: String { "the run's time limit (\(runTime.components.seconds) s\(options.map { ", " + $0.run } ?? ""))" }

    /// When the test running must stop: the earlier of its own limit and the run's.
    package struct Deadline: Sendable {
        package let instant: ContinuousClock.Instant
        /// The limit that sets it, as a message names it: `its time limit (60 s, --test-timeout)`.
        package let limit: String

        package var hasPassed: Bool { ContinuousClock.now >= instant }

        /// No deadline (a test run outside `RuleTestRunner`).
        package static let none = Deadline(instant: .now + .seconds(maxSeconds * 365), limit: "no time limit")
    }

    /// The clock of one run: when it started, and the deadline of each test in it.
    struct Clock: Sendable {
        let limits: TestLimits
        let runEnd: ContinuousClock.Instant

        init(_ limits: TestLimits, start: ContinuousClock.Instant = .now) {
            self.limits = limits
            runEnd = start + limits.runTime
        }

        var runIsOver: Bool { ContinuousClock.now >= runEnd }

        /// The deadline of a test that starts now.
        func deadlineOfTest() -> Deadline {
            let own = ContinuousClock.now + limits.testTime
            if runEnd <= own { return Deadline(instant: runEnd, limit: limits.runLimitText) }
            return Deadline(instant: own, limit: limits.testLimitText)
        }
    }
}

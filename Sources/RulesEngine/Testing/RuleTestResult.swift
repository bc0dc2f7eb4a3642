import LuaHost

/// The outcome of one test of `rulesrun test`: a `test_*` function of a Lua test file, or a
/// scenario file.
package struct RuleTestResult: Sendable {
    package enum Outcome: String, Sendable {
        case passed = "PASS"
        case failed = "FAIL"
        /// The test file could not be run at all (it does not load, or it is not a valid scenario):
        /// invalid input, not a failed expectation.
        case error = "ERROR"
        /// An inherited test the folder skips (`skip`): not run.
        case skipped = "SKIP"
        /// An inherited test the folder expects to fail (`expect_failure`), which failed.
        case expectedFailure = "XFAIL"
        /// An inherited test the folder expects to fail, which passed: it fails the run.
        case unexpectedPass = "XPASS"

        /// Whether the run fails with it (exit status 1 or 2).
        package var failsTheRun: Bool { self == .failed || self == .error || self == .unexpectedPass }
    }

    /// The file as the output names it: `tests/streaks_test.lua`, or `rules/tests/streaks_test.lua`
    /// for a test inherited from the folder an `extends` file names.
    package let file: String
    /// The line the test function starts at (1 for a scenario, which is the whole file).
    package let line: Int
    /// The function's name (`test_habit_grace`), or the scenario file's name without `.jsonl`.
    package let name: String
    /// The rule folder the test comes from (the folder under test itself, or a base it extends).
    package let folder: String
    package let outcome: Outcome
    /// Why it failed: the lines to show under it (`tests/x.lua:12: expect_eq: …`), each at most
    /// `TestLimits.failureLineCharacters` characters (longer ones are cut, saying their length).
    package let failure: [String]
    /// What the test (or the rules it called) printed, in order.
    package let printed: [String]
    /// Wall-clock milliseconds (shown, never compared).
    package let milliseconds: Double
    /// For a property (`prop_*`), the cases it was run on.
    package let cases: Int?
    /// For a failed test or scenario, the rule calls it made (its failing line's, for a scenario),
    /// from a second run that explains (`RuleTestRunner.run(explain:)`); for a failed property,
    /// those of its minimal case (`PropertyRunner`'s `explain`); nil when not asked for.
    package internal(set) var explanation: FailureExplanation?
    /// For an inherited test the folder marks (skipped, expected to fail), the mark.
    package internal(set) var mark: TestMark?

    package init(
        file: String, line: Int, name: String, folder: String, outcome: Outcome, failure: [String] = [], printed: [String] = [],
        milliseconds: Double = 0, cases: Int? = nil
    ) {
        self.file = file
        self.line = line
        self.name = name
        self.folder = folder
        self.outcome = outcome
        // A failure's text comes from the test (a Lua error message can be megabytes long): each line cut.
        self.failure = failure.map { SourceFile.excerpt($0, limit: TestLimits.failureLineCharacters) }
        self.printed = printed
        self.milliseconds = milliseconds
        self.cases = cases
    }

    /// `tests/streaks_test.lua:12`.
    package var location: String { "\(file):\(line)" }

    /// The result of a test that `mark` marks: skipped (`result` is then the test not run), or
    /// expected to fail: a failure is expected, a pass is not (an error stays one).
    func marked(_ mark: TestMark) -> RuleTestResult {
        let outcome: Outcome
        switch (mark.kind, self.outcome) {
        case (.skip, _): outcome = .skipped
        case (.expectFailure, .failed): outcome = .expectedFailure
        case (.expectFailure, .passed): outcome = .unexpectedPass
        default: return self
        }
        var result = RuleTestResult(
            file: file, line: line, name: name, folder: folder, outcome: outcome, failure: failure, printed: printed,
            milliseconds: milliseconds, cases: cases)
        result.mark = mark
        return result
    }
}

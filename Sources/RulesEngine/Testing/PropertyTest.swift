import Foundation
import LuaHost

/// A property of a Lua test file: a global function whose name starts with `prop_`, with the
/// generator its file's `cases` table gives it (`cases.prop_x = gen.int(0, 10)`, nil when the
/// file names none). `rulesrun test` hands it to a `PropertyRunning` that draws the cases.
package struct PropertyTest {
    package let name: String
    package let function: LuaFunction
    /// `cases[name]` as the file wrote it.
    package let cases: LuaValue
    /// The test file (`tests/x_test.lua`), where it is, and the folder it comes from.
    package let file: String
    package let url: URL
    package let folder: String
    /// The rule folder under test.
    package let rules: String
    /// That rule set as it was validated, when the runner has it (``RuleSnapshot``).
    package let snapshot: RuleSnapshot?

    /// The global table of a test file that names each property's generator.
    package static let casesTable = "cases"

    /// A result of this property.
    package func result(
        _ outcome: RuleTestResult.Outcome, _ failure: [String] = [], printed: [String] = [], cases: Int? = nil, milliseconds: Double = 0,
        explanation: FailureExplanation? = nil
    ) -> RuleTestResult {
        var result = RuleTestResult(
            file: file, line: function.line, name: name, folder: folder, outcome: outcome, failure: failure, printed: printed,
            milliseconds: milliseconds, cases: cases)
        result.explanation = explanation
        return result
    }
}

/// Runs the properties of the test files (`RulesSim.PropertyRunner`: it draws values and
/// histories, replays histories through the engine and shrinks a failing case).
package protocol PropertyRunning {
    /// Runs `property` in `host` (the test file's), against the rule set of `property.rules`,
    /// starting no case and trying no shrink candidate once `deadline` has passed.
    func run(_ property: PropertyTest, in host: LuaHost, until deadline: TestLimits.Deadline) -> RuleTestResult
}

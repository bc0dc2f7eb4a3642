import RulesEngine

/// A simulation's input files (personas, the team's metrics) that could not be loaded or that
/// failed while running, with every problem as `file:line: message`.
package struct InputFileError: Error, CustomStringConvertible, Sendable {
    package var problems: [RuleProblem]

    package init(problems: [RuleProblem]) { self.problems = problems }

    package init(_ file: String, line: Int? = nil, _ message: String) {
        problems = [RuleProblem(file: file, line: line, message: message)]
    }

    package var description: String { problems.map(\.description).joined(separator: "\n") }
}

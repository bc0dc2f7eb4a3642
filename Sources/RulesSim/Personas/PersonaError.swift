import RulesEngine

/// Personas that could not be loaded, with every problem as `file:line: message`.
package struct PersonaError: Error, CustomStringConvertible, Sendable {
    package var problems: [RuleProblem]

    package init(problems: [RuleProblem]) { self.problems = problems }

    package init(_ file: String, line: Int? = nil, _ message: String) {
        problems = [RuleProblem(file: file, line: line, message: message)]
    }

    package var description: String { problems.map(\.description).joined(separator: "\n") }
}

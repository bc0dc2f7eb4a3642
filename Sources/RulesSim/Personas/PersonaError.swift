import RulesEngine

/// Personas that could not be loaded, with every problem as `file:line: message`.
public struct PersonaError: Error, CustomStringConvertible, Sendable {
    public var problems: [RuleProblem]

    public init(problems: [RuleProblem]) { self.problems = problems }

    public init(_ file: String, line: Int? = nil, _ message: String) {
        problems = [RuleProblem(file: file, line: line, message: message)]
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

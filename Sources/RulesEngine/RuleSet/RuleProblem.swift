/// One problem of a rule set, as `file:line: message` (file relative to the rule folder).
public struct RuleProblem: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String

    public init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
    }
}

/// A rule set that was not accepted, with every problem found (not just the first).
public struct RuleSetError: Error, CustomStringConvertible, Sendable {
    public var problems: [RuleProblem]

    public init(problems: [RuleProblem]) { self.problems = problems }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

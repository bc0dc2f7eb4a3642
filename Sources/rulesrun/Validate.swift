import ArgumentParser
import Foundation
import RulesEngine

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load a rule set, check its types and ranges, and prove the documents' hard constraints.",
        discussion: """
            Every file is loaded in the sandbox and decoded into typed parameters (unknown, mistyped and \
            out-of-range fields are rejected); then the rule functions are evaluated over every allowed \
            input of their finite domains (every tier, check-in window and counter up to a bound) to prove \
            the hard constraints of the seed documents. Every problem is printed as `file:line: message` \
            (file relative to the rule folder) and the exit status is 1; a valid set prints one summary \
            line and exits 0.

            Examples:
              rulesrun validate
              rulesrun validate examples/graduated-recovery
            """
    )

    @Argument(help: "The rule folder.") var directory = "rules"

    func run() throws {
        do {
            let ruleSet = try RuleSet.load(directory)
            print("\(directory): valid (\(ruleSet.summary))")
            for line in ruleSet.unproved { print("  \(line)") }
        } catch let error as RuleSetError {
            for problem in error.problems { print(problem) }
            let count = error.problems.count
            FileHandle.standardError.write(Data("\(directory): \(count) problem\(count == 1 ? "" : "s")\n".utf8))
            throw ExitCode(1)
        }
    }
}

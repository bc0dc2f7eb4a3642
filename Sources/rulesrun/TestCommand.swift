import ArgumentParser
import Foundation
import RulesEngine

struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run the tests of a rule folder: Lua unit tests and scenario files.",
        discussion: """
            DIR/tests/*.lua are unit tests: every global function named test_… is a test, called in the \
            sandbox of the rules with the rule set's modules as read-only globals (escalation, streaks, \
            pricing, quests, modes) and the helpers expect_eq(actual, expected [, message]), \
            expect_true(value [, message]) and expect_error(fn [, pattern [, message]]). DIR/tests/*.jsonl \
            are scenarios: replay lines that may carry "expect": {"decisions.habit_completion.current_streak": 2, …}. \
            A folder with an `extends` file also runs the tests of the folders it extends, against itself \
            (--no-inherit: only its own). docs/testing-rules.md says more.

            Prints one line per test (PASS, FAIL or ERROR, file:line, name, time), what failed and what \
            the test printed under it, then "N passed, M failed". Exit status: 0 when every test passed, \
            1 when one failed, 2 for invalid input: a rule set that does not validate (its problems are \
            printed as validate prints them), a test file that does not load (ERROR), a bad --run \
            pattern, or no test to run.

            Examples:
              rulesrun test
              rulesrun test examples/weekly-streak --run habit
              rulesrun test --format junit > junit.xml
            """
    )

    @Argument(help: "The rule folder.") var directory = "rules"
    @Option(
        name: .customLong("run"), help: ArgumentHelp("Run only the tests whose name matches this regular expression.", valueName: "regex"))
    var namePattern: String?
    @Option(help: "text, json or junit.") var format: TestFormat = .text
    @Flag(help: "Run only the folder's own tests, not those of the folders it extends.") var noInherit = false

    func run() throws {
        var pattern: Regex<AnyRegexOutput>?
        if let namePattern {
            do {
                pattern = try Regex(namePattern)
            } catch {
                throw ValidationError("--run: '\(namePattern)' is not a regular expression: \(error)")
            }
        }
        let results: [RuleTestResult]
        do {
            results = try RuleTestRunner.run(directory, inherit: !noInherit) { name in pattern.map { name.contains($0) } ?? true }
        } catch let error as RuleSetError {
            for problem in error.problems { Terminal.error(problem.description) }
            let count = error.problems.count
            Terminal.error("\(directory): the rule set is not valid (\(count) problem\(count == 1 ? "" : "s")); no test was run")
            throw ExitCode(2)
        }
        guard !results.isEmpty else {
            let folders = (try? RuleTestRunner.testFolders(directory, inherit: !noInherit)) ?? []
            let place = folders.joined(separator: ", ")
            Terminal.error(namePattern.map { "no test matches --run '\($0)' in \(place)" } ?? "no tests found in \(place) (*.lua, *.jsonl)")
            throw ExitCode(2)
        }
        switch format {
        case .text: TestReport.printText(results)
        case .json: Terminal.line(TestReport.json(results, directory: directory).description)
        case .junit: print(TestReport.junit(results, directory: directory), terminator: "")
        }
        if results.contains(where: { $0.outcome == .error }) { throw ExitCode(2) }
        if results.contains(where: { $0.outcome == .failed }) { throw ExitCode(1) }
    }
}

/// `test --format`.
enum TestFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, junit
}

import ArgumentParser
import Foundation
import RulesEngine
import RulesSim

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

            A global function named prop_… is a property: it gets --cases cases drawn from --seed by \
            the generator the file's `cases` table names for it (cases = { prop_x = gen.int(0, 10) }: \
            gen.int, gen.bool, gen.one_of, gen.record, gen.list, or gen.history("pressure"|"earned"|"habits" \
            [, {days = N}]): a generated history replayed through the engine, one step per event with \
            event, ok, decisions, state) and must return true. The first case that breaks it is shrunk; \
            a value is printed, a history is written to OUT/prop_NAME.jsonl as a replay file.

            Prints one line per test (PASS, FAIL or ERROR, file:line, name, time), what failed and what \
            the test printed under it, then "N passed, M failed". Exit status: 0 when every test passed, \
            1 when one failed, 2 for invalid input: a rule set that does not validate (its problems are \
            printed as validate prints them), a test file that does not load or a property without a \
            generator (ERROR), a bad --run pattern, or no test to run.

            Examples:
              rulesrun test
              rulesrun test examples/weekly-streak --run habit
              rulesrun test --format junit > junit.xml
              rulesrun test --run '^prop_' --cases 500 --seed 7
            """
    )

    @Argument(help: "The rule folder.") var directory = "rules"
    @Option(
        name: .customLong("run"), help: ArgumentHelp("Run only the tests whose name matches this regular expression.", valueName: "regex"))
    var namePattern: String?
    @Option(help: "text, json or junit.") var format: TestFormat = .text
    @Flag(help: "Run only the folder's own tests, not those of the folders it extends.") var noInherit = false
    @Option(
        parsing: .unconditional,
        help: "Cases per property, 1 to \(PropertyRunner.maxCases). (default: \(PropertyRunner.defaultCases))",
        transform: WholeNumber.parser(1...PropertyRunner.maxCases)) var cases = PropertyRunner.defaultCases
    @Option(
        parsing: .unconditional,
        help: "Seed of the properties' cases, 0 to \(UInt64.max) (the same seed gives the same cases). (default: 1)",
        transform: WholeNumber.seed) var seed: UInt64 = 1
    @Option(help: "Folder for the replay files of the histories that break a property.") var out = PropertyRunner.defaultOut

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
            let properties = PropertyRunner(cases: cases, seed: seed, out: out)
            results = try RuleTestRunner.run(directory, inherit: !noInherit, properties: properties) { name in
                pattern.map { name.contains($0) } ?? true
            }
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

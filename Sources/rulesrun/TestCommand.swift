import ArgumentParser
import Foundation
import LuaHost
import RulesEngine
import RulesModel
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

            --coverage then prints, per rule file, the lines with code the tests ran (percent, covered/total, \
            the lines not run as ranges) and the arms of its `if` statements they ran (an `if` without `else` \
            has an implicit else arm), and the arms not run; with --format json, under "coverage". \
            --threshold PCT (implies --coverage) exits 1 when the total line coverage is below PCT.

            Also in a test file: with_knobs({["pricing.rollover_cap"] = 3}, fn) calls fn with knobs given other \
            values (each knob checked, the rule set validated with them; the folder's own values again when fn \
            returns or raises); table_test(NAME, CASES, fn) calls fn with each case of the list CASES, each case a \
            test named NAME[CASE] (its `name` field, or its index); at the top of a file, skip(NAME, REASON) and \
            expect_failure(NAME, REASON) mark a test of a folder this one extends: SKIP (not run), XFAIL (failed as \
            expected) or XPASS (passed: fails the run); a name no inherited test has is an ERROR. --update writes \
            the values found into the folder's scenarios' expect values that do not match (a matcher is left, an \
            inherited scenario is not written), showing each change as file:line: path: old → new, then runs the tests.

            A global function named prop_… is a property: it gets --cases cases drawn from --seed by \
            the generator the file's `cases` table names for it (cases = { prop_x = gen.int(0, 10) }: \
            gen.int, gen.bool, gen.one_of, gen.record, gen.list, a rule function's proved domain such as \
            gen.habit_streak() or gen.pressure_day() (docs/testing-rules.md lists them), or \
            gen.history("pressure"|"earned"|"habits" [, {days = N}]): a generated history replayed \
            through the engine, one step per event with event, ok, decisions, state) and must return \
            true. The first case that breaks it is shrunk; a value is printed, a history is written to \
            OUT/prop_NAME.jsonl as a replay file. A case holds at most \(CaseSize.maxValues) values and \(CaseSize.maxBytes >> 20) MiB \
            of text (a larger one is an ERROR); shrinking tries at most \(PropertyRunner.maxShrinkAttempts) candidates \
            (a history: \(HistoryCheck.maxShrinkAttempts)), and when it stops early the smallest failing case found is shown, saying so.

            Bounds: each call has the rules' budgets; a test stops after --test-timeout seconds (default \(TestLimits.defaultTestSeconds)), \
            the run after --timeout (default \(TestLimits.defaultRunSeconds)): the test stopped is an ERROR (a property that broke \
            while shrinking FAILs with its smallest case so far), and an ERROR "(not run)" names the tests after it. \
            A test keeps \(TestLimits.printedBytesPerTest >> 10) KiB of what it prints, a run \(TestLimits.printedBytesPerRun >> 20) MiB \
            (the rest is cut, saying how much), and each line of a failure \(TestLimits.failureLineCharacters) characters.

            Prints one line per test (PASS, FAIL or ERROR, file:line, name, time), what failed and what \
            the test printed under it, then "N passed, M failed". Under a unit test or a scenario that \
            failed come the rule calls it made (a scenario: those of its failing line), the last \
            \(FailureExplanation.maxCalls) at most, as replay --explain text shows them (function, where it is defined, \
            arguments, what it returned or its error, knobs read, lines run): the failed test is run \
            once more to explain it, so passing tests cost nothing more; under a property that failed \
            come those of its minimal case (a history's: its replay). With --format json they are \
            the failed test's "explain" array; with junit, in the failure text. --no-explain leaves them out. Exit status: 0 when every test passed, \
            1 when one failed, 2 for invalid input: a rule set that does not validate (its problems are \
            printed as validate prints them), a test file that does not load or a property without a \
            generator (ERROR), a test stopped by a time limit (ERROR), a bad --run pattern, or no test to run.

            Examples:
              rulesrun test
              rulesrun test examples/weekly-streak --run habit
              rulesrun test --format junit > junit.xml
              rulesrun test --run '^prop_' --cases 500 --seed 7
            """
    )

    @Argument(help: RuleFolderOption.help) var directory = RuleFolderOption.defaultFolder
    @OptionGroup var selection: TestSelection
    @Option(help: "text, json or junit.") var format: TestFormat = .text
    @Flag(
        help:
            "Write what the rules now output into the expect values of the folder's scenarios that do not match (each change shown: file:line: path: old → new), then run the tests."
    ) var update = false
    @Flag(help: "Do not show the rule calls of a failed test (nor run it again to find them).") var noExplain = false
    @Flag(help: "Report which lines and branches of the rule files the tests ran.") var coverage = false
    @Option(
        help: ArgumentHelp(
            "Exit 1 when the tests run less than this percentage of the rule files' lines (implies --coverage).", valueName: "pct"))
    var threshold: Double?

    func validate() throws {
        if let threshold, !(0...100).contains(threshold) {
            throw ValidationError("--threshold: expected a percentage from 0 to 100, found \(WholeNumber.text(threshold))")
        }
    }
    @Option(
        parsing: .unconditional,
        help: "Cases per property, 1 to \(PropertyRunner.maxCases). (default: \(PropertyRunner.defaultCases))",
        transform: WholeNumber.parser(1...PropertyRunner.maxCases)) var cases = PropertyRunner.defaultCases
    @Option(
        parsing: .unconditional,
        help: "Seed of the properties' cases, 0 to \(UInt64.max) (the same seed gives the same cases). (default: 1)",
        transform: WholeNumber.seed) var seed: UInt64 = 1
    @Option(help: "Folder for the replay files of the histories that break a property.") var out = PropertyRunner.defaultOut
    @Option(
        name: .customLong("test-timeout"), parsing: .unconditional,
        help: ArgumentHelp(
            "The most seconds one test may take (a property's cases and shrinking, a scenario's lines), 1 to \(TestLimits.maxSeconds). (default: \(TestLimits.defaultTestSeconds))",
            valueName: "seconds"),
        transform: WholeNumber.parser(1...TestLimits.maxSeconds)) var testTimeout = TestLimits.defaultTestSeconds
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The most seconds the whole run may take (the tests after it are not run), 1 to \(TestLimits.maxSeconds). (default: \(TestLimits.defaultRunSeconds))",
            valueName: "seconds"),
        transform: WholeNumber.parser(1...TestLimits.maxSeconds)) var timeout = TestLimits.defaultRunSeconds

    /// What `--update` changed (on standard output before the text report, on standard error with
    /// another format) and what it left (standard error).
    func printUpdate(_ report: ScenarioUpdate.Report) {
        let show: (String) -> Void = format == .text ? { Terminal.line($0) } : { Terminal.error($0) }
        for change in report.changes { show("updated " + VisibleText.oneLine(change.text)) }
        for line in report.notUpdated { Terminal.error(line) }
        let files = Set(report.changes.map(\.file)).count
        show(
            report.changes.isEmpty
                ? "--update: no expected value changed"
                : "--update: \(report.changes.count) expected value\(report.changes.count == 1 ? "" : "s") updated in \(files) file\(files == 1 ? "" : "s")")
        if format == .text { Terminal.line("") }
    }

    func run() throws {
        let selected = try selection.selects()
        let noInherit = selection.noInherit
        let recorder = coverage || threshold != nil ? LineRecorder() : nil
        let results: [RuleTestResult]
        do {
            var validated: RuleSnapshot?
            if update {
                let snapshot = try RuleSet.load(directory).snapshot
                validated = snapshot
                printUpdate(try ScenarioUpdate.run(directory, rules: snapshot, inherit: selection.inherit, selected: selected))
            }
            let properties = PropertyRunner(cases: cases, seed: seed, out: out, explain: !noExplain)
            results = try RuleTestRunner.run(
                directory, validated: validated, inherit: selection.inherit, recorder: recorder, properties: properties,
                explain: !noExplain,
                limits: TestLimits(testSeconds: testTimeout, runSeconds: timeout, options: ("--test-timeout", "--timeout")),
                selected: selected)
        } catch let error as RuleSetError {
            for problem in error.problems { Terminal.error(problem.description) }
            let count = error.problems.count
            Terminal.error("\(directory): the rule set is not valid (\(count) problem\(count == 1 ? "" : "s")); no test was run")
            throw ExitCode(2)
        }
        guard !results.isEmpty else {
            Terminal.error(selection.nothingToRun(in: selection.folders(of: directory)))
            throw ExitCode(2)
        }
        let measured = try recorder.map { try RuleCoverage.measure(directory, counts: $0.counts, ownFilesOnly: noInherit) }
        switch format {
        case .text:
            TestReport.printText(results)
            if let measured {
                let title =
                    noInherit ? "\ncoverage of the folder's own rule files by its tests:" : "\ncoverage of the rule files by the tests:"
                for line in CoverageReport.lines(measured, title: title, notRunBy: "the tests") {
                    Terminal.line(line)
                }
            }
        case .json:
            var report = TestReport.json(results, directory: directory)
            if let measured, case .object(var members) = report {
                members.append(("coverage", measured.json))
                report = .object(members)
            }
            Terminal.line(report.description)
        case .junit: Terminal.print(TestReport.junit(results, directory: directory), terminator: "")
        }
        if results.contains(where: { $0.outcome == .error }) { throw ExitCode(2) }
        if results.contains(where: { $0.outcome.failsTheRun }) { throw ExitCode(1) }
        if let measured, let threshold, measured.isBelow(threshold) {
            let figure = RuleCoverage.percent(measured.coveredLines, of: measured.totalLines)
            Terminal.error(
                "line coverage \(figure) % (\(measured.coveredLines)/\(measured.totalLines)) is below --threshold \(WholeNumber.text(threshold)) %"
            )
            throw ExitCode(1)
        }
    }
}

/// `test --format`.
enum TestFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, junit
}

import ArgumentParser
import RulesEngine

/// Which tests of a rule folder run: `--run REGEX` and `--no-inherit`, parsed, checked and applied
/// alike by `rulesrun test` and `rulesrun watch` (each cycle's tests).
struct TestSelection: ParsableArguments {
    @Option(
        name: .customLong("run"), help: ArgumentHelp("Run only the tests whose name matches this regular expression.", valueName: "regex"))
    var namePattern: String?
    @Flag(help: "Run only the folder's own tests, not those of the folders it extends.") var noInherit = false

    /// Whether the tests of the folders the rule folder extends run too.
    var inherit: Bool { !noInherit }

    func validate() throws { _ = try pattern() }

    /// The regular expression of `--run`, nil without it; a pattern that is not one is refused, naming it.
    func pattern() throws -> Regex<AnyRegexOutput>? {
        guard let namePattern else { return nil }
        do {
            return try Regex(namePattern)
        } catch {
            throw ValidationError("--run: '\(namePattern)' is not a regular expression: \(error)")
        }
    }

    /// Whether the test named `name` runs: every test without `--run`, else those whose name the
    /// pattern matches somewhere (`--run habit` runs `test_habit_streak`; `^…$` asks for the whole name).
    func selects() throws -> (String) -> Bool {
        guard let pattern = try pattern() else { return { _ in true } }
        return { name in name.contains(pattern) }
    }

    /// What is said when no test runs in `folders` (the test folders searched): none matches
    /// `--run`, or there are none.
    func nothingToRun(in folders: [String]) -> String {
        let place = folders.joined(separator: ", ")
        return namePattern.map { "no test matches --run '\($0)' in \(place)" } ?? "no tests found in \(place) (*.lua, *.jsonl)"
    }

    /// The test folders of `directory` that this selection searches (its own, and with `inherit`
    /// those of the folders it extends).
    func folders(of directory: String) -> [String] {
        (try? RuleTestRunner.testFolders(directory, inherit: inherit)) ?? []
    }
}

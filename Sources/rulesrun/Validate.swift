import ArgumentParser
import Foundation
import RulesEngine
import RulesSim

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load a rule set, check its types and ranges, and prove the documents' hard constraints.",
        discussion: """
            Every file is loaded in the sandbox and decoded into typed parameters (unknown, mistyped and \
            out-of-range fields are rejected); then the rule functions are evaluated over every input \
            of their finite domains and every input a run reaches (every tier and check-in window, the \
            states and streaks a new user reaches day after day, up to the longest run of 3660 days) to \
            prove the hard constraints of the seed documents and the ranges the engine enforces. Every \
            problem is printed as `file:line: message` (file relative to the rule folder) and the exit \
            status is 1; a valid set prints one summary line, then the params each file declares (one line \
            per file that has some: `streaks.lua params: freeze_max integer 0…10 = 2`), then what was not \
            proved in the folder's own files (--all: in inherited files too; --quiet: nothing but problems), \
            and exits 0. \
            Validation is bounded: every call has its budget, memory included, and all of them together \
            300,000,000 instructions. Every problem of every file is reported in one run. \
            `--format json` prints one JSON object instead (docs/validate.md): \
            {"folder", "ok", "problems": [{"file", "line", "field", "message", "severity"}], "summary", \
            "params", "unproved"}, with the same exit status. A rule's print() is silent while proving. \
            Every command that loads a rule set keeps each file's findings on disk, and the next load of \
            the same files by the same build reads them instead of proving again (the same findings): in \
            $RULESRUN_PROOF_CACHE, else ~/.cache/rulesrun/proofs (under $XDG_CACHE_HOME when it is set); \
            RULESRUN_PROOF_CACHE=off proves every time (docs/validate.md).

            Examples:
              rulesrun validate
              rulesrun validate examples/graduated-recovery
              rulesrun validate my-rules --format json
            """
    )

    /// `--format`'s values.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json
    }

    @Argument(help: RuleFolderOption.help) var directory = RuleFolderOption.defaultFolder

    @Option(help: "text (the default) or json: one object with every problem's file, line, field and message.")
    var format: Format = .text
    @Flag(name: .shortAndLong, help: "Print the problems only: nothing when the set is valid.") var quiet = false
    @Flag(help: "Also print what was not proved in the files the folder inherits through extends.") var all = false

    func run() throws {
        do {
            // The team's metrics (`metrics.lua`) are checked whether or not the rules are valid.
            var metrics: TeamMetrics?
            var metricProblems: [RuleProblem] = []
            do {
                metrics = try TeamMetrics.source(rules: directory).map(TeamMetrics.init)
            } catch let error as InputFileError {
                metricProblems = error.problems
            }
            let ruleSet: RuleSet
            do {
                ruleSet = try RuleSet.load(directory)
            } catch let error as RuleSetError {
                throw RuleSetError(problems: error.problems + metricProblems)
            }
            guard metricProblems.isEmpty else { throw RuleSetError(problems: metricProblems) }
            if format == .json { return Terminal.print(Self.report(folder: directory, ruleSet: ruleSet, problems: []).description) }
            if quiet { return }
            Terminal.line("\(directory): valid (\(ruleSet.summary))")
            for (file, params) in ruleSet.declaredParams { Terminal.line("  \(file) params: \(params.summary)") }
            if let metrics {
                let ids = metrics.metrics.map(\.id).joined(separator: ", ")
                Terminal.line("  \(metrics.source.path): \(metrics.metrics.count) team metric\(metrics.metrics.count == 1 ? "" : "s") (\(ids))")
            }
            let unproved = ruleSet.unproved(ownFilesOnly: !all)
            for line in unproved.lines { Terminal.line("  \(line)") }
            if unproved.leftOut > 0 {
                Terminal.line("  and \(unproved.leftOut) not proved line\(unproved.leftOut == 1 ? "" : "s") about inherited files (--all prints them)")
            }
        } catch let error as RuleSetError {
            let count = error.problems.count
            if format == .json {
                Terminal.print(Self.report(folder: directory, ruleSet: nil, problems: error.problems).description)
            } else {
                for problem in error.problems { Terminal.line(problem.description) }
                Terminal.error("\(directory): \(count) problem\(count == 1 ? "" : "s")")
            }
            throw ExitCode(1)
        }
    }
}

import ArgumentParser
import Foundation
import LuaHost
import RulesEngine

@main
struct Rulesrun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rulesrun",
        abstract: "Run, validate and benchmark the Lua rule sets of behaviour-change apps.",
        version: RulesrunVersion.text,
        subcommands: [
            NewCommand.self, Validate.self, TestCommand.self, WatchCommand.self, ReplayCommand.self, SimulateCommand.self, CompareCommand.self,
            AnalyzeCommand.self, EventsCommand.self, FitCommand.self,
            MergeCommand.self, SweepCommand.self, KeygenCommand.self, BundleCommand.self, Bench.self, SchemaCommand.self,
        ]
    )

    /// As ArgumentParser's, except that a bad argument (its usage error, 64) exits 2 like any
    /// other invalid input of rulesrun, and that messages go through `Terminal`.
    static func main() {
        Foundation.exit(run(Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs the command `arguments` name (without the program's name) and returns its exit status;
    /// everything it writes goes to ``Console/current`` (the process's, or the caller's in-process).
    static func run(_ arguments: [String]) -> Int32 {
        _ = ConsoleLogHandler.bootstrap
        var command: (any ParsableCommand)?
        do {
            command = try parseWithNegativeArguments(arguments)
            // Checked once here: the hosts read the variable themselves (`ArgumentReuse.processDefault`).
            if let problem = ArgumentReuse.problem(in: Console.current.environment) {
                Terminal.error("Error: \(problem)")
                return 2
            }
            // The proofs of other processes are read from, and this one's kept in, the folder of
            // `RULESRUN_PROOF_CACHE` (``ProofStore``).
            try ProofCache.$store.withValue(ProofStore(environment: Console.current.environment)) { try command!.run() }
            return 0
        } catch {
            if exitCode(for: error) == .validationFailure {
                // A subcommand whose run() refused an argument: its help, not the root's usage.
                let message =
                    command.flatMap { type(of: $0).configuration.commandName }.map {
                        "Error: \(Self.message(for: error))\n  See 'rulesrun \($0) --help' for more information."
                    } ?? fullMessage(for: error)
                Terminal.error(message)
                return 2
            }
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            // Help, --version and the completion scripts on standard output, as ArgumentParser
            // prints them; any other message escaped, as every message is.
            if code == .success {
                if !message.isEmpty { Terminal.print(message) }
            } else if !message.isEmpty {
                Terminal.error(message)
            }
            return code.rawValue
        }
    }

    /// Parses the arguments. No option of rulesrun starts with a digit, so an argument such as
    /// `-1d` that the parser took for options is a value: when the arguments do not parse, they
    /// are parsed again with such arguments after `--` (positional) — kept when that parses —, so that `simulate -1d` is
    /// judged by the duration's own check ("must be positive") instead of "Missing expected
    /// argument". (Options that take negative values parse them themselves, e.g. `--seed -1`.)
    static func parseWithNegativeArguments(_ arguments: [String]) throws -> any ParsableCommand {
        do {
            return try parseAsRoot(arguments)
        } catch {
            guard !arguments.contains("--") else { throw error }
            func isNegative(_ argument: String) -> Bool {
                argument.count > 1 && argument.hasPrefix("-") && argument.dropFirst().first.map { $0.isNumber || $0 == "." } == true
            }
            let negative = arguments.filter(isNegative)
            guard !negative.isEmpty else { throw error }
            // Only when that parses: `--seed -1` is the seed's own error, not the option after it.
            guard let command = try? parseAsRoot(arguments.filter { !isNegative($0) } + ["--"] + negative) else { throw error }
            return command
        }
    }
}

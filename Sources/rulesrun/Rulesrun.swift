import ArgumentParser
import Foundation

@main
struct Rulesrun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rulesrun",
        abstract: "Run, validate and benchmark the Lua rule sets of behaviour-change apps.",
        subcommands: [Validate.self, ReplayCommand.self, SimulateCommand.self, CompareCommand.self, MergeCommand.self, Bench.self]
    )

    /// As ArgumentParser's, except that a bad argument (its usage error, 64) exits 2 like any
    /// other invalid input of rulesrun, and that messages go through `Terminal`.
    static func main() {
        var command: (any ParsableCommand)?
        do {
            command = try parseAsRoot()
            try command!.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                // A subcommand whose run() refused an argument: its help, not the root's usage.
                let message = command.flatMap { type(of: $0).configuration.commandName }.map {
                    "Error: \(Self.message(for: error))\n  See 'rulesrun \($0) --help' for more information."
                } ?? fullMessage(for: error)
                Terminal.error(message)
                Foundation.exit(2)
            }
            // Help and --version as ArgumentParser prints them; any other message escaped, as every message is.
            let code = exitCode(for: error)
            guard code != .success else { exit(withError: error) }
            let message = fullMessage(for: error)
            if !message.isEmpty { Terminal.error(message) }
            Foundation.exit(code.rawValue)
        }
    }
}

import ArgumentParser

@main
struct Rulesrun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rulesrun",
        abstract: "Run, validate and benchmark the Lua rule sets of behaviour-change apps.",
        subcommands: [Validate.self, ReplayCommand.self, SimulateCommand.self, CompareCommand.self, MergeCommand.self, Bench.self]
    )
}

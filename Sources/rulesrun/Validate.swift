import ArgumentParser
import Foundation
import LuaHost

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Load every rule file of a rule set in the sandbox and report every problem.")
    @Argument(help: "The rule folder.") var directory = "rules"
    func run() throws {
        throw ExitCode(1)
    }
}

import ArgumentParser
import Foundation
import LuaHost

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load every rule file of a rule set in the sandbox and report every problem.",
        discussion: """
            Each file is loaded in the sandbox with its budgets and must return a table. Every problem is \
            printed as `file:line: message` (file relative to the rule folder); the exit status is 1 when \
            there is any, 0 otherwise.

            Examples:
              rulesrun validate
              rulesrun validate examples/graduated-recovery
            """
    )

    @Argument(help: "The rule folder.") var directory = "rules"

    func run() throws {
        let folder = try RuleFolder(directory)
        let files = folder.luaFiles()
        guard !files.isEmpty else {
            print("\(directory): no .lua rule files")
            throw ExitCode(1)
        }
        let host = try LuaHost()
        var problems: [String] = []
        for file in files {
            do {
                let values = try host.load(file: file, ruleRoot: folder.root)
                if values.first?.tableValue == nil {
                    problems.append("\(folder.name(of: file)): a rule file must return a table, found \(values.first?.errorDescription ?? "nothing")")
                }
            } catch let error as LuaError {
                problems.append(error.description)
            }
        }
        if problems.isEmpty {
            print("\(directory): \(files.count) rule file\(files.count == 1 ? "" : "s") valid (\(files.map(folder.name(of:)).joined(separator: ", ")))")
        } else {
            for problem in problems { print(problem) }
            FileHandle.standardError.write(Data("\(directory): \(problems.count) problem\(problems.count == 1 ? "" : "s")\n".utf8))
            throw ExitCode(1)
        }
    }
}

import Foundation
import Testing

/// The shell completion scripts (`rulesrun --generate-completion-script bash|zsh|fish`) and the
/// description the man page is generated from (docs/tools.md): each knows every subcommand that
/// `rulesrun help` lists.
@Suite struct CompletionScriptTests {
    /// The subcommands `rulesrun help` lists, in its order.
    func subcommands() throws -> [String] {
        let help = try CLI.run(["help"])
        #expect(help.status == 0)
        let section = try #require(help.stdout.range(of: "SUBCOMMANDS:\n"))
        // The section ends at its first empty line ("  See 'rulesrun help <subcommand>'…" follows).
        let lines = help.stdout[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        let names = lines.compactMap { line -> String? in
            // "  validate                Load a rule set, …": a name at two spaces; continuations are deeper.
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else { return nil }
            return String(name)
        }
        #expect(names.contains("test") && names.contains("schema"), "\(help.stdout)")
        return names
    }

    /// What bash completes after `words` (the last one being completed), with the real script in a real bash.
    func bashCompletions(_ script: URL, _ words: [String]) throws -> [String] {
        let line = words.joined(separator: " ")
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "bash", "--norc", "--noprofile", "-c",
            """
            source '\(script.path)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=\(line.utf8.count)
            _rulesrun rulesrun '\(words.last!)' '\(words[words.count - 2])'
            printf '%s\\n' "${COMPREPLY[@]}"
            """,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesEverySubcommandAndTheirArguments() throws {
        let names = try subcommands()
        let result = try CLI.run(["--generate-completion-script", "bash"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("complete -o filenames -F _rulesrun rulesrun"))
        let dir = try CLI.folder(["rulesrun.bash": result.stdout])
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("rulesrun.bash")
        let first = try bashCompletions(script, ["rulesrun", ""])
        for name in names { #expect(first.contains(name), "rulesrun <TAB>: \(first)") }
        #expect(try bashCompletions(script, ["rulesrun", "sch"]) == ["schema"])
        #expect(try bashCompletions(script, ["rulesrun", "schema", ""]) == ["events", "scenario", "report"])
        #expect(try bashCompletions(script, ["rulesrun", "simulate", "--for"]) == ["--format"])
    }

    @Test(arguments: ["zsh", "fish"])
    func zshAndFishScriptsNameEverySubcommand(_ shell: String) throws {
        let names = try subcommands()
        let result = try CLI.run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        for name in names { #expect(result.stdout.contains(name), "\(shell): \(name)") }
    }

    /// The man page's source (swift-argument-parser's GenerateManual plugin reads it): every subcommand, with its abstract.
    @Test func theManualsSourceDescribesEverySubcommand() throws {
        let names = try subcommands()
        let result = try CLI.run(["--experimental-dump-help"])
        #expect(result.status == 0)
        let info = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let command = try #require(info["command"] as? [String: Any])
        #expect(command["commandName"] as? String == "rulesrun")
        let described = (command["subcommands"] as? [[String: Any]] ?? []).compactMap { $0["commandName"] as? String }
        for name in names where name != "help" { #expect(described.contains(name), "\(described)") }
    }
}

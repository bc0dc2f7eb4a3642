import Foundation
import RulesSim
import Testing

/// The quoting of the command lines rulesrun prints for pasting (`ShellQuote`), checked by a real
/// shell: each word gives `/bin/sh` exactly its text, runs nothing, and shows only characters a
/// terminal shows; a `--run` pattern matches its name and nothing else.
@Suite struct ShellQuoteTests {
    /// Texts a folder, a file or a property may be named.
    static let texts = [
        "", "plain", "x'; touch INJECTED; echo '", "$(touch INJECTED)", "`touch INJECTED`", "a\"b\\c", "it's", "'", "''",
        "a b\tc", "line\nbreak", "ends with a line feed\n", "\n", "\n\n", "\r\n", "esc\u{1B}[2J", "nul\u{0}byte", "del\u{7F}",
        "c1\u{9B}2J", "bidi\u{202E}txt.lua", "zero\u{200B}width", "sep\u{2028}", "non\u{FFFE}\u{FFFF}", "café ☕️ 🇫🇷",
        "!history", "-rf", "--rules", "=ls", "~root", "*", "a;b|c&d>e<f", "#comment", "%1", "{a,b}", "[ab]", "\\", "x\\",
    ]

    /// What `/bin/sh -c SCRIPT` writes on standard output, and whether it exited 0.
    static func shell(_ script: String, in folder: URL) throws -> (output: [UInt8], ok: Bool) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = folder
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (Array(data), process.terminationStatus == 0)
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shellquote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func everyWordGivesTheShellExactlyItsTextAndRunsNothing() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for text in Self.texts where !text.contains("\u{0}") {
            let word = ShellQuote.quote(text)
            let (output, ok) = try Self.shell("printf '%s|' \(word)", in: folder)
            #expect(ok, "\(word)")
            #expect(output == Array(text.utf8) + [UInt8(ascii: "|")], "\(text.debugDescription) as \(word)")
            // Shown as it is: no character a terminal acts on or hides, no line feed but a word's last ones.
            let trailing = text.unicodeScalars.reversed().prefix { $0 == "\n" }.count
            let body = word.unicodeScalars.prefix(word.unicodeScalars.count - trailing - 1)
            #expect(!body.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" }, "\(word.debugDescription)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// A NUL cannot be in an argument at all: the shell gets the text without it, and nothing runs.
    @Test func aNULIsLeftOutAndNothingElse() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (output, ok) = try Self.shell("printf '%s|' \(ShellQuote.quote("a\u{0}b'; touch X; '"))", in: folder)
        #expect(ok && output == Array("ab'; touch X; '|".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// The `--run` pattern of a reproduce line, as the shell gives it, matches its name and nothing else.
    @Test func anExactRegexMatchesItsNameAndNothingElse() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in Self.texts.map({ "prop_" + $0 }) + ["prop_.*", "prop_a|prop_b", "prop_(x)+?", "prop_^$", "prop_\u{0}"] {
            let (output, ok) = try Self.shell("printf '%s' \(ShellQuote.exactRegex(name))", in: folder)
            let pattern = try #require(ok ? String(validating: output, as: UTF8.self) : nil)
            let regex = try Regex(pattern)
            #expect(name.contains(regex), "\(name.debugDescription): \(pattern)")
            for other in [name + "x", "x" + name, name + "\n", "prop_", String(name.dropLast())] where other != name {
                #expect(!other.contains(regex), "\(pattern) matches \(other.debugDescription)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// A path or an option's value that starts with `-` stays an argument.
    @Test func aLeadingDashStaysAnArgument() throws {
        #expect(ShellQuote.path("-rf") == "./-rf")
        #expect(ShellQuote.path("/abs/-x") == "/abs/-x")
        #expect(ShellQuote.option("--rules", "-x y") == "--rules='-x y'")
        #expect(ShellQuote.option("--rules", "rules") == "--rules rules")
        #expect(ShellQuote.replay("-out/a.jsonl", rules: "--help") == "rulesrun replay ./-out/a.jsonl --rules=--help")
    }
}

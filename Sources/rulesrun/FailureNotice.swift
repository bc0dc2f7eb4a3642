import ArgumentParser
import Foundation
import LuaHost
import RulesSim

/// What `simulate` and `merge` say on standard error after the report when the rule set failed
/// on some events (`RuleFailures`): the counts by code, the first failure (the user, the day, the
/// rule's file:line and the message) and how to reproduce it — a replay file of the user's events
/// (`simulate`, which has them) and the command that simulates the user alone. Exit status 1.
enum FailureNotice {
    /// `rules`: the rule folder to replay with (nil: no replay file); `personaFolders`: the
    /// run's `--persona-dir` folders, for the command that runs the user again.
    static func report(_ report: SimulationReport, command: String, rules: String?, personaFolders: [String] = []) throws {
        let failures = report.failures
        guard !failures.isEmpty else { return }
        var lines = [
            "\(command): the rule set failed on \(failures.counts.total) event\(failures.counts.total == 1 ? "" : "s"): \(failures.countsText) "
                + "(refused, and counted among the refused events: the report shows the rules failing, not only deciding)"
        ]
        if let first = failures.first {
            lines.append(
                "first failure: \(VisibleText.oneLine(first.user)) on day \(first.day + 1) (\(first.date)), its \(first.event) event at \(first.at): \(first.described)"
            )
            if let rules, let text = FailureReplay.text(for: first, rules: rules, run: report.run) {
                let path = FailureReplay.path(for: first)
                if let problem = write(text, to: path) {
                    lines.append("  the replay file was not written: \(problem)")
                } else {
                    lines.append(
                        "  replay it: \(ShellQuote.replay(path, rules: rules))   (the user's events up to the failure, shrunk; the last one fails)"
                    )
                }
            }
            if let rerun = FailureReplay.command(for: first, run: report.run, personaFolders: personaFolders) {
                lines.append("  run the user alone: \(rerun)")
            }
        }
        Terminal.error(lines.joined(separator: "\n"))
        throw ExitCode(1)
    }

    /// Writes the replay file, unless a file there is not one `simulate` wrote; why not, or nil.
    /// The path is checked as every output is (``OutputPath``: a regular file or a new one, its
    /// folder made since the path is rulesrun's own), so a FIFO put there is never opened, and
    /// written as every output is (``Output/write(_:to:)``, under the file's lock).
    private static func write(_ text: String, to path: String) -> String? {
        do {
            try OutputPath.check(path, option: "the replay file", createsFolders: true)
            if FileManager.default.fileExists(atPath: WorkingFolder.resolve(path)) {
                let start = FileHandle(forReadingAtPath: WorkingFolder.resolve(path)).flatMap { try? $0.read(upToCount: FailureReplay.header.utf8.count) }
                guard start.map({ String(decoding: $0, as: UTF8.self) }) == FailureReplay.header else {
                    return "\(path) exists and is not a replay file rulesrun simulate wrote; refusing to overwrite it"
                }
            }
            try Output.write(text, to: path)
            return nil
        } catch let error as SimulationError {
            return error.message
        } catch {
            return "\(error)"
        }
    }
}

import Foundation
import LuaHost
import RulesEngine
import RulesModel
import RulesStore

/// How to reproduce the first failure of a run (`RuleFailures.First`): as a replay file — the
/// user's events up to the failing one, shrunk as `compare` shrinks its economy histories
/// (`EconomyComparison.chunkRemovals`) while the last event still fails the same way, with
/// comment lines saying what it shows — and as the command line that simulates that user alone.
package enum FailureReplay {
    /// The first line of every replay file `simulate` writes.
    package static let header = "# rulesrun simulate: "
    /// The folder the replay files go to (beside `compare`'s).
    package static let folder = ".rulesrun/simulate"
    /// Events replayed while shrinking, at most (each candidate replays its events).
    static let shrinkBudget = 200_000

    /// The file a failure's replay is written to (`failure-USER.jsonl`, the user's name made a file
    /// name in `folder` by `FileNames`).
    package static func path(for first: RuleFailures.First) -> String {
        var names = FileNames()
        return (folder as NSString).appendingPathComponent(names.name(for: first.user, prefix: "failure-", suffix: ".jsonl"))
    }

    /// The replay file's text: the failing user's events, shrunk, replayed through `Replay` with the
    /// rule set in `rules` as `rulesrun replay FILE --rules DIR` does. Nil when the replay does not
    /// show the failure (a rule that draws from `math.random`, which a simulation seeds per user).
    package static func text(for first: RuleFailures.First, rules: String, run: SimulationReport.RunDescription) -> String? {
        guard let last = first.events.last, let ruleSet = try? RuleSet.load(rules, proving: false) else { return nil }
        // The users' rows in memory: each candidate is a new user, whose rows go with its replay.
        let replay = Replay.inMemory(rules: ruleSet)
        let signature = signature(code: first.code, message: first.message, ruleSet)
        var attempts = 0
        /// Whether the lines, then the failing event, replayed as a new user, fail as the run did.
        func fails(_ lines: [String]) -> Bool {
            attempts += 1
            let user = "\"user\":\(JSONValue.string("r\(attempts)"))"
            let named = "\"user\":\(JSONValue.string(first.user))"
            let out = replay.inMemory {
                var out: JSONValue = .null
                for (i, line) in (lines + [last.jsonLine]).enumerated() {
                    out = replay.output(forLine: line.replacingOccurrences(of: named, with: user), number: i + 1)
                }
                return out
            }
            guard case .string(let code)? = out["error"]?["code"], case .string(let message)? = out["error"]?["message"] else {
                return false
            }
            let text = message.drop { $0 != ":" }.dropFirst(2)  // "line N: " off
            return Self.signature(code: code, message: String(text), ruleSet) == signature
        }
        let before = first.events.dropLast().map(\.jsonLine)
        guard fails(before) else { return nil }
        let shrinker = Shrinker<[String]>(
            maxAttempts: max(1, min(EconomyComparison.maxShrinkAttempts, shrinkBudget / max(1, first.events.count))),
            candidates: EconomyComparison.chunkRemovals)
        let lines = shrinker.shrink(before, while: fails).value + [last.jsonLine]
        return
            ([
                "\(header)the first rule failure of a run of \(run.duration) from \(run.start), \(run.users) users, seed \(run.seed), personas \(run.personas), rules \(run.rules)",
                "# \(first.user) on day \(first.day + 1) (\(first.date)), its \(first.event) event at \(first.at): \(first.described)",
                "# \(lines.count) of the user's \(first.events.count) events up to the failure (shrunk while the last one fails the same way)",
                "# reproduce: \(ShellQuote.replay("FILE", rules: rules))   (the last line fails)",
            ].map(VisibleText.oneLine) + lines).joined(separator: "\n") + "\n"
    }

    /// What identifies a failure across replays: its code and where the rule is (the message
    /// when that is unknown; it names the inputs, which shrinking may change).
    static func signature(code: String, message: String, _ ruleSet: RuleSet?) -> String {
        code + " " + (RuleFailures.leadingLocation(message) ?? ruleSet?.location(ofFunctionIn: message) ?? message)
    }

    /// The command that simulates the failing user alone (`--shard k/N` with N the cohort: the
    /// user's own slice); nil for a run appended after other users (`--append` gives the users
    /// other ids, so other random streams). `personaFolders`: the run's `--persona-dir` folders.
    package static func command(
        for first: RuleFailures.First, run: SimulationReport.RunDescription, personaFolders: [String] = []
    ) -> String? {
        guard run.idOffset == 0 else { return nil }
        // A report merge reads gives the run's text as its file holds it: every part is quoted.
        var words =
            [
                "rulesrun simulate", ShellQuote.quote(run.duration), ShellQuote.option("--start", run.start), "--users", "\(run.users)",
                "--seed", "\(run.seed)", ShellQuote.option("--persona", run.personas),
            ] + personaFolders.map { ShellQuote.option("--persona-dir", $0) }
        words += run.engine == "native" ? ["--reference"] : [ShellQuote.option("--rules", run.rules)]
        words += ["--shard", "\(first.userIndex + 1)/\(run.users)", "--no-db"]
        return words.joined(separator: " ")
    }
}

import ArgumentParser
import Foundation
import RulesEngine
import RulesSim
import RulesStore

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Apply a file of events through the engine and print what each one decided.",
        discussion: """
            EVENTS is a file with one JSON event per line (or - for standard input):
              {"at": "2026-03-02T08:30:00+01:00", "user": "u1", "type": "commitment", "text": "Ship the report"}
            `user` defaults to u1. Types: settings, subscription, commitment, check_in, shield, tick, habit_task, \
            habit_completion, miga (README.md documents every field). Blank lines and lines starting with # are skipped.

            Each event prints one line: {"at": …, "user": …, "type": …, "ok": true, "decisions": {…}, "state": {…}}, \
            or "ok": false with an error code and message for a malformed line or a refused event, which changes \
            nothing; the replay goes on.

            Examples:
              rulesrun replay examples/replay/escalation-week.jsonl
              rulesrun replay events.jsonl --rules examples/graduated-recovery --db /tmp/run.sqlite
            """
    )

    @Argument(help: "The events file (JSON lines), or - for standard input.") var events: String
    @Option(help: "The rule folder.") var rules = "rules"
    @Option(help: "An SQLite file to write (created if needed); by default the replay runs in memory.") var db: String?

    func run() throws {
        let text: String
        if events == "-" {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            guard let data = FileManager.default.contents(atPath: events) else {
                throw ValidationError("cannot read \(events)")
            }
            text = String(decoding: data, as: UTF8.self)
        }
        let ruleSet: RuleSet
        do {
            ruleSet = try RuleSet.load(rules)
        } catch let error as RuleSetError {
            FileHandle.standardError.write(Data("\(rules): the rule set is not valid:\n\(error)\n".utf8))
            throw ExitCode(2)
        }
        // Refused while another rulesrun (simulate, replay) writes the same file.
        var lock: DatabaseLock?
        if let db {
            do { lock = try DatabaseLock(database: db) } catch { throw ValidationError(error.message) }
        }
        defer { lock?.release() }
        let store = try db.map { try Store.open(path: $0) } ?? Store.inMemory()
        let replay = Replay(engine: Engine(store: store, rules: ruleSet, ruleFolder: rules))
        replay.run(text) { print($0) }
    }
}

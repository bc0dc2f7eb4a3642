import ArgumentParser
import Foundation
import LuaHost
import RulesEngine
import RulesSim
import RulesStore

struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the event log a database implies, as replay's JSON lines.",
        discussion: """
            DB is a database of rulesrun: what simulate --db, replay --db or an app's Engine(store:) wrote. For each \
            user, in the order of their ids, the events whose application left its rows are printed in time order, in \
            replay's format (docs/replay.md): what replay, analyze (and later fit) read. analyze reads a database \
            directly the same way.

            Only the events the rows can give back are printed (docs/analyze.md, "A database as the log", lists which). \
            A user whose rows show events that cannot be given back (a shield, a subscription, Earned's events, a task \
            changed after it was defined…) or rows that contradict one another is not printed: a # comment line names \
            it and why, and standard error counts them. Exit status: 0; 2 when the database cannot be read.

            Examples:
              rulesrun simulate 14d --users 50 --db run.sqlite
              rulesrun events run.sqlite --out run.jsonl
              rulesrun events run.sqlite --user u7
              rulesrun replay run.jsonl --db again.sqlite
            """
    )

    @Argument(help: "The database (SQLite) of rulesrun.") var database: String
    @Option(help: "Write the events to this file instead of standard output.") var out: String?
    @Option(help: ArgumentHelp("Only this user's events (its name, as events spell it).", valueName: "name")) var user: String?

    func run() throws {
        try Output.check(out, option: "--out")
        try FileIdentity.refuseCollisions(
            outputs: [(out.map { "--out \($0)" } ?? "the events (standard output)", out ?? "-")],
            inputs: [("the database \(database)", database)])
        let log: DatabaseLog
        do { log = try DatabaseLog(path: database, file: WorkingFolder.resolve(database)) } catch {
            Terminal.error("\(error)")
            throw ExitCode(2)
        }
        defer { log.close() }
        var (given, leftOut, found) = (0, 0, false)
        let write = { (body: ((String) throws -> Void)) throws in
            var text = ""
            while let next = try Self.next(log, user: user) {
                found = true
                if next.isWhole {
                    given += 1
                    for event in next.events { text += event.jsonLine + "\n" }
                } else {
                    leftOut += 1
                    text +=
                        "# \(next.name): left out: "
                        + (next.problem ?? "its rows hold events the database cannot give back: \(next.gapsText)")
                        + "\n"
                }
                if text.utf8.count >= 1 << 16 {
                    try body(text)
                    text = ""
                }
                if user != nil { break }
            }
            if !text.isEmpty { try body(text) }
        }
        do {
            if let out, out != "-" {
                try Output.stream(to: out) { try write($0) }
            } else {
                try write { Console.current.output($0) }
            }
        } catch let error as StoreError {
            Terminal.error(error.message)
            throw ExitCode(2)
        }
        if let user, !found {
            Terminal.error("\(database): no user named \(user)")
            throw ExitCode(2)
        }
        if leftOut > 0 {
            Terminal.error(
                "\(database): \(leftOut) of \(given + leftOut) users left out (marked by # lines): their rows hold events the "
                    + "database cannot give back, or contradict one another"
            )
        }
    }

    /// The next user of `log`, the one named `user` when given.
    static func next(_ log: DatabaseLog, user: String?) throws -> DatabaseLog.User? {
        while let next = try log.next() {
            if user == nil || next.name == user { return next }
        }
        return nil
    }
}

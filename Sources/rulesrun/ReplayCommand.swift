import ArgumentParser
import Foundation
import LuaHost
import RulesEngine
import RulesModel
import RulesSim
import RulesStore
#if canImport(Glibc)
    import Glibc
#endif

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Apply a file of events through the engine and print what each one decided.",
        discussion: """
            EVENTS is a file (or a FIFO) of UTF-8 text with one JSON event per line (or - for standard input, \
            replayed as it arrives); lines end with \\n or \\r\\n and hold at most 1 MiB (a longer one stops the replay, exit 2):
              {"at": "2026-03-02T08:30:00+01:00", "user": "u1", "type": "commitment", "text": "Ship the report"}
            `user` defaults to u1. Types (docs/replay.md documents every field):
              Pressure, habit tracker, MIGA: \(ReplayCommand.pressureTypes.joined(separator: ", "))
              Earned: \(EarnedEvent.typeNames.joined(separator: ", "))
            Blank lines and lines starting with # are skipped. Times are from 1971-01-01T00:00:00Z \
            up to (not including) 2998-01-01T00:00:00Z.

            Each event prints one line as soon as it is applied: {"line": …, "at": …, "user": …, "type": …, \
            "ok": true, "decisions": {…}, "state": {…}}, "line" being the number of the input line; or \
            "ok": false with an error code and a message naming the line and the field, for a malformed \
            line or a refused event (then followed by the user's unchanged "state"), which changes nothing; \
            the replay goes on. The state shows the apps the user uses: Pressure's fields are left out for \
            a user of other apps who has taken no part in Pressure.

            --explain text prints under each output line the rule functions the event called, in order: \
            where each is defined, its arguments, what it returned (or its error), the notes it attached \
            (note("…")), the knobs and params it read; a credit unlock, the price it was charged and where \
            it came from (the rule line and the gate's input line); --explain json adds them to the line \
            as an "explain" array (docs/replay.md). --line N, --type EVENT, --only FUNCTION and \
            --line FILE:N explain only those events or calls (every line is still printed); --full shows \
            values whole.

            A line may carry a scenario's "expect": {"state.current_tier": 2, …} (the scenarios of `rulesrun test`, \
            docs/testing-rules.md), which replay ignores: the output is that of the line without it. With --check, each \
            line is judged as `rulesrun test` judges a scenario's lines: a value at a path that is not the one expected, \
            or an event refused on a line that does not expect it ("expect": {"ok": false}), prints on standard error, \
            after the line's output, the message test prints (`tests/days.jsonl:9: state.current_tier: expected 2, found 1`); \
            the replay goes on, and the last line of standard error counts the lines that failed. With --explain text, \
            the rule calls under each line show why.

            A regular file replayed in memory, or into a --db that holds no user yet, runs in parallel by user on --jobs \
            worker threads (default: one per core), a window of up to 20,000 lines at a time, its lines printed once the window \
            is applied (and committed, in one transaction, with --db): the same output and database, byte for byte, whatever \
            --jobs is. Standard input, a FIFO, --explain, --check and a --db that holds users replay line by line on one \
            engine, each line printed as soon as its event is applied (and committed, with --db).

            Exit status: 2 when a line was invalid input (INVALID_EVENT, INVALID_SETTINGS, with --check an "expect" \
            that is not one) or EVENTS cannot be read, else 1 when a rule failed or the store refused a change \
            (RULE_ERROR, RULE_VIOLATION, STORE_ERROR) or, with --check, a line did not meet what it expects, else 0 \
            (refusals such as DEADLINE_PASSED are results).

            Examples:
              rulesrun replay examples/replay/escalation-week.jsonl
              rulesrun replay events.jsonl --rules examples/graduated-recovery --db /tmp/run.sqlite
              rulesrun replay examples/replay/escalation-week.jsonl --explain text
              rulesrun replay rules/tests/escalation-days.jsonl --check --explain text
              rulesrun replay examples/replay/earned-economy.jsonl --explain text --only pricing.price
            """
    )

    static let pressureTypes = EngineEvent.typeNames.filter { !EarnedEvent.typeNames.contains($0) }

    @Argument(help: "The events file (JSON lines), or - for standard input.") var events: String
    @OptionGroup var ruleFolder: RuleFolderOption
    @Option(help: "An SQLite file to write (created if needed, in a folder that exists); by default the replay runs in memory.") var db:
        String?

    @OptionGroup var explaining: ExplainOptions
    @Flag(help: "Judge each line's \"expect\" as `rulesrun test` judges a scenario's lines; exit 1 when one is not met.")
    var check = false
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Worker threads for a file replayed in parallel (in memory, or into a --db without users), "
                + "1 to \(ParallelReplay.maxJobs), each with its own rule set. (default: every core)"),
        transform: WholeNumber.parser(1...ParallelReplay.maxJobs)) var jobs: Int?
    @Option(
        parsing: .unconditional,
        help:
            "The seed of the rules' math.random, 0 to \(UInt64.max): each user draws from a stream of its own, a user uN what simulate --seed gave it. (default: 1)",
        transform: WholeNumber.seed) var seed: UInt64 = 1

    func run() throws {
        try BundleRules.refuseRollout(ruleFolder.rules)
        let fd = try Self.openEvents(events)
        defer { if fd != STDIN_FILENO { close(fd) } }
        let ruleSet: RuleSet
        do {
            ruleSet = try RuleSet.load(ruleFolder.rules)
        } catch let error as RuleSetError {
            Terminal.error("\(ruleFolder.rules): the rule set is not valid:\n\(error)")
            throw ExitCode(2)
        }
        let explainer = try explaining.explainer(for: ruleSet)
        // What a rule prints goes to standard error, at the line that printed it (the decisions
        // stay alone on standard output): `streaks.lua:4: print: bonus for	3`.
        ruleSet.host.positionedPrintHandler = { text, position in Terminal.error(Replay.printLine(text, at: position)) }
        let inParallel = explainer == nil && !check && Self.isRegularFile(fd)
        if db == nil, inParallel {
            return try replayInParallel(fd: fd, ruleSet: ruleSet, store: nil)
        }
        // Refused while another rulesrun (simulate, replay) writes the same file, by any name.
        var lock: DatabaseLock?
        if let db {
            do {
                try OutputPath.checkDatabaseName(db, inMemory: "replay without --db")
                try OutputPath.check(db, option: "--db")
                lock = try DatabaseLock(database: db, creating: true)
            } catch {
                throw ValidationError(error.message)
            }
        }
        defer { lock?.release() }
        let store = try db.map { try Store.open(path: WorkingFolder.resolve($0)) }
        // Into a database that holds no user yet (the workers know only the users they create).
        if let store, inParallel, try store.read({ try $0.nextUserID() }) == UserID(1) {
            return try replayInParallel(fd: fd, ruleSet: ruleSet, store: store)
        }
        // Without --db, the users' rows are kept in memory (`Replay.inMemory`), as by the workers.
        let draws = RuleDraws(seed: seed)
        let replay =
            store.map { Replay(engine: Engine(store: $0, rules: ruleSet, ruleFolder: ruleFolder.rules), draws: draws) }
            ?? Replay.inMemory(rules: ruleSet, ruleFolder: ruleFolder.rules, draws: draws)
        let trace = LuaCallTrace()
        if explainer != nil { try ruleSet.host.explain(trace) }
        var reader = LineReader(fd: fd)
        let console = Console.current
        var number = 0
        var read: [UInt8] = []
        var checked = CheckedLines()
        let status: Replay.Status
        do {
            let run = { () throws(LineReader.ReadError) -> Replay.Status in
                try replay.run(next: { () throws(LineReader.ReadError) -> [UInt8]? in
                    let line = try reader.next()
                    if let line {
                        number += 1
                        if check { read = line }
                    }
                    return line
                }) { (out: JSONValue) in
                    // One write per line, not print's buffer: the line of every event applied (and
                    // committed, with --db) is out before the next event, should the replay be stopped.
                    let calls = trace.removeAll()
                    console.output(explainer?.lines(of: out, calls) ?? out.description + "\n")
                    if check {
                        let line = String(decoding: read, as: UTF8.self)
                        checked.count(ScenarioTest.judge(line: line, output: out, label: events, number: number))
                    }
                }
            }
            status = try store == nil ? replay.inMemory(run) : run()
        } catch {
            // A line too long stops the replay at it (the reader holds no more than the limit).
            let message =
                error.isLineTooLong ? "\(events): \(error); replay stopped" : "cannot read \(events) after line \(number): \(error)"
            Terminal.error(message)
            throw ExitCode(2)
        }
        if check { checked.printSummary(of: events) }
        let code = checked.invalid > 0 ? 2 : checked.failed > 0 ? max(status.exitCode, 1) : status.exitCode
        if code != 0 { throw ExitCode(code) }
    }

    /// Replays a regular file on `--jobs` workers (``ParallelReplay``), in memory or into `store`
    /// (which holds no user): the same output, exit status and database as a replay line by line,
    /// the lines written a window at a time (into a store, once the window is committed).
    private func replayInParallel(fd: Int32, ruleSet: RuleSet, store: Store?) throws {
        let jobs = jobs ?? min(ProcessInfo.processInfo.activeProcessorCount, ParallelReplay.maxJobs)
        var options = ParallelReplay.Options(jobs: jobs)
        options.seed = seed
        options.journal = store != nil
        let replay = try ParallelReplay(rules: ruleSet, options: options)
        var reader = LineReader(fd: fd)
        let console = Console.current
        var pending = ""
        let status: Replay.Status
        do {
            let next = { () throws(LineReader.ReadError) -> [UInt8]? in try reader.next() }
            let write = { (out: ParallelReplay.Output) in
                if !out.prints.isEmpty {
                    // What a rule printed goes out after the lines before its line, and before it.
                    console.output(pending)
                    pending = ""
                    for line in out.prints { Terminal.error(line) }
                }
                pending += out.text
                pending += "\n"
                if pending.utf8.count >= 1 << 16 {
                    console.output(pending)
                    pending = ""
                }
            }
            // The window's outputs are all out before the next window is handed over.
            let windowEnd = {
                console.output(pending)
                pending = ""
            }
            if let store {
                status = try replay.run(into: store, next: next, write: write, windowEnd: windowEnd)
            } else {
                status = try replay.run(next: next, write: write, windowEnd: windowEnd)
            }
        } catch let error as LineReader.ReadError {
            console.output(pending)
            let message =
                error.isLineTooLong
                ? "\(events): \(error); replay stopped" : "cannot read \(events) after line \(reader.lineNumber): \(error)"
            Terminal.error(message)
            throw ExitCode(2)
        } catch {
            // The store refused a window (a full disk): the lines printed are those of the windows committed before.
            console.output(pending)
            Terminal.error(
                "--db \(db ?? ""): cannot write a window of events (none of its lines printed): \(error); replay stopped")
            throw ExitCode(1)
        }
        console.output(pending)
        if status.exitCode != 0 { throw ExitCode(status.exitCode) }
    }

    /// Whether `fd` is a regular file (all its lines there to read), not a pipe or a terminal.
    static func isRegularFile(_ fd: Int32) -> Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The lines `--check` judged: each failure printed as it is found, then counted.
    struct CheckedLines {
        var lines = 0
        var failed = 0
        var invalid = 0

        mutating func count(_ verdict: ScenarioTest.Verdict) {
            lines += 1
            switch verdict {
            case .met: return
            case .failed(let message):
                failed += 1
                Terminal.error(message)
            case .invalid(let message):
                invalid += 1
                Terminal.error(message)
            }
        }

        /// The last line: `events.jsonl: --check: 2 of 14 lines failed` (and the lines whose `expect` cannot be read),
        /// or `events.jsonl: --check: all 14 lines met what they expect`.
        func printSummary(of events: String) {
            var parts: [String] = []
            if failed > 0 { parts.append("\(failed) of \(lines) line\(lines == 1 ? "" : "s") failed") }
            if invalid > 0 { parts.append("\(invalid) line\(invalid == 1 ? "" : "s") with an expect that cannot be read") }
            Terminal.error(
                "\(events): --check: "
                    + (parts.isEmpty ? "all \(lines) line\(lines == 1 ? "" : "s") met what they expect" : parts.joined(separator: ", ")))
        }
    }

    /// The events' file descriptor: standard input for -, else a regular file or a FIFO (read as
    /// its lines arrive); a folder, a device or a socket is refused before it is read.
    static func openEvents(_ events: String) throws -> Int32 {
        guard events != "-" else { return STDIN_FILENO }
        func refuse(_ mode: mode_t) throws {
            switch mode & S_IFMT {
            case S_IFREG, S_IFIFO: return
            case S_IFDIR: throw ValidationError("cannot read \(events): is a folder; expected a file")
            default:
                throw ValidationError(
                    "cannot read \(events): not a regular file (\(SourceFile.describe(mode: mode))); expected a file of events, a pipe, or - for standard input"
                )
            }
        }
        var info = stat()
        if stat(WorkingFolder.resolve(events), &info) == 0 { try refuse(info.st_mode) }
        let fd = open(WorkingFolder.resolve(events), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ValidationError("cannot read \(events): \(String(cString: strerror(errno)))") }
        if fstat(fd, &info) == 0 {
            do { try refuse(info.st_mode) } catch { close(fd); throw error }
        }
        return fd
    }
}

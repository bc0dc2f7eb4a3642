import ArgumentParser
import Foundation
import LuaHost
import RulesEngine
import RulesModel
import RulesSim

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Re-validate, re-test and re-run a replay or a small simulation on every save in a rule folder.",
        discussion: """
            Runs a cycle at once, then one after every change to a .lua, .jsonl or `extends` file of DIR, \
            of DIR/tests, of the folders DIR extends and their tests, and to each --replay file (seen through Linux's inotify, \
            folder by folder, so that editors that write a temporary file and rename it, such as vim, \
            VS Code and `sed -i`, are seen; --poll: by comparing the files every 200 ms instead); changes are gathered \
            until 200 ms pass without another. A folder deleted and made again, renamed, or swapped \
            through a symbolic link (a release's `current`), and a rule file that is a link to a file elsewhere, \
            are followed; while DIR is gone, the watch says so and waits for a folder there. A \
            cycle prints a header with the time and what changed, then:
              validation: every problem, as `rulesrun validate` prints them, or the summary line;
              the tests of `rulesrun test` (--no-tests: none; --run REGEX and --no-inherit choose them as they do for \
            `test`), properties with --cases cases (default \(PropertyRunner.defaultCases)), \
            seed 1: those that did not pass, with the rule calls of a failed test or scenario \
            (--no-explain: without), and the summary;
              with --replay FILE (repeatable): the events replayed in memory, each file on its own store, and each line whose output differs from the \
            last good version's, field by field (`line 9: state.current_tier: 3 → 2`); with --explain, \
            then the rule calls that the first of those lines makes under the new rules. A save of FILE starts a cycle \
            (`events.jsonl (--replay) changed`) whose replay of it is the reference for the next cycles: its lines are not \
            compared with the file as it was;
              with --simulate 30d: a simulation of --users users (default 100, in memory) and its summary \
            figures with their change since the last good version;
            then `cycle N: good, 1.84 s` or `cycle N: rejected, 0.40 s`. A version is good when it \
            validates: a rule set that does not keeps the last good version in force (its replay \
            output and figures stay the reference) and the cycle says why. Failing tests are \
            printed; they do not keep the previous version. A simulation that fails makes the cycle \
            `failed: the simulation did not run` (its figures stay the reference).

            Ctrl-C (SIGINT) or SIGTERM ends the watch after the step in progress, with a last line, \
            exit status 0; a second one ends it at once (130, 143). --once runs one cycle and exits: 0 when the set is valid, every test \
            passed and the simulation ran, 1 otherwise. Invalid arguments exit 2. docs/watch.md says more.

            Examples:
              rulesrun watch
              rulesrun watch examples/graduated-recovery --replay examples/replay/escalation-week.jsonl
              rulesrun watch --simulate 30d --users 200 --no-tests
            """
    )

    @Argument(help: RuleFolderOption.help) var directory = RuleFolderOption.defaultFolder
    @Option(help: ArgumentHelp("An events file to replay at each cycle (JSON lines, at most 4 MiB; repeatable).", valueName: "file"))
    var replay: [String] = []
    @Option(help: ArgumentHelp("Run a simulation of this length at each cycle (e.g. 30d).", valueName: "duration")) var simulate: String?
    @Option(
        parsing: .unconditional, help: "Users of --simulate, 1 to \(Simulation.maxUsers). (default: 100)",
        transform: WholeNumber.parser(1...Simulation.maxUsers)) var users: Int?
    @Flag(inversion: .prefixedNo, help: "Run the folder's tests at each cycle.") var tests = true
    @OptionGroup var selection: TestSelection
    @Option(
        parsing: .unconditional,
        help: "Cases per property of the tests, 1 to \(PropertyRunner.maxCases). (default: \(PropertyRunner.defaultCases))",
        transform: WholeNumber.parser(1...PropertyRunner.maxCases)) var cases = PropertyRunner.defaultCases
    @Flag(help: "Also show the rule calls of the first line of each --replay whose output changed.") var explain = false
    @Flag(help: "Do not show the rule calls of a failed test (nor run it again to find them).") var noExplain = false
    @Flag(help: "Run one cycle and exit: 0 when the set is valid, every test passed and the simulation ran, 1 otherwise.") var once = false
    @Flag(
        help:
            "Compare the files every 200 ms instead of waiting for inotify's events (folders on NFS, sshfs or a VM's shared folder, which send none)."
    )
    var poll = false

    func validate() throws {
        if users != nil, simulate == nil { throw ValidationError("--users is the size of --simulate's cohort; add --simulate 30d") }
        if explain, noExplain { throw ValidationError("--explain and --no-explain: choose one") }
        if explain, replay.isEmpty { throw ValidationError("--explain explains the lines of --replay that changed; add --replay FILE") }
        if !tests, selection.namePattern != nil || selection.noInherit {
            throw ValidationError("--run and --no-inherit choose the tests that --no-tests leaves out: choose one")
        }
        do {
            _ = try RuleFolder(directory)
        } catch let error as LuaError {
            throw ValidationError("\(SourceFile.excerpt(directory)): \(error.message)")
        }
        for file in replay {
            do {
                _ = try SourceFile.read(file, maxBytes: WatchSession.maxReplayBytes)
            } catch {
                throw ValidationError("--replay \(SourceFile.excerpt(file)): \(error)")
            }
        }
    }

    func run() throws {
        let session = try WatchSession(
            directory: directory, replayPaths: replay, simulation: try simulation(), properties: tests ? PropertyRunner(cases: cases) : nil,
            selection: selection, explainsTests: !noExplain, explainsReplays: explain)
        if once {
            StopSignal.install()
            switch session.cycle(reason: "\(directory) (--once)") {
            case .good(let passed, let simulated): if !passed || !simulated { throw ExitCode(1) }
            case .rejected: throw ExitCode(1)
            case .stopped(let signal): Terminal.line("watch: stopped by \(signal)")
            }
            return
        }
        let watcher: FolderWatcher
        do {
            // Hidden files are not part of a rule set (nor its tests): an editor's `.escalation.lua.swp`, emacs's `.#escalation.lua`.
            watcher = try FolderWatcher(polling: poll) { name in
                !name.hasPrefix(".")
                    && (name.hasSuffix(".lua") || name.hasSuffix(".jsonl") || name == "extends" || name == RuleSet.testFolder)
            }
            try watcher.watch(folders(), files: replay)
        } catch let error as FolderWatcher.Failure {
            Terminal.error("watch: \(error)")
            throw ExitCode(2)
        }
        var reason = "\(directory) (first cycle)"
        while true {
            if case .stopped(let signal) = session.cycle(reason: reason) { return stop(signal, session) }
            do {
                // The folders again: an edit of `extends` or a new tests folder changes them.
                try watcher.watch(folders(), files: replay)
            } catch let error as FolderWatcher.Failure {
                Terminal.line("watch: \(error)")
            }
            Terminal.line("watching \(directory)\(watcher.isPolling ? ", comparing its files every 200 ms" : "") (Ctrl-C to stop)")
            fflush(nil)  // standard output is a pipe in scripts and tests: each cycle as it ends
            var gone: String?
            waiting: while true {
                switch watcher.next() {
                case .stop(let signal): return stop(signal, session)
                case .changed(let files, let folders):
                    // No folder, no cycle (it would only say so): said once, and the cycle runs when a folder is there again.
                    if let now = WatchPlan.absence(of: directory) {
                        if now != gone { Terminal.line("watch: \(now); waiting for a folder there (a cycle runs then)") }
                        fflush(nil)
                        gone = now
                        continue waiting
                    }
                    let named = files.map(describe)
                    let more = named.count > 5 ? " and \(named.count - 5) more" : ""
                    let changed = named.isEmpty ? [] : [named.prefix(5).joined(separator: ", ") + more + " changed"]
                    reason = (folders + changed).joined(separator: "; ")
                    break waiting
                }
            }
        }
    }

    /// A changed file as the cycle's header names it: a --replay file as the user wrote it, and said to be one.
    private func describe(_ file: String) -> String {
        if file == "*" { return "many files (the change queue overflowed)" }
        return replay.first { WatchPlan.tidy($0) == WatchPlan.tidy(file) }.map { "\($0) (--replay)" } ?? file
    }

    private func stop(_ signal: String, _ session: WatchSession) {
        Terminal.line("watch: stopped by \(signal) after \(session.cycles) cycle\(session.cycles == 1 ? "" : "s")")
        fflush(nil)  // standard output is a pipe in scripts and tests: each cycle as it ends
    }

    /// The rule folder, its tests, and those of every folder it extends (the folder and its tests
    /// alone while its `extends` does not name a folder).
    private func folders() -> [String] {
        let tests = (try? RuleTestRunner.testFolders(directory)) ?? [(directory as NSString).appendingPathComponent(RuleSet.testFolder)]
        // `rules/` and `rules` are one folder: named without the slash (`rules/escalation.lua changed`);
        // its symbolic links are not resolved (the watch follows a link that is pointed elsewhere).
        return tests.flatMap { [($0 as NSString).deletingLastPathComponent, $0] }.map(WatchPlan.tidy)
    }

    /// The simulation of `--simulate`: in memory, the default personas, seed 1.
    private func simulation() throws -> SimulationConfig? {
        guard let simulate else { return nil }
        do {
            let duration = try SimulationDuration(simulate)
            try duration.check(from: SimulationConfig.defaultStart)
            return SimulationConfig(
                duration: duration, users: users ?? 100,
                personaFolders: PersonaLoader.folders(rules: directory),
                rules: directory, jobs: min(ProcessInfo.processInfo.activeProcessorCount, Simulation.maxJobs), database: nil)
        } catch {
            throw ValidationError("--simulate: \(error.message)")
        }
    }
}

import Foundation
import LuaHost
import RulesEngine
import RulesModel
import RulesSim
import RulesStore

/// The cycles of `rulesrun watch`: each one validates the rule folder, runs its tests, replays the
/// events file and runs the small simulation it was given, and prints what changed against the last
/// good version. A version is good when it validates — what `Engine.reload()` accepts: like
/// `reload()`, a cycle loads the set in full (`RuleSet.load`) and only then replaces the last good
/// one; a set that does not load leaves the last good version in force (its replay output and
/// metrics stay the reference) and the cycle says why. Failing tests are printed but do not keep
/// the previous version: an edit may mean to change what a test expects.
///
/// A cycle validates the set once: the tests and the simulation load what it validated (its
/// `RuleSnapshot`), without proving it again.
final class WatchSession {
    /// How a cycle ended.
    enum Outcome: Equatable {
        /// The set validated (it is now the last good version); whether every test passed and
        /// whether the simulation (with `--simulate`) ran: a cycle whose simulation failed fails.
        case good(testsPassed: Bool, simulated: Bool = true)
        /// The set did not validate: the last good version stays in force.
        case rejected
        /// A signal arrived during the cycle, which stopped after the step it was in.
        case stopped(String)
    }

    /// The largest events file replayed at each cycle (a watch replays a small file many times).
    static let maxReplayBytes = 4 * 1024 * 1024
    /// The differing lines of a replay printed in full; the others are counted.
    static let maxDifferingLinesShown = 20

    let directory: String
    let replayPaths: [String]
    let simulation: SimulationConfig?
    /// What runs the tests' properties (`rulesrun test`'s runner); nil: no test runs.
    let properties: PropertyRunner?
    /// Which tests run (`--run`, `--no-inherit`), as `rulesrun test` chooses them.
    let selection: TestSelection
    private let selected: (String) -> Bool
    /// What a cycle explains: the rule calls of a failed test (as `rulesrun test` does), and of the
    /// first line of each replay whose output changed.
    let explainsTests: Bool
    let explainsReplays: Bool

    private(set) var cycles = 0
    /// The last good version: its cycle and the time it was loaded.
    private var lastGood: (cycle: Int, time: String)?
    /// Each replay's text and output with the last good version, by file (the output by line number).
    private var lastReplays: [String: (text: String, outputs: [Int: JSONValue])] = [:]
    private var lastMetrics: [WatchMetric]?

    init(
        directory: String, replayPaths: [String], simulation: SimulationConfig?, properties: PropertyRunner?, selection: TestSelection,
        explainsTests: Bool = true, explainsReplays: Bool = false
    ) throws {
        self.directory = directory
        self.replayPaths = replayPaths
        self.simulation = simulation
        self.properties = properties
        self.selection = selection
        selected = try selection.selects()
        self.explainsTests = explainsTests
        self.explainsReplays = explainsReplays
    }

    /// Runs one cycle, printing as it goes; `reason` is what started it.
    func cycle(reason: String) -> Outcome {
        cycles += 1
        let start = ContinuousClock.now
        let time = Self.clockTime()
        Terminal.line("[\(time)] cycle \(cycles): \(reason)")
        fflush(nil)
        let outcome = steps(time: time)
        let seconds = String(format: "%.2f s", Double((ContinuousClock.now - start) / .milliseconds(1)) / 1000)
        switch outcome {
        case .good(let passed, simulated: false):
            Terminal.line("cycle \(cycles): failed: the simulation did not run\(passed ? "" : ", and tests failed"), \(seconds)")
        case .good(let passed, simulated: true):
            Terminal.line("cycle \(cycles): good\(passed ? "" : ", with failing tests"), \(seconds)")
        case .rejected:
            Terminal.line("cycle \(cycles): rejected, \(seconds)")
        case .stopped: break
        }
        Terminal.line("")
        fflush(nil)
        return outcome
    }

    private func steps(time: String) -> Outcome {
        let ruleSet: RuleSet
        do {
            ruleSet = try RuleSet.load(directory)
        } catch {
            let problems = (error as? RuleSetError)?.problems.map(\.description) ?? ["\(error)"]
            for problem in problems { Terminal.line(problem) }
            let count = problems.count
            let kept =
                lastGood.map { "the last good version (cycle \($0.cycle), \($0.time)) stays in force" }
                ?? "no good version yet: waiting for a fix"
            Terminal.line("\(directory): \(count) problem\(count == 1 ? "" : "s"); \(kept)")
            return .rejected
        }
        Terminal.line("\(directory): valid (\(ruleSet.summary))")
        if let signal = Self.stepDone() { return .stopped(signal) }
        var passed = true
        if let properties {
            passed = runTests(ruleSet.snapshot, properties: properties)
            if let signal = Self.stepDone() { return .stopped(signal) }
        }
        for path in replayPaths {
            replay(path, ruleSet: ruleSet)
            if let signal = Self.stepDone() { return .stopped(signal) }
        }
        var simulated = true
        if var simulation {
            simulation.validated = ruleSet.snapshot
            simulated = simulate(simulation)
        }
        lastGood = (cycles, time)
        return .good(testsPassed: passed, simulated: simulated)
    }

    /// Runs the folder's tests (`rulesrun test`'s runner) against the set validated (`validated`);
    /// prints those that did not pass, explained unless told otherwise, and the summary. Whether all passed.
    private func runTests(_ validated: RuleSnapshot, properties: PropertyRunner) -> Bool {
        let results: [RuleTestResult]
        do {
            results = try RuleTestRunner.run(
                directory, validated: validated, inherit: selection.inherit, properties: properties, explain: explainsTests,
                selected: selected)
        } catch {
            // A test folder that changed since the set validated (an `extends` edited): the next
            // cycle, which the change started, says how.
            Terminal.line("tests: not run: \(error)")
            return false
        }
        guard !results.isEmpty else {
            Terminal.line("tests: " + selection.nothingToRun(in: selection.folders(of: directory)))
            return true
        }
        for result in results where result.outcome != .passed { TestReport.printResult(result) }
        Terminal.line("tests: \(TestReport.summary(results))")
        return !results.contains { $0.outcome.failsTheRun }
    }

    /// Replays `path` with `ruleSet`, its users' rows in memory (its own), then prints the lines whose
    /// output differs from the last good version's, field by field. A file whose text changed since
    /// (a save of it) is not compared: its output is the reference for the next cycles.
    private func replay(_ path: String, ruleSet: RuleSet) {
        let text: String
        do {
            let bytes = try SourceFile.read(path, maxBytes: Self.maxReplayBytes)
            guard let decoded = String(validating: SourceFile.withoutByteOrderMark(bytes), as: UTF8.self) else {
                return Terminal.line("replay \(path): not UTF-8 text (expected JSON lines); not replayed")
            }
            text = decoded
        } catch {
            return Terminal.line("replay \(path): \(error); not replayed")
        }
        ruleSet.host.positionedPrintHandler = { text, position in
            Terminal.line((position.map { "\($0.file):\($0.line): " } ?? "") + "print: " + text)
        }
        // The users' rows in memory (`Replay.inMemory`), with the output of `rulesrun replay`.
        let replay = Replay.inMemory(rules: ruleSet, ruleFolder: directory)
        var outputs: [Int: JSONValue] = [:]
        var numbers: [Int] = []
        var refused = 0
        replay.inMemory {
            for (index, raw) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
                let line = String(decoding: raw, as: UTF8.self)
                guard let out = replay.output(forRawLine: line, number: index + 1) else { continue }
                outputs[index + 1] = out
                numbers.append(index + 1)
                if out["ok"] != .bool(true) { refused += 1 }
            }
        }
        let events = "\(numbers.count) event\(numbers.count == 1 ? "" : "s") (\(refused) refused)"
        let reference = lastReplays[path]
        lastReplays[path] = (text, outputs)
        guard let reference else { return Terminal.line("replay \(path): \(events); the reference for the next cycles") }
        guard reference.text == text else {
            return Terminal.line(
                "replay \(path): \(events); the file changed since the last good version: the reference for the next cycles")
        }
        let last = reference.outputs
        let differing = numbers.filter { last[$0] != outputs[$0] }
        guard !differing.isEmpty else { return Terminal.line("replay \(path): \(events); no line differs from the last good version") }
        let count = differing.count
        Terminal.line(
            "replay \(path): \(events); \(count) line\(count == 1 ? "" : "s") differ\(count == 1 ? "s" : "") from the last good version")
        for number in differing.prefix(Self.maxDifferingLinesShown) {
            let before = last[number] ?? .null, after = outputs[number] ?? .null
            // `compare`'s leaf-by-leaf difference (a function of ComparedField that depends on no field).
            for difference in EconomyField.differences(before, after) { Terminal.line("  line \(number): \(difference)") }
        }
        if count > Self.maxDifferingLinesShown { Terminal.line("  … and \(count - Self.maxDifferingLinesShown) more lines") }
        if explainsReplays, let first = differing.first { explain(line: first, of: text, ruleSet: ruleSet, expected: outputs[first]) }
    }

    /// Prints the rule calls that the event of line `number` of `text` makes under the new rules (the
    /// last `FailureExplanation.maxCalls`, as `replay --explain text` shows them): the lines up to it
    /// are replayed once more, on a new host loaded from what the cycle validated, that explains.
    /// Only a cycle whose replay changed pays for it.
    private func explain(line number: Int, of text: String, ruleSet: RuleSet, expected: JSONValue?) {
        let calls: [LuaCallTrace.Call]
        let explaining: RuleSet
        do {
            explaining = try ruleSet.snapshot.load()
            explaining.host.printHandler = { _ in }  // printed once already, by the replay
            let trace = LuaCallTrace()
            try explaining.host.explain(trace)
            let replay = Replay.inMemory(rules: explaining, ruleFolder: directory)
            var output: JSONValue?
            let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).prefix(number)
            replay.inMemory {
                for (index, raw) in lines.enumerated() {
                    _ = trace.removeAll()
                    output = replay.output(forRawLine: String(decoding: raw, as: UTF8.self), number: index + 1)
                }
            }
            calls = trace.removeAll()
            // Rules are pure: the second run gives the first's output (said when it does not).
            if output != expected {
                Terminal.line("  (the second run gave line \(number) another output: the rules did not repeat themselves)")
            }
        } catch {
            return Terminal.line("  line \(number) not explained: \(error)")
        }
        let explanation = FailureExplanation(calls, in: explaining, subject: "line \(number) under the new rules")
        for line in explanation.text { Terminal.line("  " + VisibleText.escaping(line)) }
    }

    /// Runs the small simulation and prints its summary figures with their changes since the last
    /// good version; whether it ran (a simulation that fails keeps the figures of the last that ran
    /// as the reference).
    private func simulate(_ config: SimulationConfig) -> Bool {
        let previous = lastMetrics
        let against = previous == nil ? "the reference for the next cycles" : "changes since the last good version"
        // The header first, written out before the simulation starts: a long one shows what the
        // cycle is doing (and a signal from then on is one during the simulation).
        let users = "\(config.users) user\(config.users == 1 ? "" : "s")"
        Terminal.line("simulate \(config.duration), \(users), seed \(config.seed) (\(against)):")
        fflush(nil)
        let report: SimulationReport
        do {
            report = try Simulation(config: config).run()
        } catch {
            Terminal.line("simulate: \(error)")
            return false
        }
        let metrics = WatchMetric.of(report)
        lastMetrics = metrics
        let width = metrics.map(\.name.count).max() ?? 0
        for metric in metrics {
            Terminal.line("  " + metric.line(against: previous?.first { $0.name == metric.name }, nameWidth: width))
        }
        return true
    }

    /// Between two steps of a cycle: what the step printed is written out (standard output is a
    /// pipe in scripts and tests, where it would wait for the cycle's end), and a signal received
    /// during it is returned.
    static func stepDone() -> String? {
        fflush(nil)
        return StopSignal.received()
    }

    /// The local time of day, HH:MM:SS.
    static func clockTime() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}

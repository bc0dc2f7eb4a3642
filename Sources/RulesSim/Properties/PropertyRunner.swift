import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// Runs the `prop_*` functions of `rulesrun test`: `cases` cases each, drawn from `seed` by the
/// generator the file's `cases` table names (case `k` of a seed is the same whatever the number of
/// cases). A value property gets the drawn value; a history property gets the history replayed
/// through the engine under the rule set (`LuaProperty`). The first case that breaks it is shrunk:
/// a value's minimal case is printed, a history's is written to `out/NAME.jsonl` as a replay file
/// (`NAME` made a file name by `FileNames`: it stays in `out`, one per property);
/// with `explain`, the minimal case is run once more on a host that explains, and the failure
/// shows its last rule calls (`FailureExplanation`), as a failed test's do.
///
/// Every case is counted as it is drawn against the bounds of a case (`CaseSize`). No case starts
/// and no shrink candidate is tried once the test's deadline has passed: a property stopped among
/// its cases is an ERROR (none broke it so far), one stopped while shrinking (or at the most
/// candidates shrinking tries) FAILs with the smallest failing case found so far, saying so.
package final class PropertyRunner: PropertyRunning {
    package static let defaultCases = 100
    package static let maxCases = 100_000
    package static let defaultOut = ".rulesrun/test"
    /// The most candidates tried while shrinking a value (a history's: `HistoryCheck.maxShrinkAttempts`).
    package static let maxShrinkAttempts = 20_000

    package let cases: Int
    package let seed: UInt64
    package let out: String
    package let explain: Bool
    /// The rule sets the histories are replayed under, by folder (loaded once, and again when the
    /// test runner's snapshot of the folder changed: `rulesrun watch` keeps one runner for every cycle).
    private var ruleSets: [String: RuleSet] = [:]
    /// The replay files written, in order.
    package private(set) var written: [String] = []
    /// The replay files' names, by property (test file and name).
    private var fileNames = FileNames()

    package init(cases: Int = PropertyRunner.defaultCases, seed: UInt64 = 1, out: String = PropertyRunner.defaultOut, explain: Bool = false)
    {
        self.cases = cases
        self.seed = seed
        self.out = out
        self.explain = explain
    }

    package func run(_ property: PropertyTest, in host: LuaHost, until deadline: TestLimits.Deadline) -> RuleTestResult {
        func result(
            _ outcome: RuleTestResult.Outcome, _ failure: [String], cases: Int? = nil, explanation: FailureExplanation? = nil
        ) -> RuleTestResult {
            property.result(outcome, failure, cases: cases, explanation: explanation)
        }
        let path = "\(property.file): \(PropertyTest.casesTable).\(property.name)"
        guard !property.cases.isNil else {
            return result(
                .error,
                [
                    "\(path): no generator for \(property.name) (e.g. \(PropertyTest.casesTable) = { \(property.name) = gen.int(0, 10) } or gen.history(\"earned\"))"
                ])
        }
        let generator: CaseGenerator
        do {
            generator = try CaseGenerator.parse(property.cases, path: path) { try self.ruleSet(property.rules, snapshot: property.snapshot) }
        } catch {
            return result(.error, [error.description])
        }
        let reproduce =
            "rulesrun test \(ShellQuote.path(property.rules)) --run \(ShellQuote.exactRegex(property.name)) --seed \(seed) --cases \(cases)"
            + (out == Self.defaultOut ? "" : " " + ShellQuote.option("--out", out))
        // What a property stopped at its deadline, or shrinking stopped early, says.
        func stopped(after done: Int) -> String {
            "\(path): stopped after \(done) of \(cases) cases, none of which broke it: \(deadline.limit) was reached"
        }
        func shrinkStop(_ stop: ShrinkStop, attempts: Int, limit: Int) -> String {
            stop.text(attempts: attempts, limit: limit, deadline: deadline.limit)
        }
        let silent = host.printIsSilent
        host.printIsSilent = true
        defer { host.printIsSilent = silent }
        if case .history(let app, let days) = generator {
            let ruleSet: RuleSet
            do {
                ruleSet = try self.ruleSet(property.rules, snapshot: property.snapshot)
            } catch {
                return result(.error, ["\(property.rules): cannot load the rules to replay: \(error)"])
            }
            let check = HistoryCheck(app: app, days: days, rules: [ruleSet], judge: LuaProperty.judge(property.function, in: host))
            let outcome = check.run(cases: cases, seed: seed, stopAtFirst: true, until: deadline.instant)
            guard let first = outcome.firstCase else {
                guard !outcome.stoppedAtDeadline else { return result(.error, [stopped(after: outcome.cases)], cases: outcome.cases) }
                return result(.passed, [], cases: cases)
            }
            let file = (out as NSString).appendingPathComponent(
                fileNames.name(for: property.name, key: "\(property.file)\u{0}\(property.name)", suffix: ".jsonl"))
            let stop = outcome.shrinkStopped.map {
                shrinkStop($0, attempts: outcome.attempts, limit: HistoryCheck.maxShrinkAttempts) + "; the smallest failing history found so far"
            }
            var lines = [
                outcome.message,
                "falsified by \(app.rawValue) history \(first) of seed \(seed) (\(outcome.originalEvents) events); shrunk to \(outcome.minimal.count) events: \(file)",
            ]
            if let stop { lines.append(stop) }
            // One comment line each, whatever the names hold.
            let header = [
                "# rulesrun test \(property.rules): \(property.name) (\(property.file):\(property.function.line)) breaks on this history",
                "# shrunk from \(app.rawValue) history \(first) of seed \(seed) (\(outcome.originalEvents) events) to \(outcome.minimal.count) events"
                    + (stop.map { " (\($0))" } ?? ""),
                "# why: \(outcome.message.replacingOccurrences(of: "\n", with: " "))",
                "# reproduce: \(ShellQuote.replay("FILE", rules: property.rules))   or   \(reproduce)",
            ].map(VisibleText.oneLine)
            do {
                try FileManager.default.createDirectory(atPath: WorkingFolder.resolve(out), withIntermediateDirectories: true)
                try ((header + outcome.minimal).joined(separator: "\n") + "\n").write(
                    toFile: WorkingFolder.resolve(file), atomically: true, encoding: .utf8)
                written.append(file)
                lines.append("reproduce: \(ShellQuote.replay(file, rules: property.rules))   or   \(reproduce)")
            } catch {
                lines.append("cannot write \(file): \(error.localizedDescription)")
            }
            // Explaining replays the history once more: not past the deadline (it may be a year of events).
            let explains = explain && !deadline.hasPassed
            if explain, !explains { lines.append("its rule calls are not shown: \(deadline.limit) was reached") }
            let explanation =
                explains
                ? FailureExplanation.ofHistory(outcome.minimal, rules: [property.rules]) { check.judge(outcome.minimal, $0) == nil }?.first
                : nil
            return result(.failed, lines, cases: first + 1, explanation: explanation)
        }
        // A drawn value as the property gets it; nil when it cannot be made (reported as an error
        // for a drawn case; a shrink candidate that cannot be made does not break the property).
        var unmade: (any Error)?
        func verdict(_ drawn: LuaValue) -> String? {
            do {
                return LuaProperty.verdict(property.function, in: host, [try generator.present(drawn)])
            } catch {
                unmade = error
                return nil
            }
        }
        for k in 0..<cases {
            guard !deadline.hasPassed else { return result(.error, [stopped(after: k)], cases: k) }
            var rng = SeededGenerator(seed: seed, UInt64(k), 0x5052_4f50)
            let value: LuaValue
            do { value = try generator.draw(using: &rng) } catch {
                return result(.error, ["\(path): case \(k) of seed \(seed): \(error)"], cases: k)
            }
            guard verdict(value) != nil else {
                if let unmade { return result(.error, ["\(path): case \(k) of seed \(seed): cannot make the case: \(unmade)"], cases: k) }
                continue
            }
            let shrinker = Shrinker<LuaValue>(maxAttempts: Self.maxShrinkAttempts, candidates: generator.shrink)
            let shrunk = shrinker.shrink(value, until: deadline.instant) { verdict($0) != nil }
            host.printIsSilent = silent  // what the minimal case prints is shown
            let message = verdict(shrunk.value) ?? "?"
            let (original, minimal) = ((try? generator.present(value)) ?? value, (try? generator.present(shrunk.value)) ?? shrunk.value)
            let rules = explain ? property.snapshot ?? (try? RuleSet.load(property.rules, proving: false))?.snapshot : nil
            let explanation = rules.flatMap {
                FailureExplanation.ofTest(named: property.name, url: property.url, label: property.file, rules: $0, case: minimal)
            }
            let shrunkTo =
                shrunk.stopped.map { "smallest failing case found (\(shrinkStop($0, attempts: shrunk.attempts, limit: Self.maxShrinkAttempts)))" }
                ?? "minimal case (\(shrunk.attempts) shrink attempts)"
            return result(
                .failed,
                [
                    message, "falsified by case \(k) of seed \(seed): \(SourceFile.excerpt(original.description))",
                    "\(shrunkTo): \(SourceFile.excerpt(minimal.description))",
                    "reproduce: \(reproduce)",
                ], cases: k + 1, explanation: explanation)
        }
        return result(.passed, [], cases: cases)
    }

    private func ruleSet(_ folder: String, snapshot: RuleSnapshot? = nil) throws -> RuleSet {
        if let known = ruleSets[folder], snapshot == nil || known.snapshot == snapshot { return known }
        let loaded = try snapshot?.load() ?? RuleSet.load(folder, proving: false)
        loaded.host.printIsSilent = true
        ruleSets[folder] = loaded
        return loaded
    }
}

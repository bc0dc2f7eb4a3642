import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// `compare A B --property FILE`, and the expectations over the economy's and the habit tracker's
/// fields: relations between two rule sets checked on generated histories replayed through the
/// engine under both (`HistoryCheck`). A property file is Lua, in the sandbox of the rules, with
/// the test helpers (`expect_eq`, `expect_true`, `expect_error`, `gen`); each global function
/// named `prop_…` is a property, its `cases` entry names the histories (`gen.history("earned")`),
/// and it gets A's replayed history then B's (lists of steps, one per event: `event`, `ok`,
/// `decisions`, `state`, `error`) and must return true.
package final class PropertyComparison {
    /// One property (or expectation) and what checking it found.
    package struct Checked: Sendable {
        /// `prop_b_never_charges_more`, or the expectation's text.
        package var name: String
        /// Where it is stated: `properties.lua:12`, or `--expect`.
        package var origin: String
        package var app: HistoryApp
        package var days: Int
        package var outcome: HistoryCheck.Outcome
        /// The replay file of its minimal history (`property-NAME.jsonl`, `expectation-APP-N.jsonl`).
        package var fileName: String
        /// For a broken property or expectation, the rule calls of its minimal history under A and
        /// B (the last ones), as a failed test shows them; empty otherwise (or with `--no-explain`).
        package var explanations: [FailureExplanation] = []
        /// What its histories reached of A's rules and of B's (`RuleReach`; nil for a set that is
        /// not a rule folder).
        package var reach: [RuleReach?] = []
        package var holds: Bool { outcome.broken == 0 }
        /// What stopped shrinking before its history was minimal, as `rulesrun test` says it; nil
        /// when the history is minimal.
        package var shrinkText: String? {
            outcome.shrinkStopped.map { $0.text(attempts: outcome.attempts, limit: shrinkLimit) }
        }
        /// The limit its shrinking had.
        package var shrinkLimit = HistoryCheck.maxShrinkAttempts
        /// Whether it is an `--expect` (over the economy's or the habit tracker's fields).
        package var isExpectation: Bool { origin == PropertyComparison.expectOrigin }
    }

    /// The most histories per property (`--property-runs`), and the default.
    package static let maxRuns = 10_000
    package static let defaultRuns = 100
    /// The origin of an expectation's check.
    package static let expectOrigin = "--expect"
    /// The largest property file read (the size of the largest rule file).
    package static let maxBytes = LuaLimits.default.maxSourceBytes

    package let rulesA: any PolicyRules
    package let rulesB: any PolicyRules
    package let seed: UInt64
    /// The most candidates tried while shrinking a broken one's history (`HistoryCheck.maxShrinkAttempts`).
    package let shrinkLimit: Int
    /// The property file's host (nil without --property) and its properties, in the order of their lines.
    private var host: LuaHost?
    package private(set) var properties: [(name: String, function: LuaFunction, app: HistoryApp, days: Int)] = []
    package private(set) var file: String?

    package init(a: any PolicyRules, b: any PolicyRules, seed: UInt64, shrinkLimit: Int = HistoryCheck.maxShrinkAttempts) {
        rulesA = a
        rulesB = b
        self.seed = seed
        self.shrinkLimit = shrinkLimit
    }

    /// Loads the property file: every `prop_*` function must have a `gen.history` entry in `cases`.
    /// The error names the file, the line or the `cases` entry, and what was expected.
    package func load(file path: String) throws(PropertyFileError) {
        let label = (path as NSString).lastPathComponent
        do {
            let bytes = try SourceFile.read(path, maxBytes: Self.maxBytes)
            let host = try LuaHost()
            try TestHelpers.install(in: host, modules: [])
            let globals = try host.loadDefiningGlobals(bytes: bytes, chunkName: label, reading: [PropertyTest.casesTable])
            if let unnamed = globals.notText.first(where: { $0.shown.hasPrefix("prop_") }) {
                throw PropertyFileError(
                    message:
                        "\(path):\(unnamed.function.line): the name \(unnamed.shown) is not UTF-8 text; a property's name is shown in the report and names its replay file: write it in UTF-8"
                )
            }
            let found = globals.functions.filter { $0.name.hasPrefix("prop_") }
                .sorted { ($0.function.line, $0.name) < ($1.function.line, $1.name) }
            guard !found.isEmpty else {
                throw PropertyFileError(message: "\(path): defines no property (a global function whose name starts with prop_)")
            }
            let cases = globals.values[PropertyTest.casesTable] ?? .nil
            properties = try found.map { property in
                let place = "\(label): \(PropertyTest.casesTable).\(property.name)"
                guard !cases[property.name].isNil else {
                    throw PropertyFileError(
                        message:
                            "\(place): no history for \(property.name) (e.g. \(PropertyTest.casesTable) = { \(property.name) = gen.history(\"earned\") })"
                    )
                }
                let expected =
                    "\(place): compare checks properties on histories: expected gen.history(\"pressure\"|\"earned\"|\"habits\" [, {days = N}])"
                // A value generator draws the arguments of one set's functions (gen.habit_streak: under
                // its params), which a property of two sets' histories cannot call: rulesrun test's.
                if let kind = cases[property.name]["generator"].stringValue, kind != "history" {
                    throw PropertyFileError(
                        message: expected
                            + "; gen.\(kind) draws values (arguments of one set's rule functions), not histories: a property of it belongs in a test file (rulesrun test)"
                    )
                }
                let generator: CaseGenerator
                do { generator = try CaseGenerator.parse(cases[property.name], path: place) } catch {
                    throw PropertyFileError(message: "\(error)")
                }
                guard case .history(let app, let days) = generator else { throw PropertyFileError(message: expected) }
                return (property.name, property.function, app, days)
            }
            self.host = host
            file = path
        } catch let error as PropertyFileError {
            throw error
        } catch {
            throw PropertyFileError(message: "\(path): \(error)")
        }
    }

    /// Checks every property on `runs` histories of its app, and each expectation on `runs`
    /// histories of its app of `days` days (compare's `--economy-…`, `--habit-…`), from `seed`.
    /// With `folders` (A's and B's), a broken property's or expectation's minimal history is
    /// replayed once more under each on a host that explains (`Checked.explanations`).
    package func run(
        runs: Int, expectations: [(LineExpectation, runs: Int, days: Int)], folders: (a: String, b: String)? = nil,
        progress: ((String, Int, Int) -> Void)? = nil
    ) -> [Checked] {
        var checked: [Checked] = []
        var fileNames = FileNames()
        if let host {
            host.printIsSilent = true
            for property in properties {
                let check = HistoryCheck(
                    app: property.app, days: property.days, rules: [rulesA, rulesB], judge: LuaProperty.judge(property.function, in: host))
                check.shrinkLimit = shrinkLimit
                // The lines of the cases checked (not of shrinking).
                let reading = RuleReach.Reading([rulesA, rulesB])
                let outcome = check.run(cases: runs, seed: seed, stopAtFirst: false, casesChecked: { reading.finish() }) {
                    progress?(property.name, $0, runs)
                }
                let lines = reading.finish()
                checked.append(
                    Checked(
                        name: property.name, origin: "\(property.function.source):\(property.function.line)", app: property.app,
                        days: property.days, outcome: outcome,
                        fileName: fileNames.name(for: property.name, prefix: "property-", suffix: ".jsonl"),
                        explanations: explanations(of: outcome, check: check, folders: folders, focus: nil),
                        reach: reach(lines, app: property.app), shrinkLimit: shrinkLimit))
            }
        }
        var counts: [HistoryApp: Int] = [:]
        for (expectation, runs, days) in expectations {
            counts[expectation.app, default: 0] += 1
            let check = HistoryCheck(app: expectation.app, days: days, rules: [rulesA, rulesB]) { lines, outputs in
                expectation.failure(lines: lines, a: outputs[0], b: outputs[1])
            }
            check.shrinkLimit = shrinkLimit
            let reading = RuleReach.Reading([rulesA, rulesB])
            let outcome = check.run(cases: runs, seed: seed, stopAtFirst: false, casesChecked: { reading.finish() }) {
                progress?("expect \(expectation)", $0, runs)
            }
            let lines = reading.finish()
            checked.append(
                Checked(
                    name: "expect \(expectation)", origin: Self.expectOrigin, app: expectation.app, days: days, outcome: outcome,
                    fileName: fileNames.name(for: "expectation-\(expectation.app.rawValue)-\(counts[expectation.app]!)", suffix: ".jsonl"),
                    explanations: explanations(of: outcome, check: check, folders: folders, focus: expectation.focus),
                    reach: reach(lines, app: expectation.app), shrinkLimit: shrinkLimit))
        }
        return checked
    }

    /// What the lines a check ran on A and on B reached of their rules.
    private func reach(_ lines: [LineCounts], app: HistoryApp) -> [RuleReach?] {
        zip([rulesA, rulesB], lines).map { rules, counts in
            (rules as? RuleSet).flatMap { RuleReach.measure($0, counts: counts, app: app) }
        }
    }

    /// A broken check's minimal history (or the smallest found) replayed once more under A and B
    /// (`folders`) on hosts that explain: the last calls of the history, or, for an expectation
    /// (`focus`), those up to the event where it broke that made its fields; none when it held or
    /// without folders.
    private func explanations(
        of outcome: HistoryCheck.Outcome, check: HistoryCheck, folders: (a: String, b: String)?, focus: FailureExplanation.Focus?
    )
        -> [FailureExplanation]
    {
        guard outcome.broken > 0, let folders else { return [] }
        let history = ShrinkStop.historyName(minimal: outcome.shrinkStopped == nil, definite: true)
        return FailureExplanation.ofHistory(outcome.minimal, rules: [folders.a, folders.b], history: history, focus: focus) {
            check.judge(outcome.minimal, $0) == nil
        } ?? []
    }

    /// A broken property's replay file: comment lines saying what breaks, then the events.
    package static func replayText(_ checked: Checked, nameA: String, nameB: String, seed: UInt64) -> String {
        let outcome = checked.outcome
        return
            ([
                "# rulesrun compare \(ShellQuote.path(nameA)) \(ShellQuote.path(nameB)): \(checked.name) (\(checked.origin)) breaks",
                "# \(ShrinkStop.historyName(minimal: outcome.shrinkStopped == nil)) (\(outcome.minimal.count) events), shrunk from \(checked.app.rawValue) history \(outcome.firstCase ?? 0) of seed \(seed) (\(outcome.originalEvents) events)"
                    + (checked.shrinkText.map { "; \($0)" } ?? ""),
                "# why: \(outcome.message.replacingOccurrences(of: "\n", with: " "))",
                "# reproduce: \(ShellQuote.replay("FILE", rules: nameA))   and   \(ShellQuote.replay("FILE", rules: nameB))",
            ].map(VisibleText.oneLine) + outcome.minimal).joined(separator: "\n") + "\n"
    }
}

/// A property file that cannot be used.
package struct PropertyFileError: Error, CustomStringConvertible, Sendable {
    package var message: String
    package var description: String { message }
}

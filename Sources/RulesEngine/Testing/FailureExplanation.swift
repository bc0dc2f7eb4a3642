import Foundation
import LuaHost
import RulesModel
import RulesStore

/// The rule calls a failed test made, as `replay --explain` shows them (`RuleCallExplanation`):
/// for a unit test (`test_*`), every call of a rule module's function it made; for a scenario,
/// the calls of its failing line; for a property, those of its minimal case (a value property's
/// calls, or the replay of a history property's minimal history). Only the last `maxCalls` are kept, the rest counted.
///
/// They come from a second run of the failed test alone, on a fresh host that explains (explaining
/// costs the tests that pass nothing). Rules are pure, so the second run fails as the first did;
/// if it passes all the same (a rule that is not deterministic), its calls are shown, said to be
/// those of a run that passed.
package struct FailureExplanation: Sendable {
    /// The calls shown at most: the last ones before the failure.
    package static let maxCalls = 10

    /// What made the calls, as the text says it: `the test`, `line 4`.
    package let subject: String
    /// The last calls, at most `maxCalls`, in the order they were made.
    package let calls: [RuleCallExplanation]
    /// How many calls came before those.
    package let earlier: Int
    /// Whether the second run passed.
    package let rerunPassed: Bool

    /// The last `maxCalls` of `all`, made by `subject` on `ruleSet`'s host (`rulesrun watch --explain`
    /// shows those of a replay's first changed line this way).
    package init(_ all: [LuaCallTrace.Call], in ruleSet: RuleSet, subject: String, rerunPassed: Bool = false) {
        self.subject = subject
        calls = all.suffix(Self.maxCalls).map { RuleCallExplanation($0, in: ruleSet) }
        earlier = max(0, all.count - Self.maxCalls)
        self.rerunPassed = rerunPassed
    }

    /// `rule calls of the test:` (or `the last 10 rule calls of the test, of 14:`), then each call as
    /// `replay --explain text` shows it.
    package var text: [String] {
        let heading: String
        if calls.isEmpty {
            heading = "rule calls of \(subject): none"
        } else if earlier > 0 {
            heading = "the last \(calls.count) rule calls of \(subject), of \(calls.count + earlier):"
        } else {
            heading = "rule calls of \(subject):"
        }
        var lines = [heading + (rerunPassed ? " (from a second run, which passed: the rules did not repeat themselves)" : "")]
        if earlier > 0 { lines.append("  … \(earlier) earlier call\(earlier == 1 ? "" : "s")") }
        for call in calls { lines += call.text }
        return lines
    }

    /// The fields added to a failed test's JSON object: `explain` (the calls as
    /// `replay --explain json` shows them), `explain_earlier_calls` when calls were left out, and
    /// `explain_rerun_passed` when the second run passed.
    package var jsonFields: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("explain", .array(calls.map(\.json)))]
        if earlier > 0 { fields.append(("explain_earlier_calls", .int(earlier))) }
        if rerunPassed { fields.append(("explain_rerun_passed", .bool(true))) }
        return fields
    }

    /// Runs the unit test `name` of the test file at `url` (named `label`) once more against the
    /// rule set `rules` (loaded again from its snapshot), on a host that explains, with the modules'
    /// functions called through the host so that it records them; nil when the second run cannot be
    /// set up. With `case`, the function is a value property (`prop_*`) run on that case (its minimal
    /// one): the second run passes when it returns true.
    package static func ofTest(
        named name: String, url: URL, label: String, rules: RuleSnapshot, case value: LuaValue? = nil
    ) -> FailureExplanation? {
        do {
            let ruleSet = try rules.load()
            let host = ruleSet.host
            host.printHandler = { _ in }
            let modules = try ruleSet.modules.map { (name: $0.name, value: try host.callingThroughHost($0.value)) }
            let declarations = try TestHelpers.install(in: host, modules: modules, rules: ruleSet, callingThroughHost: true).declarations
            let bytes = try SourceFile.read(url.path, maxBytes: host.limits.maxSourceBytes)
            declarations.loading = (label, 0)
            let functions = try host.loadDefiningFunctions(bytes: bytes, chunkName: label)
            declarations.loading = nil
            // A function of the file, or a case of one of its table tests (`NAME[CASE]`).
            var found = functions.first { $0.name == name }.map { (function: $0.function, argument: value) }
            for table in declarations.tables where found == nil {
                if let given = table.cases.first(where: { "\(table.name)[\($0.name)]" == name }) { found = (table.function, given.value) }
            }
            guard let test = found else { return nil }
            let trace = LuaCallTrace()
            try host.explain(trace)
            var passed = true
            do {
                let results = try host.call(test.function, test.argument.map { [$0] } ?? [])
                if value != nil { passed = results.first == .boolean(true) }
            } catch { passed = false }
            // The test function itself is called through the host too: its call is not one of the rules'.
            // Nor are the calls that wrap the functions of a file `with_knobs` loads again.
            let calls = trace.removeAll().filter { $0.function != test.function && $0.function.source != LuaHost.wrapperChunkName }
            return FailureExplanation(calls, in: ruleSet, subject: value == nil ? "the test" : "the minimal case", rerunPassed: passed)
        } catch {
            return nil
        }
    }

    /// What of a history's calls to show: those up to the event where a compared field broke
    /// (`event`, from the sets' outputs), of the functions that make that field (`functions`, by
    /// name: `pricing.price`; all when none of them was called by then).
    package struct Focus {
        /// The field, as the heading names it (`cost_credits`).
        package var field: String
        package var functions: [String]
        /// The index of the event where it broke, read off the outputs of each set; nil: the last.
        package var event: ([[JSONValue]]) -> Int?

        package init(field: String, functions: [String], event: @escaping ([[JSONValue]]) -> Int?) {
            self.field = field
            self.functions = functions
            self.event = event
        }
    }

    /// Replays `lines` (a property's minimal history, or the smallest failing one found: `history`
    /// names it) once more through the engine under each rule set in `rules` (one for `rulesrun
    /// test`, A's and B's for `compare --property`), on a host that explains: one explanation per
    /// set, the calls of the history, the last ones those of the events the property read last;
    /// with `focus`, the calls up to the event where the field broke that made the field. `holds`
    /// judges the sets' outputs again (true: the second run passed). Nil when a replay cannot be set up.
    package static func ofHistory(
        _ lines: [String], rules: [String], history: String = "the minimal history", focus: Focus? = nil,
        holds: ([[JSONValue]]) -> Bool
    ) -> [FailureExplanation]? {
        do {
            var runs: [(calls: [[LuaCallTrace.Call]], ruleSet: RuleSet, outputs: [JSONValue])] = []
            for folder in rules {
                let ruleSet = try RuleSet.load(folder, proving: false)
                ruleSet.host.printHandler = { _ in }
                let trace = LuaCallTrace()
                try ruleSet.host.explain(trace)
                let replay = Replay.inMemory(rules: ruleSet, ruleFolder: folder)
                var calls: [[LuaCallTrace.Call]] = []
                let outputs = replay.inMemory {
                    lines.enumerated().map { i, line in
                        defer { calls.append(trace.removeAll()) }
                        return replay.output(forLine: line, number: i + 1)
                    }
                }
                runs.append((calls, ruleSet, outputs))
            }
            let passed = holds(runs.map(\.outputs))
            let event = focus.flatMap { $0.event(runs.map(\.outputs)) }
            return runs.enumerated().map { i, run in
                var subject = rules.count == 1 ? history : "\(history) under \(i == 0 ? "A" : "B") (\(rules[i]))"
                var calls = Array((event.map { run.calls.prefix($0 + 1) } ?? run.calls[...]).joined())
                if let event { subject += " up to event \(event + 1)" }
                if let focus {
                    let making = calls.filter { call in run.ruleSet.qualifiedName(of: call.function).map(focus.functions.contains) ?? false }
                    if !making.isEmpty {
                        let names = focus.functions.filter { name in making.contains { run.ruleSet.qualifiedName(of: $0.function) == name } }
                        subject += " that made \(focus.field) (\(names.joined(separator: ", ")))"
                        calls = making
                    }
                }
                return FailureExplanation(calls, in: run.ruleSet, subject: subject, rerunPassed: passed)
            }
        } catch {
            return nil
        }
    }
}

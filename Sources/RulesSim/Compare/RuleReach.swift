import LuaHost
import RulesEngine
import RulesModel

/// What the histories of one check (an expectation, a property) reached of one rule set: the lines
/// and `if` arms (`RuleCoverage`) of the rule functions of their app (`HistoryApp.ruleFunctions`)
/// and of every other function of the set's files that ran (the helpers those call, a base
/// function a variant wraps). A relation that holds was checked only where the histories went: an
/// arm they never reached is a branch of the rules the check says nothing about.
package struct RuleReach: Sendable {
    /// One function measured: its name (`pricing.price`, or `function at FILE:LINE` for one the
    /// engine does not call by name), where it is defined, whether it ran, and its arms not run.
    package struct Function: Sendable {
        package var name: String
        package var file: String
        package var span: ClosedRange<Int>
        package var ran: Bool
        package var unreachedArms: [LuaBranch]

        /// `pricing.price (pricing.lua:47)`.
        package var title: String { name.hasPrefix("function at ") ? name : "\(name) (\(file):\(span.lowerBound))" }
    }

    package var functions: [Function]
    package var lines: (covered: Int, total: Int)
    package var arms: (covered: Int, total: Int)

    /// Functions that ran, and the rule functions of the app that did not.
    package var reachedFunctions: Int { functions.filter(\.ran).count }
    package var notCalled: [Function] { functions.filter { !$0.ran } }
    /// Whether every line and arm of the measured functions ran.
    package var isComplete: Bool { functions.allSatisfy { $0.ran && $0.unreachedArms.isEmpty } }

    /// The reach of `counts` (the lines the check's histories ran on `ruleSet`'s hosts) for the
    /// rule functions of `app`; nil when the set's files cannot be read again.
    package static func measure(_ ruleSet: RuleSet, counts: LineCounts, app: HistoryApp) -> RuleReach? {
        guard let coverage = try? RuleCoverage.measure(ruleSet.folder.root.path, counts: counts) else { return nil }
        let named = ruleSet.namedRuleFunctions
        var functions: [Function] = []
        var lines = (covered: 0, total: 0), arms = (covered: 0, total: 0)
        for file in coverage.files {
            // The outermost spans measured: the app's rule functions, and every other function that ran.
            func name(of span: LuaFunctionSpan) -> String? {
                named.first { $0.function.source == file.name && $0.function.line == span.lines.lowerBound }?.name
            }
            let measured = file.functions.filter { span in
                if let name = name(of: span) { return app.ruleFunctions.contains(name) || ran(span, in: file) }
                return ran(span, in: file)
            }
            let outermost = measured.filter { span in
                !measured.contains { $0 != span && $0.lines.lowerBound <= span.lines.lowerBound && span.lines.upperBound <= $0.lines.upperBound }
            }
            for span in outermost {
                let code = file.lines.filter(span.lines.contains)
                lines.covered += code.filter(file.covered.contains).count
                lines.total += code.count
                let inside = file.arms.filter { span.lines.contains($0.branch.line) }
                arms.covered += inside.filter(\.ran).count
                arms.total += inside.count
            }
            // Each arm not run is told under the innermost measured function that holds it.
            for span in measured {
                let inner = measured.filter { $0 != span && span.lines.contains($0.lines.lowerBound) }
                let unreached = file.arms.filter { arm in
                    !arm.ran && span.lines.contains(arm.branch.line) && !inner.contains { $0.lines.contains(arm.branch.line) }
                }
                functions.append(
                    Function(
                        name: name(of: span) ?? "function at \(file.name):\(span.lines.lowerBound)", file: file.name, span: span.lines,
                        ran: ran(span, in: file), unreachedArms: unreached.map(\.branch)))
            }
        }
        return RuleReach(functions: functions, lines: lines, arms: arms)
    }

    /// The lines each of a list of rule sets runs from the reading's start to its `finish()`, read
    /// on its host: recording is started for it when the host was not recording already (and
    /// stopped, its counts zeroed, at the finish), and left as it was when it was (`--coverage`,
    /// whose counts stay whole). Nothing for a set that is not a `RuleSet`.
    package final class Reading {
        private let hosts: [LuaHost?]
        private let started: [Bool]
        private let before: [LineCounts]
        private var finished: [LineCounts]?

        package init(_ rules: [any PolicyRules]) {
            hosts = rules.map { ($0 as? RuleSet)?.host }
            started = hosts.map { host in
                guard let host, !host.isRecordingLines else { return false }
                host.startLineRecording()
                return true
            }
            before = hosts.map { $0?.lineCounts() ?? LineCounts() }
        }

        /// The lines run since the start, one `LineCounts` per set; the first call ends the reading,
        /// later ones return the same.
        @discardableResult package func finish() -> [LineCounts] {
            if let finished { return finished }
            let lines = zip(hosts, before).map { host, before in host?.lineCounts().since(before) ?? LineCounts() }
            for (host, started) in zip(hosts, started) where started {
                host?.stopLineRecording()
                _ = host?.takeLineCounts()
            }
            finished = lines
            return lines
        }
    }

    private static func ran(_ span: LuaFunctionSpan, in file: RuleCoverage.File) -> Bool {
        file.covered.contains { span.lines.contains($0) }
    }

    /// `12 of 12 functions, 38/40 lines, 18/22 if-arms`.
    package var summary: String {
        "\(reachedFunctions) of \(functions.count) functions, \(lines.covered)/\(lines.total) lines, \(arms.covered)/\(arms.total) if-arms"
    }

    /// What was not reached, one item each: `pricing.price (pricing.lua:4): then at 6`,
    /// `pricing.habit_award (rules/pricing.lua:73): never called`; the functions of the folder's
    /// own files first (`pricing.lua`), then those it inherits (`rules/pricing.lua`).
    package var unreached: [String] {
        let own = functions.filter { !$0.file.contains("/") }, inherited = functions.filter { $0.file.contains("/") }
        return (own + inherited).flatMap { function -> [String] in
            guard function.ran else { return ["\(function.title): never called"] }
            guard !function.unreachedArms.isEmpty else { return [] }
            let arms = function.unreachedArms.map { "\($0.kind.rawValue) at \($0.line)" }.joined(separator: ", ")
            return ["\(function.title): \(arms)"]
        }
    }

    /// The most items of what was not reached the text lists (`--json` has them all).
    static let maxListed = 8

    /// The lines said under a check that holds: what its histories reached of A's rules and of
    /// B's, and a warning naming the functions never called and the arms never run (the relation
    /// was not checked there). None when neither set was measured.
    package static func text(_ reaches: [RuleReach?], indent: String = "  ") -> [String] {
        let sides = zip(["A", "B"], reaches).compactMap { side, reach in reach.map { (side, $0) } }
        guard !sides.isEmpty else { return [] }
        var out = [indent + "reached: " + sides.map { "under \($0.0) \($0.1.summary)" }.joined(separator: "; ")]
        // B's first: the set under test.
        let missed = sides.reversed().flatMap { side, reach in reach.unreached.map { "\(side) \($0)" } }
        if !missed.isEmpty {
            let more = missed.count > maxListed ? "; … and \(missed.count - maxListed) more (see --json)" : ""
            out.append(indent + "warning: not reached, so not checked there: " + missed.prefix(maxListed).joined(separator: "; ") + more)
        }
        return out
    }

    /// The HTML page's note beside a relation that holds: `; not reached: 3 functions or arms of
    /// B's rules, 2 of A's (the text's warning, --json's reached)`, or nothing when every one was.
    package static func note(_ reaches: [RuleReach?]) -> String {
        let sides = zip(["A", "B"], reaches).compactMap { side, reach in reach.map { (side, $0.unreached.count) } }
            .filter { $0.1 > 0 }.reversed()
        guard !sides.isEmpty else { return "" }
        return "; not reached: " + sides.map { "\($0.1) functions or arms of \($0.0)'s rules" }.joined(separator: ", ")
            + " (the text's warning, --json's reached)"
    }

    /// `{"a": …, "b": …}` (null for a set not measured).
    package static func json(_ reaches: [RuleReach?]) -> JSONValue {
        .object(zip(["a", "b"], reaches).map { ($0, $1?.json ?? .null) })
    }

    /// `{"functions": {"reached", "total"}, "lines": {"covered", "total"}, "branches": {"covered",
    /// "total"}, "not_reached": [{"function", "file", "line", "never_called", "arms": [{"line", "kind"}]}]}`.
    package var json: JSONValue {
        .object([
            ("functions", .object([("reached", .int(reachedFunctions)), ("total", .int(functions.count))])),
            ("lines", .object([("covered", .int(lines.covered)), ("total", .int(lines.total))])),
            ("branches", .object([("covered", .int(arms.covered)), ("total", .int(arms.total))])),
            (
                "not_reached",
                .array(
                    functions.filter { !$0.ran || !$0.unreachedArms.isEmpty }.map { function in
                        .object([
                            ("function", .string(function.name)), ("file", .string(function.file)), ("line", .int(function.span.lowerBound)),
                            ("never_called", .bool(!function.ran)),
                            (
                                "arms",
                                .array(
                                    function.unreachedArms.map { .object([("line", .int($0.line)), ("kind", .string($0.kind.rawValue))]) })
                            ),
                        ])
                    })
            ),
        ])
    }
}

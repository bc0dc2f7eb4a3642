import LuaHost
import RulesEngine
import RulesModel
import RulesStore

/// A property checked on generated histories: each history is replayed through the engine under
/// one rule set (`rulesrun test`) or two (`compare --property`), each time as a new user (`h1`,
/// `h2`, … for the `u1` of the generated lines), its rows in memory, as `compare`
/// replays its Earned and habit histories, and `judge` reads the output lines: nil when the
/// property holds, else why it broke. Like a `RuleSet`, it belongs to one thread.
package final class HistoryCheck {
    package let app: HistoryApp
    package let days: Int
    package let rules: [any PolicyRules]
    package let judge: (_ lines: [String], _ outputs: [[JSONValue]]) -> String?
    /// One replay per set, its users' rows in memory (``Replay/inMemory(rules:ruleFolder:draws:)``),
    /// and the users replayed so far.
    private lazy var replays: [Replay] = rules.map { Replay.inMemory(rules: $0) }
    private var users = 0

    package init(
        app: HistoryApp, days: Int, rules: [any PolicyRules], judge: @escaping (_ lines: [String], _ outputs: [[JSONValue]]) -> String?
    ) {
        self.app = app
        self.days = days
        self.rules = rules
        self.judge = judge
    }

    /// The most candidates tried while shrinking: each is replayed through the engine.
    package static let maxShrinkAttempts = 2_000
    /// This check's limit (`maxShrinkAttempts` unless its maker says otherwise).
    package var shrinkLimit = HistoryCheck.maxShrinkAttempts

    /// Why the property breaks on `history`, or nil; nil too when `deadline` passes before its
    /// replay ends (a year of events can take seconds), which the caller tells by the deadline.
    package func failure(_ history: PropertyHistory, until deadline: ContinuousClock.Instant? = nil) -> String? {
        users += 1
        let lines = history.lines(user: "h\(users)")
        guard let outputs = outputs(lines, until: deadline) else { return nil }
        return judge(lines, outputs)
    }

    /// Each set's output lines for `lines`; nil when `deadline` passes first.
    func outputs(_ lines: [String], until deadline: ContinuousClock.Instant? = nil) -> [[JSONValue]]? {
        var all: [[JSONValue]] = []
        for replay in replays {
            // Each history is a user of its own: its rows live as long as its replay.
            let outputs = replay.inMemory { () -> [JSONValue]? in
                var outputs: [JSONValue] = []
                for (index, line) in lines.enumerated() {
                    if let deadline, ContinuousClock.now >= deadline { return nil }
                    outputs.append(replay.output(forLine: line, number: index + 1))
                }
                return outputs
            }
            guard let outputs else { return nil }
            all.append(outputs)
        }
        return all
    }

    /// What checking `cases` histories from `seed` found: how many broke, and the first, shrunk.
    package struct Outcome: Sendable {
        package var cases: Int
        package var broken: Int
        /// The first case that broke the property, its history shrunk, and why it broke there.
        package var firstCase: Int?
        package var originalEvents = 0
        package var minimal: [String] = []
        package var attempts = 0
        package var message = ""
        /// Whether the deadline stopped the cases before the last (`cases` is then the number checked).
        package var stoppedAtDeadline = false
        /// What stopped shrinking before the history was minimal (`minimal` is then the smallest
        /// failing history found so far); nil when it is minimal.
        package var shrinkStopped: ShrinkStop?
    }

    /// Checks cases 0 to `cases - 1`; with `stopAtFirst`, stops at the first that breaks. With
    /// `deadline`, no case is started and no shrink candidate is tried once it has passed.
    /// `casesChecked` is called when the cases are checked, before any shrinking.
    package func run(
        cases: Int, seed: UInt64, stopAtFirst: Bool, until deadline: ContinuousClock.Instant? = nil,
        casesChecked: (() -> Void)? = nil, progress: ((Int) -> Void)? = nil
    ) -> Outcome {
        func overdue() -> Bool { deadline.map { ContinuousClock.now >= $0 } ?? false }
        var outcome = Outcome(cases: cases, broken: 0)
        var first: PropertyHistory?
        for k in 0..<cases {
            // A case the deadline cut (before or during its replay) is not one checked.
            let history = app.history(seed: seed, days: days, case: k)
            let message = overdue() ? nil : failure(history, until: deadline)
            if message == nil, overdue() {
                outcome.cases = k
                outcome.stoppedAtDeadline = true
                break
            }
            progress?(k + 1)
            guard let message else { continue }
            outcome.broken += 1
            if first == nil {
                first = history
                outcome.firstCase = k
                outcome.message = message
            }
            if stopAtFirst {
                outcome.cases = k + 1
                break
            }
        }
        casesChecked?()
        guard let first else { return outcome }
        // Why the last history taken breaks it: the shrunk one's, without replaying it again; and
        // whether the deadline cut a candidate's replay (the last one too: the history is then not
        // known to be minimal).
        var message = outcome.message
        var cut = false
        let shrunk = Shrinker<PropertyHistory>(maxAttempts: shrinkLimit, candidates: PropertyHistory.shrink)
            .shrink(first, until: deadline) { candidate in
                guard let why = failure(candidate, until: deadline) else {
                    cut = cut || overdue()
                    return false
                }
                message = why
                return true
            }
        outcome.originalEvents = first.lines().count
        outcome.minimal = shrunk.value.lines()
        outcome.attempts = shrunk.attempts
        outcome.shrinkStopped = shrunk.stopped ?? (cut ? .deadline : nil)
        outcome.message = message
        return outcome
    }
}

/// A Lua property as a `HistoryCheck`'s judge: the function gets each set's replayed history, a
/// list of steps (the output line of `rulesrun replay` for each event, with the event itself as
/// `event`: `step.event.type`, `step.ok`, `step.decisions`, `step.state`, `step.error`), one
/// argument per rule set, and must return true.
package enum LuaProperty {
    package static func judge(_ function: LuaFunction, in host: LuaHost) -> ([String], [[JSONValue]]) -> String? {
        return { lines, outputs in
            let events = lines.map { line in (try? JSONLine.parse(line)).map(LuaValue.init(json:)) ?? .nil }
            let arguments = outputs.map { side in
                LuaValue.table(
                    LuaTable(
                        sequence: side.enumerated().map { i, output in
                            var step = (try? JSONLine.parse(output.description)).map(LuaValue.init(json:)) ?? .nil
                            if case .table(var table) = step {
                                table["event"] = i < events.count ? events[i] : .nil
                                step = .table(table)
                            }
                            return step
                        }))
            }
            return verdict(function, in: host, arguments)
        }
    }

    /// Nil when `function(arguments…)` returns true; else why not.
    package static func verdict(_ function: LuaFunction, in host: LuaHost, _ arguments: [LuaValue]) -> String? {
        do {
            let results = try host.call(function, arguments)
            switch results.first ?? .nil {
            case .boolean(true): return nil
            case .boolean(false): return "\(function.source):\(function.line): the property returned false"
            case let other:
                return
                    "\(function.source):\(function.line): the property returned \(other.errorDescription) (a property returns true when it holds)"
            }
        } catch {
            return "\(error)"
        }
    }
}

import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// `compare`'s replayed halves (the economy's, the habit tracker's): two rule sets on the same
/// generated histories of replay lines (`Field.history`), replayed through `Engine` itself under
/// each set — their decisions depend on stored state (balances, grants, completions, marks), so
/// the engine is the walker here. Each kind of difference (a `Field`) keeps the first history that
/// shows it, shrunk by removing events while the difference remains, as a replay file.
///
/// Each set's engine holds its users' rows in memory (a recording batch per history, as a
/// simulation's workers do, without a database); every replayed history is a new user.
package final class LineComparison<Field: ComparedField> {
    package let rulesA: any PolicyRules
    package let rulesB: any PolicyRules
    package let runs: Int
    package let days: Int
    package let seed: UInt64
    /// Kinds not compared.
    package let ignored: Set<Field>
    private let replayA: Replay
    private let replayB: Replay
    private var users = 0
    /// The most shrinking steps per finding (each replays the candidate under both sets).
    static var maxShrinkAttempts: Int { 300 }

    package init(a: any PolicyRules, b: any PolicyRules, runs: Int, days: Int, seed: UInt64, ignoring ignored: Set<Field> = []) throws {
        rulesA = a
        rulesB = b
        self.runs = runs
        self.days = days
        self.seed = seed
        self.ignored = ignored
        replayA = Replay(engine: Self.engine(a))
        replayB = Replay(engine: Self.engine(b))
    }

    /// An engine without a store whose users are the histories, `hN` with id N.
    private static func engine(_ rules: any PolicyRules) -> Engine {
        let engine = Engine(rules: rules)
        engine.userID = Engine.numberedUserID
        return engine
    }

    /// One kind of difference with its minimal history.
    package struct Finding: Sendable {
        package var field: Field
        /// Histories that show it, and the first one (its case number and length).
        package var histories: Int
        package var firstCase: Int
        package var originalEvents: Int
        /// The shrunk history's replay lines.
        package var lines: [String]
        /// The first event whose output shows the field differently, and what each set showed.
        package var firstEvent: Int
        package var a: JSONValue
        package var b: JSONValue
        /// What stopped shrinking before the history was minimal (nil: it is minimal), after how many candidates.
        package var shrinkStopped: ShrinkStop? = nil
        package var shrinkAttempts = 0
        /// What stopped shrinking, as `rulesrun test` says it; nil when the history is minimal.
        package var shrinkText: String? {
            shrinkStopped.map { $0.text(attempts: shrinkAttempts, limit: LineComparison.maxShrinkAttempts) }
        }
        /// Where the two differ, leaf by leaf (`options[1].durations[1].cost_credits: 10 → 5`).
        package var changes: [String] { Field.differences(a, b) }

        /// Lines of the set-up (`Field.setupTypes`) among `lines`.
        package var setupCount: Int {
            lines.prefix { line in Field.setupTypes.contains { line.contains("\"type\": \"\($0)\"") } }.count
        }
        package var eventsBeyondSetup: Int { lines.count - setupCount }

        package var fileName: String { "\(Field.half)-\(field.rawValue).jsonl" }
    }

    /// What the comparison found: histories run, how many differed, and one finding per kind.
    package struct Result: Sendable {
        package var histories: Int
        package var days: Int
        package var differing: Int
        package var findings: [Finding]
        /// Histories in which the engine refused an event because a rule failed (`RuleFailures`:
        /// a rule threw, broke an invariant, or the store refused its change) under A, under B.
        /// The event changes nothing and the history goes on.
        package var ruleErrorsA = 0
        package var ruleErrorsB = 0
    }

    /// `progress` is called with (histories replayed, runs) after each history.
    package func run(progress: ((Int, Int) -> Void)? = nil) -> Result {
        let generator = Field.history(seed: seed, days: days)
        var first: [Field: (count: Int, firstCase: Int, lines: [String])] = [:]
        var differing = 0
        var ruleErrors = (a: 0, b: 0)
        for k in 0..<runs {
            defer { progress?(k + 1, runs) }
            let lines = generator.lines(case: k)
            let (fields, failedA, failedB) = differences(in: lines)
            if !fields.isEmpty { differing += 1 }
            if failedA { ruleErrors.a += 1 }
            if failedB { ruleErrors.b += 1 }
            for field in fields {
                let entry = first[field]
                first[field] = ((entry?.count ?? 0) + 1, entry?.firstCase ?? k, entry?.lines ?? lines)
            }
        }
        let findings = Field.allCases.compactMap { field -> Finding? in
            guard let entry = first[field] else { return nil }
            let shrunk = Shrinker<[String]>(maxAttempts: Self.maxShrinkAttempts, candidates: Self.chunkRemovals)
                .shrink(entry.lines) { self.firstDifference(field, in: $0) != nil }
            let (index, a, b) = firstDifference(field, in: shrunk.value)!
            return Finding(
                field: field, histories: entry.count, firstCase: entry.firstCase, originalEvents: entry.lines.count,
                lines: shrunk.value, firstEvent: index, a: a, b: b, shrinkStopped: shrunk.stopped, shrinkAttempts: shrunk.attempts)
        }
        return Result(
            histories: runs, days: days, differing: differing, findings: findings, ruleErrorsA: ruleErrors.a, ruleErrorsB: ruleErrors.b)
    }

    /// The fields any event of `lines` shows differently under the two sets, and whether a rule
    /// failed on some event under A, under B.
    func differences(in lines: [String]) -> (fields: Set<Field>, failedA: Bool, failedB: Bool) {
        let wanted = Field.allCases.filter { !ignored.contains($0) }
        var found = Set<Field>()
        var failed = (a: false, b: false)
        eachOutput(of: lines) { _, x, y in
            for field in wanted where !found.contains(field) && field.differs(x, y) { found.insert(field) }
            failed.a = failed.a || Self.ruleFailed(x)
            failed.b = failed.b || Self.ruleFailed(y)
            return found.count < wanted.count || !(failed.a && failed.b)
        }
        return (found, failed.a, failed.b)
    }

    /// Whether an output line is an event refused because a rule failed (`RuleFailures.Code`).
    static func ruleFailed(_ output: JSONValue) -> Bool {
        guard case .string(let code)? = output["error"]?["code"] else { return false }
        return RuleFailures.Code(rawValue: code) != nil
    }

    /// The first event whose output shows `field` differently, with both values. The lines after
    /// it are not replayed: a shrinking candidate is checked up to its first difference only.
    func firstDifference(_ field: Field, in lines: [String]) -> (Int, JSONValue, JSONValue)? {
        var first: (Int, JSONValue, JSONValue)?
        eachOutput(of: lines) { i, x, y in
            guard field.differs(x, y) else { return true }
            first = (i, field.value(of: x), field.value(of: y))
            return false
        }
        return first
    }

    /// Replays the lines under both sets, as a new user of each engine, line by line: `body` gets
    /// each line's index and two outputs, and returns whether to go on. (The two engines share
    /// nothing, so replaying them in step prints what replaying one after the other would.)
    private func eachOutput(of lines: [String], _ body: (Int, JSONValue, JSONValue) -> Bool) {
        users += 1
        let user = "\"user\": \"h\(users)\""
        do {
            // One recording batch per history and engine, its rows dropped at the end: a refused
            // event rolls back only itself, as in a store.
            _ = try replayA.engine.recordingBatch(keepingRecords: false) {
                try replayB.engine.recordingBatch(keepingRecords: false) {
                    for (i, line) in lines.enumerated() {
                        let renamed = line.replacingOccurrences(of: "\"user\": \"u1\"", with: user)
                        // Parsed once for both sets (what `output(forLine:)` would parse under each).
                        let a: JSONValue, b: JSONValue
                        switch Replay.parse(renamed, number: i + 1) {
                        case .event(let event):
                            (a, b) = (replayA.output(for: event, number: i + 1), replayB.output(for: event, number: i + 1))
                        case .malformed(let output): (a, b) = (output, output)
                        case .skipped: preconditionFailure("parse gives no skipped line")
                        }
                        guard body(i, a, b) else { return }
                    }
                }
            }
        } catch {
            preconditionFailure("a recording batch that keeps no records has nothing to save: \(error)")
        }
    }

    /// Shorter histories: halves, quarters, … then single events removed (the last event first).
    /// Lazy: each candidate is built when the shrinker reaches it.
    static func chunkRemovals(_ lines: [String]) -> AnySequence<[String]> {
        var sizes: [Int] = []
        var size = lines.count / 2
        while size >= 1 {
            sizes.append(size)
            size /= 2
        }
        return AnySequence(
            sizes.lazy.flatMap { size in
                stride(from: lines.count - size, through: 0, by: -size).lazy.map { start -> [String] in
                    var shorter = lines
                    shorter.removeSubrange(start..<start + size)
                    return shorter
                }
            })
    }

    /// A finding's replay file: comment lines saying what it shows, then the events.
    package static func replayText(_ finding: Finding, nameA: String, nameB: String) -> String {
        ([
            "# rulesrun compare \(ShellQuote.path(nameA)) \(ShellQuote.path(nameB)): \(Field.owner) \(finding.field.rawValue) differs",
            "# \(ShrinkStop.historyName(minimal: finding.shrinkStopped == nil)) (\(finding.lines.count) events), shrunk from \(Field.half) case \(finding.firstCase) (\(finding.originalEvents) events)"
                + (finding.shrinkText.map { "; \($0)" } ?? ""),
            "# first diverging event: \(finding.firstEvent + 1)",
            "# reproduce: \(ShellQuote.replay("FILE", rules: nameA))   and   \(ShellQuote.replay("FILE", rules: nameB))",
        ].map(VisibleText.oneLine)
            + finding.lines).joined(separator: "\n") + "\n"
    }
}

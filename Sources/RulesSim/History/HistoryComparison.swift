import RulesEngine
import RulesModel

/// Walks one Pressure history through two implementations of the rules in lockstep and reports, for
/// each field, the first day on which they decide it differently.
package struct HistoryComparison {
    package let left: (name: String, rules: any PolicyRules)
    package let right: (name: String, rules: any PolicyRules)
    /// Fields not compared.
    package var ignored: Set<HistoryField>
    /// Relations between the two sets checked on every day.
    package var expectations: [Expectation]

    package init(
        left: (name: String, rules: any PolicyRules), right: (name: String, rules: any PolicyRules),
        ignoring ignored: Set<HistoryField> = [], expectations: [Expectation] = []
    ) {
        self.left = left
        self.right = right
        self.ignored = ignored
        self.expectations = expectations
    }

    /// What one history showed: per field, the first day (1-based) it differs on, and per broken
    /// expectation, the first day it fails on.
    package struct Findings: Sendable, Equatable {
        package var fields: [HistoryField: Int] = [:]
        package var broken: [Int: Int] = [:]
        /// The history stopped early: a rule failed (threw or broke an invariant) under A, under B.
        package var stoppedA = false
        package var stoppedB = false
        package var isEmpty: Bool { fields.isEmpty && broken.isEmpty }
    }

    /// The differing fields and broken expectations of a history. Walking stops on the first day a
    /// rule fails under either set (what follows is not comparable). A day on which a rule fails
    /// under B and not under A breaks every expectation not yet broken (B decided nothing that
    /// day) but those over `error`, which compare the failures. Each set's answers are remembered
    /// for the history (`HistoryWalker`'s `remembering`, as the engine does for a user's batch): a history asks the
    /// same reminders and transitions again and again.
    package func findings(in history: PressureHistory) -> Findings {
        var a = HistoryWalker(left.rules, from: history, remembering: true)
        var b = HistoryWalker(right.rules, from: history, remembering: true)
        var found = Findings()
        let fields = HistoryField.allCases.filter { !ignored.contains($0) }
        for (i, day) in history.days.enumerated() {
            let x = Result { try a.step(day) }, y = Result { try b.step(day) }
            if case .success(let p) = x, case .success(let q) = y {
                if p != q {
                    for field in fields where found.fields[field] == nil && field.differs(p, q) {
                        found.fields[field] = i + 1
                    }
                }
                for (k, expectation) in expectations.enumerated() where found.broken[k] == nil && !expectation.holds(a: p, b: q) {
                    found.broken[k] = i + 1
                }
                continue
            }
            if case .failure = x { found.stoppedA = true }
            if case .failure = y { found.stoppedB = true }
            for (k, expectation) in expectations.enumerated()
            where found.broken[k] == nil && !expectation.holds(failedA: found.stoppedA, failedB: found.stoppedB) {
                found.broken[k] = i + 1
            }
            if found.stoppedA && found.stoppedB { break }
            if !ignored.contains(.error), found.fields[.error] == nil { found.fields[.error] = i + 1 }
            break
        }
        return found
    }

    /// Nil when both implementations give the same answers on every day; else the history day by
    /// day up to the first difference, with both answers on that day.
    package func firstDifference(in history: PressureHistory) -> String? {
        var a = HistoryWalker(left.rules, from: history)
        var b = HistoryWalker(right.rules, from: history)
        var lines = [
            "start: \(PressureHistory.describe(history.counters)); \(PressureHistory.describe(history.streak)); set-up day \(history.setupDay)"
        ]
        let width = max(left.name.count, right.name.count) + 2
        for (i, day) in history.days.enumerated() {
            let label = "day \(i + 1):".padding(toLength: 9, withPad: " ", startingAt: 0) + day.text
            let outcomes = (Result { try a.step(day) }, Result { try b.step(day) })
            switch outcomes {
            case (.success(let x), .success(let y)) where x == y:
                lines.append(label + "  " + x.text)
            case (.failure(let x), .failure(let y)) where "\(x)" == "\(y)":
                lines.append(label + "  both threw \(x)")
                return nil
            default:
                lines.append(label)
                let differs = Self.differingAnswers(outcomes.0, outcomes.1)
                for (name, outcome) in [(left.name, outcomes.0), (right.name, outcomes.1)] {
                    let answer =
                        switch outcome {
                        case .success(let x): x.text
                        case .failure(let error): "threw \(error)"
                        }
                    lines.append("    " + (name + ":").padding(toLength: width, withPad: " ", startingAt: 0) + answer)
                }
                return "\(left.name) and \(right.name) differ on day \(i + 1) of \(history.days.count) (\(differs)):\n"
                    + lines.joined(separator: "\n")
            }
        }
        return nil
    }

    /// `transition, reminderTimes`: which answers differ.
    static func differingAnswers(_ a: Result<HistoryWalker.Outcome, any Error>, _ b: Result<HistoryWalker.Outcome, any Error>) -> String {
        guard case .success(let x) = a, case .success(let y) = b else { return "an error" }
        var fields: [String] = []
        if x.tier != y.tier { fields.append("tier of the day") }
        if x.reminders != y.reminders { fields.append("reminderTimes") }
        if x.transition != y.transition || x.counters != y.counters { fields.append("transition") }
        if x.streak != y.streak { fields.append("pressureStreak") }
        if x.shieldApplied != y.shieldApplied || x.shieldsRemaining != y.shieldsRemaining { fields.append("shields") }
        if x.persistentBadge != y.persistentBadge { fields.append("persistent badge") }
        if x.result != y.result { fields.append("no_commitment_counts_as") }
        return fields.joined(separator: ", ")
    }
}

import RulesEngine
import RulesModel

/// One kind of difference between two rule sets (a field they decide differently, or an
/// expectation that fails), with a minimal history that shows it and what the engine made of it.
package struct CompareFinding: Sendable {
    package enum Kind: Sendable, Hashable, CustomStringConvertible {
        case field(HistoryField)
        case expectation(Int, String)

        package var description: String {
            switch self {
            case .field(let field): field.rawValue
            case .expectation(_, let text): "expect \(text)"
            }
        }

        /// A file name for its replay file.
        package var fileName: String {
            switch self {
            case .field(let field): "\(field.rawValue).jsonl"
            case .expectation(let k, _): "expectation-\(k + 1).jsonl"
            }
        }
    }

    /// The state of one set before and after the first diverging event.
    package struct Side: Sendable {
        package var before: [(String, JSONValue)]
        /// After the event; the state as it stayed when the set refused the event.
        package var after: [(String, JSONValue)]
        /// The error code when the set refused the event (`RULE_ERROR`, …): nothing changed.
        package var refused: String? = nil
    }

    package var kind: Kind
    /// How many of the generated histories show it.
    package var histories: Int
    /// The first generated history that showed it, before shrinking.
    package var original: PressureHistory
    /// The shrunk history and its replay file.
    package var history: PressureHistory
    package var script: ReplayScript
    /// Per day of the shrunk history, what each set decided (`HistoryWalker.Outcome.text`).
    package var daysA: [String]
    package var daysB: [String]
    /// Whether replaying `script` through the engine under each set shows the difference.
    package var reproduced: Bool
    /// The first event (index into `script.lines`) whose output differs in this kind, and each
    /// set's state before and after it.
    package var firstEvent: Int?
    package var a: Side?
    package var b: Side?
    /// What stopped shrinking before the history was minimal, as `rulesrun test` says it (nil: it is minimal).
    package var shrinkText: String? = nil
    /// For a broken expectation the engine reproduces, the rule calls under A and under B of its
    /// replay up to the first diverging event (the last ones: that event's), as a broken property
    /// shows them (`explain(folders:)`); empty otherwise.
    package var explanations: [FailureExplanation] = []

    /// Replays `script` up to the first diverging event once more under A's and B's folders on
    /// hosts that explain (`FailureExplanation.ofHistory`), for a broken expectation the engine
    /// reproduced: the calls up to that event of the functions that make the expectation's fields
    /// (`HistoryField.producers`; every call when none of them ran). The second run is said to pass
    /// when the two sets' outputs of that event are the same.
    package mutating func explain(folders: (a: String, b: String), expectations: [Expectation]) {
        guard case .expectation(let k, _) = kind, k < expectations.count, reproduced, let index = firstEvent else { return }
        let e = expectations[k]
        let fields = e.left.field == e.right.field ? [e.left.field] : [e.left.field, e.right.field]
        let focus = FailureExplanation.Focus(
            field: fields.map(\.rawValue).joined(separator: ", "),
            functions: fields.flatMap(\.producers).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        ) { _ in index }
        explanations =
            FailureExplanation.ofHistory(
                Array(script.lines.prefix(index + 1)), rules: [folders.a, folders.b],
                history: ShrinkStop.historyName(minimal: shrinkText == nil, definite: true), focus: focus
            ) { outputs in
                outputs[0].last == outputs[1].last
            } ?? []
    }
}

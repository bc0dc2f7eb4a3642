import Foundation
import LuaHost

/// A relation between the two rule sets that must hold after every day, such as
/// `B.current_tier <= A.current_tier` ("B never escalates further than A").
///
/// Grammar (``ExpectationSyntax``): `SIDE.FIELD OP SIDE.FIELD`, SIDE `A` or `B`, OP one of `<=`, `<`, `>=`, `>`,
/// `==`, `!=`; every character understood, at most 200 characters.
/// FIELD is one of Pressure's fields (`HistoryField`): a number (`current_tier`,
/// `consecutive_misses`, `consecutive_successes`, `current_streak`, `longest_streak`,
/// `restart_shields_remaining`) by any relation, or one of the others (`reminders`: the day's
/// reminder times, `persistent_badge`, `shield`: applied or refused, `error`: whether a rule failed)
/// by `==` or `!=` only and with itself only, on the days where either set shows it. The
/// economy's and the habit tracker's fields are `LineExpectation`s, checked as properties on
/// their replayed histories.
package struct Expectation: Sendable, Equatable, CustomStringConvertible {
    package enum Side: String, Sendable { case a = "A", b = "B" }
    package enum Relation: String, Sendable, CaseIterable { case le = "<=", ge = ">=", ne = "!=", eq = "==", lt = "<", gt = ">" }

    package var left: (side: Side, field: HistoryField)
    package var relation: Relation
    package var right: (side: Side, field: HistoryField)

    package static func == (x: Expectation, y: Expectation) -> Bool { x.description == y.description }

    package var description: String {
        "\(left.side.rawValue).\(left.field.rawValue) \(relation.rawValue) \(right.side.rawValue).\(right.field.rawValue)"
    }

    /// Parses an expectation (``ExpectationSyntax``); the error says what is wrong.
    package init(_ text: String) throws(ExpectationError) {
        let syntax = try ExpectationSyntax(text)
        relation = syntax.relation
        left = try Self.operand(syntax.left, in: text)
        right = try Self.operand(syntax.right, in: text)
        for field in [left.field, right.field] where !field.isNumeric {
            guard left.field == right.field else {
                throw ExpectationError(
                    text: text,
                    message: "\(field.rawValue) is not a number: compare it with itself (B.\(field.rawValue) == A.\(field.rawValue))")
            }
            guard relation == .eq || relation == .ne else {
                throw ExpectationError(
                    text: text, message: "\(field.rawValue) is not a number: compared by == or != only (it has no order)")
            }
        }
    }

    /// `current_tier, … (pressure, numbers); reminders, … (pressure, by == or !=)`.
    package static var fieldList: String {
        let numbers = HistoryField.allCases.filter(\.isNumeric).map(\.rawValue)
        let others = HistoryField.allCases.filter { !$0.isNumeric }.map(\.rawValue)
        return "\(numbers.joined(separator: ", ")) (pressure); \(others.joined(separator: ", ")) (pressure, by == or !=)"
    }

    private static func operand(
        _ operand: (side: Side, field: String), in text: String
    ) throws(ExpectationError) -> (side: Side, field: HistoryField) {
        guard let field = HistoryField(rawValue: operand.field) else {
            throw ExpectationError(
                text: text, message: "\"\(operand.field)\" is not a field (\(Self.fieldList); \(LineExpectation.fieldList))")
        }
        return (operand.side, field)
    }

    /// Whether it holds for the two outcomes of one day (both sets decided it). A field that is not
    /// a number is compared as the walk shows it (`HistoryField.value(in:)`), on a day where either
    /// set shows it.
    package func holds(a: HistoryWalker.Outcome, b: HistoryWalker.Outcome) -> Bool {
        guard left.field.isNumeric else {
            return holds(
                shown: left.field.value(in: .success(left.side == .a ? a : b)), right.field.value(in: .success(right.side == .a ? a : b)))
        }
        func value(_ operand: (side: Side, field: HistoryField)) -> Int {
            operand.field.number(in: operand.side == .a ? a : b) ?? 0
        }
        return holds(value(left), value(right))
    }

    /// Whether it holds on a day a rule failed under A (`failedA`) or B: `error` compares the
    /// failures; every other field breaks when B decided nothing (a rule failed under B alone).
    package func holds(failedA: Bool, failedB: Bool) -> Bool {
        guard left.field == .error else { return !(failedB && !failedA) }
        func shown(_ side: Side) -> String { (side == .a ? failedA : failedB) ? "error" : "ok" }
        return holds(shown: shown(left.side), shown(right.side))
    }

    /// Whether two shown values (nil: not shown) of a field that is not a number hold: a day
    /// neither shows holds.
    package func holds(shown x: String?, _ y: String?) -> Bool {
        guard x != nil || y != nil else { return true }
        return (x == y) == (relation == .eq)
    }

    func holds(_ x: Int, _ y: Int) -> Bool {
        switch relation {
        case .le: return x <= y
        case .lt: return x < y
        case .ge: return x >= y
        case .gt: return x > y
        case .eq: return x == y
        case .ne: return x != y
        }
    }
}

/// An expectation that cannot be read.
package struct ExpectationError: Error, CustomStringConvertible, Sendable {
    package var text: String
    package var message: String
    package var description: String { "--expect \(Self.quoted(text)): \(message)" }

    /// The text of an expectation as a message echoes it: in quotes, its control characters
    /// escaped, cut past 100 characters (a longer one is refused by its length anyway).
    package static func quoted(_ text: String) -> String { "\"\(VisibleText.escaping(SourceFile.excerpt(text, limit: 100)))\"" }
}

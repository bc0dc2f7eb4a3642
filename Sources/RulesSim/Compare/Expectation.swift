import Foundation

/// A relation between the two rule sets that must hold after every day, such as
/// `B.current_tier <= A.current_tier` ("B never escalates further than A").
///
/// Grammar: `SIDE.FIELD OP SIDE.FIELD`, SIDE `A` or `B`, FIELD a numeric field (`current_tier`,
/// `consecutive_misses`, `consecutive_successes`, `current_streak`, `longest_streak`,
/// `restart_shields_remaining`), OP one of `<=`, `<`, `>=`, `>`, `==`, `!=`. The economy's and the
/// habit tracker's fields are `LineExpectation`s, checked as properties on their replayed histories.
/// Pressure's other fields (`reminders`, `persistent_badge`, `shield`, `error`) are refused: the
/// walk already compares each as a kind of its own.
public struct Expectation: Sendable, Equatable, CustomStringConvertible {
    public enum Side: String, Sendable { case a = "A", b = "B" }
    public enum Relation: String, Sendable, CaseIterable { case le = "<=", ge = ">=", ne = "!=", eq = "==", lt = "<", gt = ">" }

    public var left: (side: Side, field: HistoryField)
    public var relation: Relation
    public var right: (side: Side, field: HistoryField)

    public static func == (x: Expectation, y: Expectation) -> Bool { x.description == y.description }

    public var description: String {
        "\(left.side.rawValue).\(left.field.rawValue) \(relation.rawValue) \(right.side.rawValue).\(right.field.rawValue)"
    }

    /// Parses an expectation; the error says what is wrong.
    public init(_ text: String) throws(ExpectationError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // Two-character operators first, so that "<=" is not read as "<".
        guard let relation = Relation.allCases.first(where: { trimmed.contains($0.rawValue) }),
            let range = trimmed.range(of: relation.rawValue)
        else {
            throw ExpectationError(text: text, message: "no relation (one of <=, <, >=, >, ==, !=)")
        }
        self.relation = relation
        left = try Self.operand(String(trimmed[..<range.lowerBound]), in: text)
        right = try Self.operand(String(trimmed[range.upperBound...]), in: text)
    }

    private static func operand(_ raw: String, in text: String) throws(ExpectationError) -> (side: Side, field: HistoryField) {
        let part = raw.trimmingCharacters(in: .whitespaces)
        let pieces = part.split(separator: ".", maxSplits: 1).map(String.init)
        guard pieces.count == 2, let side = Side(rawValue: pieces[0].uppercased()) else {
            throw ExpectationError(text: text, message: "\"\(part)\" is not A.FIELD or B.FIELD")
        }
        if let field = HistoryField(rawValue: pieces[1]), !field.isNumeric {
            throw ExpectationError(
                text: text,
                message:
                    "\(field.rawValue) cannot be compared by --expect (Pressure's walk compares it as a kind: compare reports every history where it differs unless --ignore \(field.rawValue))"
            )
        }
        guard let field = HistoryField(rawValue: pieces[1]), field.isNumeric else {
            let numeric = HistoryField.allCases.filter(\.isNumeric).map(\.rawValue)
            throw ExpectationError(
                text: text,
                message:
                    "\"\(pieces[1])\" is not a numeric field (one of \(numeric.joined(separator: ", ")) (pressure); \(LineExpectation.fieldList))"
            )
        }
        return (side, field)
    }

    /// Whether it holds for the two outcomes of one day.
    public func holds(a: HistoryWalker.Outcome, b: HistoryWalker.Outcome) -> Bool {
        func value(_ operand: (side: Side, field: HistoryField)) -> Int {
            operand.field.number(in: operand.side == .a ? a : b) ?? 0
        }
        let x = value(left), y = value(right)
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
public struct ExpectationError: Error, CustomStringConvertible, Sendable {
    public var text: String
    public var message: String
    public var description: String { "--expect \"\(text)\": \(message)" }
}

import ArgumentParser
import RulesModel

/// The value of a whole-number option, read with `parsing: .unconditional` (so that `--runs -1`
/// is a value, not a missing one) and checked against its range when parsed: a negative, too
/// large or malformed number is refused naming the option, e.g. "The value '-1' is invalid for
/// '--runs <runs>': expected a whole number from 1 to 1000000". (`WholeNumber` itself, in
/// RulesModel, is the checked conversion of a double that every other number from a user goes through.)
extension WholeNumber {
    static func parser<T: FixedWidthInteger & Sendable>(_ range: ClosedRange<T>) -> @Sendable (String) throws -> T {
        { text in
            guard let value = T(text), range.contains(value) else {
                throw ValidationError("expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
    }

    /// Seeds: any 64-bit unsigned number.
    static let seed = parser(UInt64.min...UInt64.max)
}

/// The one checked conversion of a `Double` into an integer. Swift's `Int(x)` stops the program
/// when `x` is infinite, NaN or beyond `Int`'s range, and a double that reaches the tool from a
/// user (an option such as `--threshold 1e300`, a number in a report `sweep --resume` reads back,
/// a value a rule returns) can be any of those: every such conversion goes through here, and gets
/// nil (or a message naming the value) instead.
public enum WholeNumber {
    /// 2^53: below it every whole double is exactly one integer; from it on doubles skip integers
    /// (2^53 + 1 is read as 2^53), so a whole number written from one would be a value never held.
    public static let maxExact: Double = 9_007_199_254_740_992

    /// `value` as an integer when it is a whole number of magnitude below 2^53; nil for a
    /// fraction, an infinity, NaN or a larger magnitude.
    public static func exactly(_ value: Double) -> Int? {
        guard value.rounded() == value, abs(value) < maxExact else { return nil }
        return Int(value)
    }

    /// `value` rounded to the nearest integer when that is below 2^53 in magnitude; nil for an
    /// infinity, NaN or a larger magnitude.
    public static func rounded(_ value: Double) -> Int? { exactly(value.rounded()) }

    /// `value` rounded toward zero (its whole part) when that is below 2^53 in magnitude; nil otherwise.
    public static func truncated(_ value: Double) -> Int? { exactly(value.rounded(.towardZero)) }

    /// A number as messages and reports write it: a whole number without a fraction (`100`, not
    /// `100.0`), any other as Swift writes it (`99.5`, `1e+300`, `inf`, `nan`).
    public static func text(_ value: Double) -> String { exactly(value).map { String($0) } ?? String(value) }

    /// `value` as an integer within `range`, or a message naming `what` and the range: `--x:
    /// expected a whole number from 1 to 100, found 1e+300`.
    public static func checked(_ value: Double, in range: ClosedRange<Int>, _ what: String) throws(OutOfRange) -> Int {
        guard let whole = exactly(value), range.contains(whole) else {
            throw OutOfRange(message: "\(what): expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(text(value))")
        }
        return whole
    }

    /// A number that is not a whole number within the range asked for.
    public struct OutOfRange: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
    }
}

/// A range of user indexes (0-based, half-open, as `Shard` and reports keep them) as messages
/// print it: the users' numbers, 1-based and inclusive, with an en dash (`1–100`; one user: `7`).
package struct UserRange: CustomStringConvertible, Sendable {
    package var range: Range<Int>

    package init(_ range: Range<Int>) { self.range = range }

    package var description: String {
        switch range.count {
        case 0: "none"
        case 1: "\(range.lowerBound + 1)"
        default: "\(range.lowerBound + 1)–\(range.upperBound)"
        }
    }
}

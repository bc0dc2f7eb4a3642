/// A name that is not one of those expected (a frequency or goal direction in an event):
/// `expected one of "at_least", "at_most", found "most"`.
public struct NameError: Error, CustomStringConvertible {
    public var expected: [String]
    public var found: String

    public var description: String {
        "expected one of \(expected.map { "\"\($0)\"" }.joined(separator: ", ")), found \"\(found)\""
    }
}

/// A sweep that cannot run as asked: the message names the option.
public struct SweepError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

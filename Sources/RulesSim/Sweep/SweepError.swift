/// A sweep that cannot run as asked: the message names the option.
package struct SweepError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

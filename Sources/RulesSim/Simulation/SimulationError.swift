/// A simulation that could not run (a persona's `day` function failed, the database could not be
/// written, …), with a message for the person who started it.
package struct SimulationError: Error, CustomStringConvertible, Sendable {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// A simulation that could not run (a persona's `day` function failed, the database could not be
/// written, …), with a message for the person who started it.
public struct SimulationError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

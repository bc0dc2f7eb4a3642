/// A bundle, or a key, that was refused: the file and what is wrong with it (`FILE: message`).
/// Nothing is activated when one is thrown: the active rules stay as they were.
public struct BundleError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The bundle or key file (or the URL it was fetched from).
    public var file: String
    /// What was wrong, naming the field or the file inside the bundle, and what was expected.
    public var message: String

    public init(_ file: String, _ message: String) {
        self.file = file
        self.message = message
    }

    public var description: String { "\(file): \(message)" }
}

import Foundation

/// A seam for fault tests: a closure run inside every write transaction of the store, after the
/// operation's own writes and before the commit. Tests make it throw to prove that an error at
/// the last moment leaves the database as it was. Unset in production.
final class FaultHooks: @unchecked Sendable {
    private let lock = NSLock()
    private var _beforeCommit: (@Sendable (String) throws -> Void)?

    var beforeCommit: (@Sendable (String) throws -> Void)? {
        get { lock.withLock { _beforeCommit } }
        set { lock.withLock { _beforeCommit = newValue } }
    }

    func check(_ operation: String) throws {
        try beforeCommit?(operation)
    }
}

import GRDB

/// The write transaction that `Store.transaction(_:)` is running on the current thread, so that
/// the store's operations called inside it join it. It never leaves that thread: the task-local
/// binding ends with the transaction's closure.
final class EnclosingTransaction: @unchecked Sendable {
    let store: ObjectIdentifier
    let db: Database

    init(store: ObjectIdentifier, db: Database) {
        self.store = store
        self.db = db
    }
}

import GRDB

/// What events applied to rows in memory (``UserRecords``) wrote, in the order they wrote it, each
/// with the input line of its event: what a replay into a database by user writes (`replay --db`
/// in parallel). An entry is the rows an operation wrote, written as the store's operation writes
/// them (``addWrite(_:)``: Earned's row writes, the frequent Pressure, tracker and MIGA inserts and
/// updates), or the store's operation itself (the rare ones). Each worker's records write to a
/// journal of its own; the one writer runs every journal's entries of a window in line order
/// (``run(_:on:)``), on the store, in one transaction: the store's own writes in the order a replay
/// line by line makes them, hence the same rows, the same integer keys (`task_key`,
/// `completion_id`, `mark_id`) included.
///
/// Not thread-safe: one thread at a time (a worker fills it, then hands its entries over).
package final class StoreJournal: @unchecked Sendable {
    package struct Entry: Sendable {
        package let line: Int
        let run: @Sendable (Store) throws -> Void
    }

    /// The input line of the event whose operations are being recorded.
    package var line = 0
    package private(set) var entries: [Entry] = []

    package init() {}

    func add(_ run: @escaping @Sendable (Store) throws -> Void) { entries.append(Entry(line: line, run: run)) }

    /// Records rows written as they are, without the operation's reads and checks: what a change
    /// in memory (``UserRecords``, ``EarnedRecords``) wrote, once its checks passed there on the
    /// same rows.
    func addWrite(_ write: @escaping @Sendable (Database) throws -> Void) {
        add { store in try store.write { db in try write(db) } }
    }

    /// How many operations the journal holds (a refused event's are dropped with ``truncate(to:)``).
    package var count: Int { entries.count }

    /// Drops the operations recorded since the journal held `count`.
    package func truncate(to count: Int) { entries.removeSubrange(count...) }

    /// The operations recorded, handed over and removed from the journal.
    package func take() -> [Entry] {
        defer { entries.removeAll(keepingCapacity: true) }
        return entries
    }

    /// Runs the operations of `journals` (each in line order, no line in two of them) in line order,
    /// in the caller's transaction of `store` (or each in its own). The first that throws stops.
    package static func run(_ journals: [[Entry]], on store: Store) throws {
        var next = Array(repeating: 0, count: journals.count)
        while true {
            var first: Int?
            for j in journals.indices where next[j] < journals[j].count {
                if first == nil || journals[j][next[j]].line < journals[first!][next[first!]].line { first = j }
            }
            guard let j = first else { return }
            try journals[j][next[j]].run(store)
            next[j] += 1
        }
    }
}

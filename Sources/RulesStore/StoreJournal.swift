import GRDB
import RulesModel

/// What events applied to rows in memory (``UserRecords``) wrote, in the order they wrote it, each
/// with the input line of its event: what a replay into a database by user writes (`replay --db`
/// in parallel). An entry is the rows an operation wrote, written as the store's operation writes
/// them (``addWrite(user:row:_:)``: Earned's row writes, the frequent Pressure, tracker and MIGA
/// inserts and updates), or the store's operation itself (the rare ones). Each worker's records
/// write to a journal of its own; the one writer runs every journal's entries of a window in line
/// order (``run(_:on:)``), on the store, in one transaction: the store's own writes in the order a
/// replay line by line makes them, hence the same rows, the same integer keys (`task_key`,
/// `completion_id`, `mark_id`) included — less the writes a later one of the window makes
/// needless (``Row``).
///
/// Not thread-safe: one thread at a time (a worker fills it, then hands its entries over).
package final class StoreJournal: @unchecked Sendable {
    package struct Entry: Sendable {
        package let line: Int
        /// The user whose rows the entry writes.
        let user: Int64
        /// What the entry does to the user's rows.
        let effect: Effect
        let run: @Sendable (Store) throws -> Void
    }

    /// What an entry does: the store's operation (which may read any row of its user), rows written,
    /// or a ``Row`` set whole.
    enum Effect {
        case operation, write
        case set(Row)
    }

    /// A row that a kind of write sets whole — every column that kind writes, to values that do
    /// not depend on the row's — and that nothing of the window reads but the store's operations:
    /// of two such writes of the same row with none of the user's store operations (``add(user:_:)``)
    /// between, the first is needless (the row ends as the second sets it, whatever the first
    /// did). A window's singletons (a user's economy, its day's summary, …), set at each event in
    /// memory, are thus written once a window. The writes that create a row (an insert, an upsert
    /// of a row not there yet: it stays where it was, and so does the row's place in its table) or
    /// read it (a conditional update) are never a ``Row``'s.
    package struct Row: Hashable, Sendable {
        package enum Kind: UInt8, Sendable {
            case pressureSettings, escalation
            case economy, emergency, earnedSettings, entitlement, daySummary, attempt, quest, dailyAppLimits
            case engineState
        }
        let kind: Kind
        /// The row's key within its user (empty for a user's singleton).
        let key: String

        package init(_ kind: Kind, key: String = "") {
            self.kind = kind
            self.key = key
        }
    }

    /// The input line of the event whose operations are being recorded.
    package var line = 0
    package private(set) var entries: [Entry] = []

    package init() {}

    /// Records the store's operation `run` on the rows of `user`: it may read any of them.
    func add(user: UserID, _ run: @escaping @Sendable (Store) throws -> Void) {
        entries.append(Entry(line: line, user: user.rawValue, effect: .operation, run: run))
    }

    /// Records rows written as they are, without the operation's reads and checks: what a change
    /// in memory (``UserRecords``, ``EarnedRecords``) wrote, once its checks passed there on the
    /// same rows; `row`, when the write sets that row whole.
    func addWrite(user: UserID, row: Row? = nil, _ write: @escaping @Sendable (Database) throws -> Void) {
        entries.append(
            Entry(line: line, user: user.rawValue, effect: row.map(Effect.set) ?? .write) { store in try store.write { db in try write(db) }
            })
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

    /// Runs the operations of `journals` (each in line order, no line in two of them, no user in
    /// two of them) in line order, in the caller's transaction of `store` (or each in its own),
    /// but for the needless ones (``Row``). The first that throws stops.
    package static func run(_ journals: [[Entry]], on store: Store) throws {
        let needless = journals.map(Self.needless)
        var next = Array(repeating: 0, count: journals.count)
        while true {
            var first: Int?
            for j in journals.indices where next[j] < journals[j].count {
                if first == nil || journals[j][next[j]].line < journals[first!][next[first!]].line { first = j }
            }
            guard let j = first else { return }
            if !needless[j][next[j]] { try journals[j][next[j]].run(store) }
            next[j] += 1
        }
    }

    /// Which of `entries` a later one makes needless: a ``Row``'s write followed by another of the
    /// same row of the same user with none of the user's store operations between.
    static func needless(_ entries: [Entry]) -> [Bool] {
        var needless = Array(repeating: false, count: entries.count)
        // The rows written later, by user (emptied at a store operation of the user).
        var later: [Int64: Set<Row>] = [:]
        for i in entries.indices.reversed() {
            let entry = entries[i]
            switch entry.effect {
            case .write: continue
            case .operation: later[entry.user] = nil
            case .set(let row): needless[i] = !later[entry.user, default: []].insert(row).inserted
            }
        }
        return needless
    }
}

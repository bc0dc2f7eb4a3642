import RulesModel
import RulesStore

extension Engine {
    /// How the engine applies events: each on its own, in a batch, or in a recording batch. Only
    /// a batch has contexts kept from one event to the next and a memo of the rules' answers, and
    /// only a recording batch has users whose rows are in memory. The modes that write to a store
    /// carry it; a recording batch carries none, so that nothing in it can write to one.
    enum RunMode {
        /// Each event in its own transaction on the store; nothing is kept between events.
        case single(Store)
        /// Between recording batches, on an engine without a store: no event can be applied.
        case recordingOnly
        /// Inside `batch(_:)`: one store transaction, the users' contexts kept between events.
        case batch(StoreBatch)
        /// Inside `recordingBatch(_:)`: the users' rows kept in memory; no store.
        case recording(RecordingBatch)

        /// The rules' answers already given in the batch in progress (nil outside a batch).
        var memo: RuleMemo? {
            switch self {
            case .single, .recordingOnly: nil
            case .batch(let batch): batch.memo
            case .recording(let batch): batch.memo
            }
        }
    }

    /// The state of a batch in progress (`batch(_:)`): its store, its users' contexts, by name, to
    /// be saved at its end, and the rules' answers already given.
    final class StoreBatch {
        let store: Store
        var contexts: [String: UserContext] = [:]
        var memo: RuleMemo

        init(_ store: Store, _ rules: any PolicyRules) {
            self.store = store
            memo = RuleMemo(rules)
        }
    }

    /// The state of a recording batch in progress (`recordingBatch(_:)`): its users, by name,
    /// each with its rows in memory, and the rules' answers already given (nil: the rules are
    /// asked every time, as by an event applied on its own).
    final class RecordingBatch {
        private(set) var users: [String: RecordedUser] = [:]
        /// The user of the latest event, found again without hashing its name (a simulation's
        /// batch has a single user).
        private var latest: RecordedUser?
        var memo: RuleMemo?

        init(_ rules: any PolicyRules, remembering: Bool = true) { memo = remembering ? RuleMemo(rules) : nil }

        /// The user named `name`, if the batch has it.
        func user(named name: String) -> RecordedUser? {
            if let latest, latest.context.name == name { return latest }
            let found = users[name]
            if found != nil { latest = found }
            return found
        }

        /// Adds a user whose first event was applied.
        func add(_ user: RecordedUser) {
            users[user.context.name] = user
            latest = user
        }
    }

    /// A user of a recording batch: its context and the rows it reads and writes (the same
    /// `UserRecords` as the context's `storage`). A class, so that an event changes the context
    /// where the batch keeps it (no copy of the context in and out of the batch per event).
    final class RecordedUser {
        var context: UserContext
        let records: UserRecords

        init(context: UserContext, records: UserRecords) {
            self.context = context
            self.records = records
        }
    }
}

import Foundation
import RulesModel

/// One user's rows held in memory: what ``Store/createUser(_:day:timezoneID:now:makeUUID:)`` and
/// the store's operations would have written for a user new to the database, kept until
/// ``BulkWriter/write(_:)-(UserRecords)`` writes them. A simulation keeps each user's rows here
/// instead of writing every event to SQLite.
///
/// The operations (``UserStorage``) are the store's, with the same checks (see the extensions),
/// and reads see the writes. ``savepoint()`` and ``rollback(to:)`` undo what happened since, as a
/// failed transaction does in the store. Not thread-safe: one thread at a time.
package final class UserRecords: @unchecked Sendable {
    let user: NewUser
    package var userID: UserID { user.userID }
    /// Pressure's settings and escalation state, with the instant each was last written.
    private(set) var settings: (value: UserSettings, updatedAt: EpochMillis)
    private(set) var escalation: (value: EscalationState, updatedAt: EpochMillis)
    private(set) var commitments: [DayID: Commitment] = [:]
    private(set) var notifications: [NotificationLogEntry] = []
    /// Tasks in the order they were first saved (the order of their `task_key`s).
    private(set) var tasks: [HabitTask] = []
    private var taskIndex: [UUID: Int] = [:]
    private(set) var completions: [TaskCompletion] = []
    /// For each of `completions`, the index of its insert in `completionWrites`.
    private var completionInserts: [Int] = []
    /// The completions' inserts and deletes in the order they happened: the bulk write replays
    /// them, so that SQLite numbers the rows (`completion_id`, which reuses the highest number
    /// after a delete) as the store's operations do.
    private(set) var completionWrites: [CompletionWrite] = []
    /// Skips and freezes in the order they were recorded (the order of their `mark_id`s).
    private(set) var dayMarks: [DayMark] = []
    private(set) var usageEvents: [UsageEvent] = []
    /// Exposures to experiments' arms, in the order they were recorded.
    private(set) var exposures: [ExperimentExposure] = []
    private(set) var engineState: EngineStateRow?
    /// The user's Earned rows, from its first Earned operation on.
    private(set) var earned: EarnedRecords?
    /// What to restore on a rollback, newest last (appended rows are truncated instead).
    private var undo: [Undo] = []
    /// Where the store operations that the changes stand for are recorded, if anywhere (see
    /// ``journal(into:)``): a refused event's are dropped by the journal's owner, not by a rollback.
    private(set) var journal: StoreJournal?

    private enum Undo {
        case settings(UserSettings, EpochMillis)
        case escalation(EscalationState, EpochMillis)
        case commitment(DayID, Commitment?)
        case task(Int, HabitTask)
        case engineState(EngineStateRow?)
        case completionRemoved(Int, TaskCompletion, insert: Int)
    }

    /// One write of a completion: its insert, or the delete of the row inserted by the write at `insert`.
    enum CompletionWrite {
        case insert(TaskCompletion)
        case delete(insert: Int)
    }

    /// The rows of a new user, as ``Store/createUser(_:day:timezoneID:now:makeUUID:)`` writes them.
    package init(_ userID: UserID, day: DayID, timezoneID: String = "UTC", now: EpochMillis, makeUUID: () -> UUID = UUID.init) throws {
        user = try NewUser(userID, day: day, timezoneID: timezoneID, now: now, makeUUID: makeUUID)
        settings = (user.pressure, now)
        escalation = (EscalationState.initial, now)
    }

    /// Records from now on, in `journal`, the store operation of each change: first the user's
    /// creation (``Store/createUser(_:day:timezoneID:now:makeUUID:)``), then each operation of
    /// ``UserStorage`` (the reads are not recorded) — Earned's as the row writes they make
    /// (``EarnedRecords/journal``). Call it before any change.
    package func journal(into journal: StoreJournal) {
        self.journal = journal
        earned?.journal = journal
        journal.add(user: user.userID) { [user] in try $0.create(user) }
    }

    /// Pressure's settings of the user.
    package var pressureSettings: UserSettings { settings.value }
    /// Pressure's escalation state of the user.
    package var escalationState: EscalationState { escalation.value }

    /// The point ``rollback(to:)`` returns to. Savepoints do not nest: a new one replaces the previous.
    package struct Savepoint: Sendable {
        fileprivate let notifications: Int, tasks: Int, completions: Int, usageEvents: Int, dayMarks: Int, completionWrites: Int
        fileprivate let exposures: Int
    }

    package func savepoint() -> Savepoint {
        undo.removeAll(keepingCapacity: true)
        earned?.savepoint()
        return Savepoint(
            notifications: notifications.count, tasks: tasks.count, completions: completions.count, usageEvents: usageEvents.count,
            dayMarks: dayMarks.count, completionWrites: completionWrites.count, exposures: exposures.count)
    }

    /// Undoes every change since `savepoint`.
    package func rollback(to savepoint: Savepoint) {
        for change in undo.reversed() {
            switch change {
            case .settings(let value, let at): settings = (value, at)
            case .escalation(let value, let at): escalation = (value, at)
            case .commitment(let day, let value): commitments[day] = value
            case .task(let index, let value): tasks[index] = value
            case .engineState(let value): engineState = value
            case .completionRemoved(let index, let value, let insert):
                completions.insert(value, at: index)
                completionInserts.insert(insert, at: index)
            }
        }
        undo.removeAll(keepingCapacity: true)
        earned?.rollback()
        notifications.removeSubrange(savepoint.notifications...)
        for task in tasks[savepoint.tasks...] { taskIndex[task.id] = nil }
        tasks.removeSubrange(savepoint.tasks...)
        completions.removeSubrange(savepoint.completions...)
        completionInserts.removeSubrange(savepoint.completions...)
        completionWrites.removeSubrange(savepoint.completionWrites...)
        usageEvents.removeSubrange(savepoint.usageEvents...)
        dayMarks.removeSubrange(savepoint.dayMarks...)
        exposures.removeSubrange(savepoint.exposures...)
    }

    // The changes, each undoable.

    func setSettings(_ value: UserSettings, at time: EpochMillis) {
        undo.append(.settings(settings.value, settings.updatedAt))
        settings = (value, time)
    }

    func setEscalation(_ value: EscalationState, at time: EpochMillis) {
        undo.append(.escalation(escalation.value, escalation.updatedAt))
        escalation = (value, time)
    }

    func setCommitment(_ commitment: Commitment) {
        undo.append(.commitment(commitment.day, commitments[commitment.day]))
        commitments[commitment.day] = commitment
    }

    func append(_ entry: NotificationLogEntry) { notifications.append(entry) }
    func append(_ completion: TaskCompletion) {
        completionInserts.append(completionWrites.count)
        completionWrites.append(.insert(completion))
        completions.append(completion)
    }
    func append(_ event: UsageEvent) { usageEvents.append(event) }
    func append(_ mark: DayMark) { dayMarks.append(mark) }
    func append(_ exposure: ExperimentExposure) { exposures.append(exposure) }

    /// Removes the completion at `index` (undone by a rollback: the undo log puts it back first,
    /// then the completions appended since the savepoint are truncated).
    func removeCompletion(at index: Int) -> TaskCompletion {
        let removed = completions.remove(at: index)
        let insert = completionInserts.remove(at: index)
        completionWrites.append(.delete(insert: insert))
        undo.append(.completionRemoved(index, removed, insert: insert))
        return removed
    }

    /// Inserts or updates a task; an update keeps the first `createdAt`, as the store's upsert does.
    func upsert(_ task: HabitTask) {
        if let index = taskIndex[task.id] {
            undo.append(.task(index, tasks[index]))
            var updated = task
            updated.createdAt = tasks[index].createdAt
            tasks[index] = updated
        } else {
            taskIndex[task.id] = tasks.count
            tasks.append(task)
        }
    }

    func setEngineState(_ row: EngineStateRow) {
        undo.append(.engineState(engineState))
        engineState = row
    }

    /// The user's Earned rows (started from its singletons at the first use).
    var earnedTables: EarnedRecords {
        if let earned { return earned }
        let started = EarnedRecords(user)
        started.journal = journal
        earned = started
        return started
    }

    /// Encodes the JSON the bulk write will store (Earned's options snapshots and event payloads)
    /// now, on the calling thread, instead of on the writer's.
    package func encodeJSON() throws { try earned?.encodeJSON() }

    func storedTask(_ id: UUID) -> HabitTask? { taskIndex[id].map { tasks[$0] } }

    /// Throws what the store throws for a user it does not hold.
    func requireUser(_ id: UserID) throws {
        guard id == userID else { throw StoreError.notFound("user", "\(id)") }
    }
}

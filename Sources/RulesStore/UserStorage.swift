import Foundation
import RulesModel

/// What the rules engine reads and writes of a user, with the ``Store``'s operations: the store
/// itself (every operation checked against the database, in the caller's transaction), or one
/// user's ``UserRecords`` held in memory until ``BulkWriter`` writes them. The same operations make
/// the same checks and leave the same rows either way.
public protocol UserStorage: AnyObject {
    // Pressure
    func savePressureSettings(_ userID: UserID, _ settings: UserSettings, now: EpochMillis) throws
    func saveEscalationState(_ userID: UserID, _ state: EscalationState, now: EpochMillis) throws
    func addCommitment(_ commitment: Commitment) throws
    func editCommitmentText(_ userID: UserID, on day: DayID, text: String) throws
    @discardableResult
    func lockCommitment(_ userID: UserID, on day: DayID, at deadline: EpochMillis,
                        ifMissing missing: (id: UUID, escalation: EscalationState)?) throws -> Commitment
    @discardableResult
    func recordCheckIn(_ userID: UserID, on day: DayID, status: CommitmentStatus, at time: EpochMillis,
                       escalation: EscalationState, shieldUsed: Bool) throws -> Commitment
    @discardableResult
    func useRestartShield(_ userID: UserID, on day: DayID, at time: EpochMillis, escalation: EscalationState) throws -> Commitment
    func logNotification(_ entry: NotificationLogEntry) throws
    func commitment(_ userID: UserID, on day: DayID) throws -> Commitment?
    func commitmentHistory(_ userID: UserID, lastDays days: Int, endingOn end: DayID) throws -> [Commitment]

    // Habit tracker
    func saveTask(_ task: HabitTask) throws
    /// The completion as recorded (the store assigns its `id`; records leave it nil until written).
    @discardableResult
    func addCompletion(_ completion: TaskCompletion) throws -> TaskCompletion
    func task(_ userID: UserID, id: UUID) throws -> HabitTask?
    func completions(_ userID: UserID, taskID: UUID?, from: EpochMillis, to: EpochMillis) throws -> [TaskCompletion]

    // MIGA
    func recordUsageEvent(_ event: UsageEvent) throws
    func usageEvents(_ userID: UserID, from: EpochMillis, to: EpochMillis, type: UsageEventType?) throws -> [UsageEvent]
    func migaSettings(_ userID: UserID) throws -> MigaSettings

    // The engine's bookkeeping
    func saveEngineState(_ row: EngineStateRow) throws
}

/// The store's reads for ``UserStorage``: a snapshot each (inside a transaction, its own state).
extension Store: UserStorage {
    public func commitment(_ userID: UserID, on day: DayID) throws -> Commitment? {
        try read { try $0.commitment(userID, on: day) }
    }

    public func commitmentHistory(_ userID: UserID, lastDays days: Int, endingOn end: DayID) throws -> [Commitment] {
        try read { try $0.commitmentHistory(userID, lastDays: days, endingOn: end) }
    }

    public func task(_ userID: UserID, id: UUID) throws -> HabitTask? {
        try read { try $0.task(userID, id: id) }
    }

    public func completions(_ userID: UserID, taskID: UUID?, from: EpochMillis, to: EpochMillis) throws -> [TaskCompletion] {
        try read { try $0.completions(userID, taskID: taskID, from: from, to: to) }
    }

    public func usageEvents(_ userID: UserID, from: EpochMillis, to: EpochMillis, type: UsageEventType?) throws -> [UsageEvent] {
        try read { try $0.usageEvents(userID, from: from, to: to, type: type) }
    }

    public func migaSettings(_ userID: UserID) throws -> MigaSettings {
        try read { try $0.migaSettings(userID) }
    }
}

/// The store's default arguments.
extension UserStorage {
    @discardableResult
    public func lockCommitment(_ userID: UserID, on day: DayID, at deadline: EpochMillis) throws -> Commitment {
        try lockCommitment(userID, on: day, at: deadline, ifMissing: nil)
    }

    @discardableResult
    public func recordCheckIn(_ userID: UserID, on day: DayID, status: CommitmentStatus, at time: EpochMillis,
                              escalation: EscalationState) throws -> Commitment {
        try recordCheckIn(userID, on: day, status: status, at: time, escalation: escalation, shieldUsed: false)
    }

    public func usageEvents(_ userID: UserID, from: EpochMillis, to: EpochMillis) throws -> [UsageEvent] {
        try usageEvents(userID, from: from, to: to, type: nil)
    }
}

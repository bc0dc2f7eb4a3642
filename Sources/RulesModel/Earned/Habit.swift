/// An Earned habit (`habit`, A3), rewarded with credits, soft-deleted by a tombstone.
///
/// Decision: `name` is 1–100 characters.
public struct Habit: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var habitID: String
    public var name: String
    public var rewardCredits: Int
    public var active: Bool
    public var sortOrder: Int
    public var createdAt: EpochMillis
    public var updatedAt: EpochMillis
    public var deletedAt: EpochMillis?
    public var syncStatus: SyncStatus

    public init(
        userID: UserID, habitID: String, name: String, rewardCredits: Int = 5, active: Bool = true, sortOrder: Int = 0,
        createdAt: EpochMillis, updatedAt: EpochMillis, deletedAt: EpochMillis? = nil, syncStatus: SyncStatus = .localOnly
    ) {
        self.userID = userID
        self.habitID = habitID
        self.name = name
        self.rewardCredits = rewardCredits
        self.active = active
        self.sortOrder = sortOrder
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
        self.syncStatus = syncStatus
    }

    public func validate() throws {
        let check = FieldCheck("Habit")
        try check.identifier("habit_id", habitID)
        try check.text("name", name, max: 100)
        try check.range("reward_credits", rewardCredits, 0...100)
        try check.timestamp("created_ts_utc_ms", createdAt)
        try check.notBefore("updated_ts_utc_ms", updatedAt, "created_ts_utc_ms", createdAt)
        try check.notBefore("deleted_ts_utc_ms", deletedAt, "created_ts_utc_ms", createdAt)
    }
}

import Foundation

/// One completion of a habit task (habit-tracker-data-model.md §2.3).
///
/// Decision: the seed's completion `id` is a UUID; at 18,250 rows a user-year that alone would
/// exceed the seed's 1 MB budget (§8). A completion is identified by an integer the store assigns
/// (`id == nil` before insertion). `value` must be nil for tasks whose goal type is `none` (checked
/// by the store, which knows the task) and finite and ≥ 0 otherwise.
public struct TaskCompletion: Hashable, Sendable, Codable, Validatable {
    public var id: Int64?
    public var userID: UserID
    public var taskID: UUID
    public var completedAt: EpochMillis
    public var value: Double?

    public init(id: Int64? = nil, userID: UserID, taskID: UUID, completedAt: EpochMillis, value: Double? = nil) {
        self.id = id
        self.userID = userID
        self.taskID = taskID
        self.completedAt = completedAt
        self.value = value
    }

    public func validate() throws {
        let check = FieldCheck("TaskCompletion")
        try check.timestamp("completedAt", completedAt)
        if let value {
            try check.finite("value", value)
            try check.atLeast("value", value, 0)
        }
    }

    /// Checks `value` against the task's goal type: nil for `none`.
    public func validate(against task: HabitTask) throws {
        try validate()
        try FieldCheck("TaskCompletion").require(
            task.goalType != .none || value == nil, "value",
            "nil for a task whose goalType is none", "\(value ?? 0)")
    }
}

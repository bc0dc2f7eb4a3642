/// One entry of the habit tracker's preset catalog (habit-tracker-data-model.md §4): static
/// reference data, never persisted; choosing one creates a ``HabitTask`` pre-filled from it.
public struct PresetTask: Hashable, Sendable {
    /// Stable key, e.g. `fitness.run`, kept in `HabitTask.presetIdentifier`.
    public let identifier: String
    public let name: String
    /// The name of one of the preset categories (``Category/presetNames``).
    public let categoryName: String
    public let goalType: GoalType
    /// nil for `GoalType.none`.
    public let unit: String?

    public init(_ identifier: String, _ name: String, _ categoryName: String, _ goalType: GoalType, _ unit: String?) {
        self.identifier = identifier
        self.name = name
        self.categoryName = categoryName
        self.goalType = goalType
        self.unit = unit
    }
}

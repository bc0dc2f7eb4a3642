/// The habit tracker's `AppSettings` singleton (habit-tracker-data-model.md §2.4), one per user.
///
/// Decision: the seed's UUID `id` is dropped: the row is keyed by the user.
public struct HabitTrackerSettings: Hashable, Sendable, Codable, Validatable {
    public var hasCompletedOnboarding: Bool
    public var createdAt: EpochMillis

    public init(hasCompletedOnboarding: Bool = false, createdAt: EpochMillis) {
        self.hasCompletedOnboarding = hasCompletedOnboarding
        self.createdAt = createdAt
    }

    public func validate() throws {
        try FieldCheck("HabitTrackerSettings").timestamp("createdAt", createdAt)
    }
}

/// The period over which a habit task's goal is evaluated (habit-tracker-data-model.md §3.1).
public enum MeasurementDuration: String, Sendable, Codable, CaseIterable {
    case daily
    case weekly
    case monthly
}

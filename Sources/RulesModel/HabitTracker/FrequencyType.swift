/// How often a habit task recurs (habit-tracker-data-model.md §3.3).
public enum FrequencyType: String, Sendable, Codable, CaseIterable {
    case daily
    case specificDays
}

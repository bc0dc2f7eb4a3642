/// ISO 8601 weekday numbers, 1 = Monday … 7 = Sunday (habit-tracker-data-model.md §3.4).
public enum Weekday: Int, Sendable, Codable, CaseIterable, Comparable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}

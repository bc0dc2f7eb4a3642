/// How a day qualified for the streak (A7 `STREAK_QUALIFIED.method`).
public enum StreakQualificationMethod: String, Sendable, Codable, CaseIterable {
    case focus = "FOCUS"
    case habits = "HABITS"
}

/// Where earned credits came from (A7 `CREDITS_EARNED.source`).
public enum CreditSource: String, Sendable, Codable, CaseIterable {
    case focus = "FOCUS"
    case habit = "HABIT"
    case streakBonus = "STREAK_BONUS"
}

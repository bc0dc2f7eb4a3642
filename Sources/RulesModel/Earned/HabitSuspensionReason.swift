/// Why habit awards were suspended (A7 `HABIT_AWARD_SUSPENDED.reason`).
public enum HabitSuspensionReason: String, Sendable, Codable, CaseIterable {
    case tooManyCompletionsInWindow = "TOO_MANY_COMPLETIONS_IN_WINDOW"
}

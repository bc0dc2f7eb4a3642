/// The hard constraints of pressure-escalation-engine.md. A rule set may be stricter, never looser.
public enum PressureLimits {
    /// "Max notifications per day: 3".
    public static let maxRemindersPerDay = 3
    /// "Max escalation tier: 3".
    public static let maxTier = 3
    /// "Min notification spacing: 30 min".
    public static let minReminderSpacingMinutes = 30
    /// "Restart shields per month (paid): 1".
    public static let shieldsPerMonthPaid = 1
    /// "Restart shields (free): 0".
    public static let shieldsPerMonthFree = 0
}

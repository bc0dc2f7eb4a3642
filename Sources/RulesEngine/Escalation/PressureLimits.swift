/// The hard constraints of pressure-escalation-engine.md. A rule set may be stricter, never looser.
package enum PressureLimits {
    /// "Max notifications per day: 3".
    package static let maxRemindersPerDay = 3
    /// "Max escalation tier: 3".
    package static let maxTier = 3
    /// "Min notification spacing: 30 min".
    package static let minReminderSpacingMinutes = 30
    /// "Restart shields per month (paid): 1".
    package static let shieldsPerMonthPaid = 1
    /// "Restart shields (free): 0".
    package static let shieldsPerMonthFree = 0
}

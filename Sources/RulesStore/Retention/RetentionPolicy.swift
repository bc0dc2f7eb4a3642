import RulesModel

/// How long rows are kept (earned-data-model-v1.1.md A8, miga-data-model.md "keep last 90 days").
///
/// Decisions: A8 keeps `unlock_attempt`, `unlock_grant`, `quest_session` and
/// `unlock_grant_extension` 30 days; a grant goes with the attempt that created it (the foreign
/// key cascades), and an attempt is kept past 30 days while its grant is still running or is
/// referenced by a kept attempt (A5.3 must hold after cleanup). A8 is silent on
/// `daily_app_limits`: its rows only serve today's quest limits, so they follow the same 30 days.
/// An ACTIVE quest session is never deleted. `day_summary`, `focus_session`, `habit_completion`,
/// Pressure's and the habit tracker's rows are kept indefinitely; MIGA's usage events 90 days.
package struct RetentionPolicy: Hashable, Sendable {
    package var eventLogDays: Int
    package var unlockDays: Int
    package var dailyAppLimitsDays: Int
    package var migaUsageDays: Int
    /// A8: the cleanup job runs on app start "if last cleanup > 24h".
    package var minimumHoursBetweenRuns: Int

    package init(
        eventLogDays: Int = 30, unlockDays: Int = 30, dailyAppLimitsDays: Int = 30, migaUsageDays: Int = 90,
        minimumHoursBetweenRuns: Int = 24
    ) {
        self.eventLogDays = eventLogDays
        self.unlockDays = unlockDays
        self.dailyAppLimitsDays = dailyAppLimitsDays
        self.migaUsageDays = migaUsageDays
        self.minimumHoursBetweenRuns = minimumHoursBetweenRuns
    }

    /// The seeds' values.
    package static let seeds = RetentionPolicy()

    /// Whether a cleanup is due at `now` after the last one at `last` (nil: never): A8's "if last
    /// cleanup > 24h", with the policy's interval for the 24 hours.
    package func isDue(last: EpochMillis?, now: EpochMillis) -> Bool {
        guard let last else { return true }
        return now - last > Int64(minimumHoursBetweenRuns) * Millis.hour
    }

    /// `event_log` rows before this instant go.
    package func eventCutoff(_ now: EpochMillis) -> EpochMillis { now - Int64(eventLogDays) * Millis.day }
    /// Attempts, grants, quest sessions and extensions before this instant go (see the type's decisions).
    package func unlockCutoff(_ now: EpochMillis) -> EpochMillis { now - Int64(unlockDays) * Millis.day }
    /// `daily_app_limits` rows of days before this one go.
    package func limitsCutoff(_ now: EpochMillis) -> DayID { DayID(utcMillis: max(0, now - Int64(dailyAppLimitsDays) * Millis.day)) }
}

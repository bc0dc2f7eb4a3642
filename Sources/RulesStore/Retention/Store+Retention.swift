import GRDB
import RulesModel

extension Store {
    /// Deletes what the policy no longer keeps, as of `now` (never the wall clock), in one
    /// transaction, and records `meta.last_retention_cleanup_ts_utc_ms`.
    @discardableResult
    package func applyRetention(now: EpochMillis, policy: RetentionPolicy = .seeds) throws -> RetentionReport {
        try Millis.check(now, entity: "RetentionPolicy", field: "now")
        try policy.check()
        return try write { db in try Self.retain(db, now: now, policy: policy) }
    }

    /// Runs ``applyRetention(now:policy:)`` when the last run is older than the policy's minimum
    /// interval (A8: "on app start, if last cleanup > 24h"); returns nil when it was not due.
    @discardableResult
    package func applyRetentionIfDue(now: EpochMillis, policy: RetentionPolicy = .seeds) throws -> RetentionReport? {
        try Millis.check(now, entity: "RetentionPolicy", field: "now")
        try policy.check()
        let last = try writer.read { db in
            try String.fetchOne(cached: db, sql: "SELECT value FROM meta WHERE key = 'last_retention_cleanup_ts_utc_ms'").flatMap {
                Int64($0)
            }
        }
        if !policy.isDue(last: last.flatMap { Millis.supportedRange.contains($0) ? $0 : nil }, now: now) { return nil }
        return try applyRetention(now: now, policy: policy)
    }

    /// A8's cleanup of one user's Earned rows (see ``UserStorage/applyEarnedRetention(_:now:policy:)``),
    /// in one transaction. Unlike ``applyRetention(now:policy:)``, it leaves `meta` alone: the
    /// engine records each user's last cleanup in its own state.
    package func applyEarnedRetention(_ userID: UserID, now: EpochMillis, policy: RetentionPolicy = .seeds) throws {
        try earned(userID) { try $0.applyRetention(now: now, policy: policy) }
    }

    /// Compacts the file after a cleanup (`VACUUM`; then a WAL checkpoint for file databases), so
    /// that deleted rows give their space back. Runs outside any transaction.
    package func compact() throws {
        try writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
        try checkpoint()
    }

    static func retain(_ db: Database, now: EpochMillis, policy: RetentionPolicy) throws -> RetentionReport {
        var deleted: [String: Int] = [:]
        let tables = [
            "event_log", "unlock_attempt", "unlock_grant", "unlock_grant_extension", "quest_session", "unlock_grant_current",
            "daily_app_limits", "miga_usage_event",
        ]
        var before: [String: Int] = [:]
        for table in tables { before[table] = try Int.fetchOne(cached: db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
        try deleteEarned(db, user: nil, now: now, policy: policy)
        try db.execute(sql: "DELETE FROM miga_usage_event WHERE ts_utc_ms < ?", arguments: [now - Int64(policy.migaUsageDays) * Millis.day])
        for table in tables {
            let count = (before[table] ?? 0) - (try Int.fetchOne(cached: db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0)
            if count > 0 { deleted[table] = count }
        }
        try db.execute(
            sql: """
                INSERT INTO meta(key, value) VALUES ('last_retention_cleanup_ts_utc_ms', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value
                """, arguments: [String(now)])
        return RetentionReport(now: now, deleted: deleted)
    }

    /// Deletes the Earned rows (A8's five tables and `daily_app_limits`) that `policy` no longer
    /// keeps as of `now`: of every user, or of `user` only (the engine's cleanup of one user).
    /// `EarnedRecords.prune(now:policy:)` does the same to the rows a simulation holds in memory.
    static func deleteEarned(_ db: Database, user: UserID?, now: EpochMillis, policy: RetentionPolicy) throws {
        // One statement per case, so that a user's cleanup reads its rows through the user's indexes:
        // quest_session and unlock_grant_extension have no index by user, so theirs go through the
        // user's attempts (a quest is created after its attempt) and grants (an extension belongs
        // to a grant of its user).
        let mine = user == nil ? "" : " AND user_id = :user"
        var arguments: StatementArguments = ["events": policy.eventCutoff(now), "cutoff": policy.unlockCutoff(now), "now": now]
        if let user { arguments += ["user": user.rawValue] }
        try db.execute(cached: "DELETE FROM event_log WHERE ts_utc_ms < :events\(mine)", arguments: arguments)
        let grants = user == nil ? "" : " AND grant_id IN (SELECT grant_id FROM unlock_grant WHERE user_id = :user)"
        try db.execute(cached: "DELETE FROM unlock_grant_extension WHERE ts_utc_ms < :cutoff\(grants)", arguments: arguments)
        let attempts =
            user == nil ? "" : " AND attempt_id IN (SELECT attempt_id FROM unlock_attempt WHERE user_id = :user AND ts_utc_ms < :cutoff)"
        try db.execute(
            cached: "DELETE FROM quest_session WHERE created_ts_utc_ms < :cutoff AND state <> 'ACTIVE'\(attempts)", arguments: arguments)
        // An old attempt goes (with its grants, by cascade) unless one of its grants still runs at
        // `now` or is referenced by an attempt that is kept (A5.3).
        try db.execute(
            cached: """
                DELETE FROM unlock_attempt WHERE ts_utc_ms < :cutoff\(mine)
                  AND NOT EXISTS (SELECT 1 FROM quest_session q WHERE q.attempt_id = unlock_attempt.attempt_id AND q.state = 'ACTIVE')
                  AND NOT EXISTS (SELECT 1 FROM unlock_grant g WHERE g.source_attempt_id = unlock_attempt.attempt_id
                    AND ((g.ends_ts_utc_ms > :now AND g.revoked_ts_utc_ms IS NULL)
                      OR EXISTS (SELECT 1 FROM unlock_attempt b WHERE b.user_id = unlock_attempt.user_id AND b.grant_id = g.grant_id
                        AND b.ts_utc_ms >= :cutoff)))
                """, arguments: arguments)
        var limits: StatementArguments = [policy.limitsCutoff(now).rawValue]
        if let user { limits += [user.rawValue] }
        try db.execute(cached: "DELETE FROM daily_app_limits WHERE day_id < ?\(user == nil ? "" : " AND user_id = ?")", arguments: limits)
    }
}

extension RetentionPolicy {
    /// Throws when a period is out of its range (1–36,500 days; 0–87,600 hours between runs).
    func check() throws {
        for (name, days) in [
            ("eventLogDays", eventLogDays), ("unlockDays", unlockDays), ("dailyAppLimitsDays", dailyAppLimitsDays),
            ("migaUsageDays", migaUsageDays),
        ]
        where !(1...36_500).contains(days) {
            throw ModelValidationError(entity: "RetentionPolicy", field: name, rule: "between 1 and 36500 days", found: "\(days)")
        }
        guard (0...87_600).contains(minimumHoursBetweenRuns) else {
            throw ModelValidationError(
                entity: "RetentionPolicy", field: "minimumHoursBetweenRuns", rule: "between 0 and 87600 hours",
                found: "\(minimumHoursBetweenRuns)")
        }
    }
}

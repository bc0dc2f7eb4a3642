import GRDB
import RulesModel

/// The steps shared by Earned's atomic operations, run inside the caller's transaction. Every
/// row is validated as a model value before it is written.
struct EarnedWriter {
    let db: Database
    let userID: UserID

    var u: Int64 { userID.rawValue }

    // MARK: Events

    /// Appends an `event_log` row. Event ids derive from the entity that caused them
    /// (`<attempt_id>/UNLOCK_GRANTED`, `u<user>/<day>/STREAK_QUALIFIED`, …), so replaying an
    /// operation fails on the primary key instead of logging twice.
    func appendEvent(_ id: String, _ payload: EventPayload, at: EpochMillis, timezoneID: String, dayID: DayID) throws {
        let entry = EventLogEntry(userID: userID, eventID: id, timestamp: at, timezoneID: timezoneID, dayID: dayID, payload: payload, createdAt: at)
        try entry.validate()
        do {
            try db.cachedStatement(sql: UnlockRows.insertEventSQL).execute(arguments: try UnlockRows.eventArguments(entry))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            guard try Bool.fetchOne(cached: db, sql: "SELECT 1 FROM event_log WHERE event_id = ?", arguments: [id]) == true else { throw error }
            throw StoreError(.constraint, "event \(id) was already logged: the operation has already been applied")
        }
    }

    // MARK: State rows

    func economy() throws -> EconomyState {
        guard let row = try Row.fetchOne(cached: db, sql: "SELECT * FROM economy_state WHERE user_id = ?", arguments: [u]) else {
            throw StoreError.notFound("economy_state of user", "\(userID)")
        }
        return try EarnedRows.economy(row)
    }

    func save(_ economy: EconomyState) throws {
        try economy.validate()
        try db.execute(cached: EarnedRows.updateEconomySQL, arguments: EarnedRows.economyArguments(economy))
    }

    /// Loads (or starts) the day's summary, applies `change`, validates and writes it.
    func updateDaySummary(_ dayID: DayID, timezoneID: String, at: EpochMillis, _ change: (inout DaySummary) throws -> Void) throws {
        var summary = try Row.fetchOne(cached: db, sql: "SELECT * FROM day_summary WHERE user_id = ? AND day_id = ?", arguments: [u, dayID.rawValue])
            .map(EarnedRows.daySummary) ?? DaySummary(userID: userID, dayID: dayID, timezoneID: timezoneID, createdAt: at, updatedAt: at)
        try change(&summary)
        summary.updatedAt = max(summary.updatedAt, at)
        try summary.validate()
        try db.execute(cached: EarnedRows.insertDaySummarySQL, arguments: EarnedRows.daySummaryArguments(summary))
    }

    func attempt(_ attemptID: String) throws -> UnlockAttempt {
        guard let row = try Row.fetchOne(cached: db, sql: "SELECT * FROM unlock_attempt WHERE attempt_id = ?", arguments: [attemptID]) else {
            throw StoreError.notFound("UnlockAttempt", attemptID)
        }
        let attempt = try UnlockRows.attempt(row)
        guard attempt.userID == userID else { throw StoreError.notFound("UnlockAttempt \(attemptID) of user", "\(userID)") }
        return attempt
    }

    func pendingAttempt(_ attemptID: String) throws -> UnlockAttempt {
        let attempt = try attempt(attemptID)
        guard attempt.outcome == .pending else {
            throw StoreError.invalidState("UnlockAttempt \(attemptID) is \(attempt.outcome.rawValue); only a PENDING attempt can be granted or denied")
        }
        return attempt
    }

    func saveAttempt(_ attempt: UnlockAttempt) throws {
        try attempt.validate()
        try db.execute(cached: """
            UPDATE unlock_attempt SET chosen_option_type = ?, chosen_option_payload_json = ?, outcome = ?, denial_reason = ?,
              grant_id = ?, updated_ts_utc_ms = ? WHERE attempt_id = ?
            """, arguments: [attempt.chosenOptionType?.rawValue, try attempt.chosenOptionPayload.map { try ModelJSON.encode($0) },
                             attempt.outcome.rawValue, attempt.denialReason?.rawValue, attempt.grantID, attempt.updatedAt, attempt.attemptID])
    }

    // MARK: Grants

    /// The current grant of an app, if any.
    func currentGrant(_ appID: AppID) throws -> UnlockGrant? {
        try Row.fetchOne(cached: db, sql: """
            SELECT g.* FROM unlock_grant_current c JOIN unlock_grant g ON g.grant_id = c.grant_id
            WHERE c.user_id = ? AND c.app_id = ?
            """, arguments: [u, appID.rawValue]).map(UnlockRows.grant)
    }

    /// Extends the app's current grant when it has not ended (nor been revoked) at `at`;
    /// otherwise creates a new grant starting at `at` and makes it current.
    func createOrExtendGrant(for attempt: UnlockAttempt, minutes: Int, method: UnlockGrantMethod, at: EpochMillis,
                             grantID: String, extensionID: String, metadata: JSONValue) throws -> UnlockGrant {
        guard (1...1440).contains(minutes) else {
            throw ModelValidationError(entity: "UnlockGrant", field: "minutes", rule: "between 1 and 1440", found: "\(minutes)")
        }
        if var current = try currentGrant(attempt.appID), current.revokedAt == nil, current.endsAt > at {
            try current.validate()
            current.endsAt += Int64(minutes) * Millis.minute
            try current.validate()
            let ext = UnlockGrantExtension(userID: userID, extensionID: extensionID, grantID: current.grantID, timestamp: at,
                                           addedMinutes: minutes, newEndsAt: current.endsAt, method: method, metadata: metadata)
            try ext.validate()
            try db.execute(cached: "UPDATE unlock_grant SET ends_ts_utc_ms = ? WHERE grant_id = ?", arguments: [current.endsAt, current.grantID])
            try db.execute(cached: """
                INSERT INTO unlock_grant_extension(extension_id, user_id, grant_id, ts_utc_ms, added_minutes, new_ends_ts_utc_ms, method, metadata_json)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [ext.extensionID, u, ext.grantID, ext.timestamp, ext.addedMinutes, ext.newEndsAt, ext.method.rawValue,
                                 try ModelJSON.encode(ext.metadata)])
            try db.execute(cached: "UPDATE unlock_grant_current SET updated_ts_utc_ms = ? WHERE user_id = ? AND app_id = ?",
                           arguments: [at, u, attempt.appID.rawValue])
            return current
        }
        return try insertCurrentGrant(for: attempt, startsAt: at, minutes: minutes, method: method, at: at, grantID: grantID, metadata: metadata)
    }

    /// Creates a grant and makes it the app's current one (replacing any previous mapping).
    func insertCurrentGrant(for attempt: UnlockAttempt, startsAt: EpochMillis, minutes: Int, method: UnlockGrantMethod, at: EpochMillis,
                            grantID: String, metadata: JSONValue) throws -> UnlockGrant {
        guard (1...1440).contains(minutes) else {
            throw ModelValidationError(entity: "UnlockGrant", field: "minutes", rule: "between 1 and 1440", found: "\(minutes)")
        }
        let grant = UnlockGrant(userID: userID, grantID: grantID, appID: attempt.appID, createdAt: at, createdDayID: attempt.dayID,
                                startsAt: startsAt, endsAt: startsAt + Int64(minutes) * Millis.minute, method: method,
                                sourceModeID: attempt.effectiveModeID, sourceAttemptID: attempt.attemptID, metadata: metadata)
        try grant.validate()
        try db.execute(cached: """
            INSERT INTO unlock_grant(grant_id, user_id, app_id, created_ts_utc_ms, created_day_id, starts_ts_utc_ms, ends_ts_utc_ms, method,
              source_mode_id, source_attempt_id, metadata_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [grant.grantID, u, grant.appID.rawValue, grant.createdAt, grant.createdDayID.rawValue, grant.startsAt, grant.endsAt,
                             grant.method.rawValue, grant.sourceModeID, grant.sourceAttemptID, try ModelJSON.encode(grant.metadata)])
        try db.execute(cached: """
            INSERT INTO unlock_grant_current(user_id, app_id, grant_id, updated_ts_utc_ms) VALUES (?, ?, ?, ?)
            ON CONFLICT(user_id, app_id) DO UPDATE SET grant_id = excluded.grant_id, updated_ts_utc_ms = excluded.updated_ts_utc_ms
            """, arguments: [u, grant.appID.rawValue, grant.grantID, at])
        return grant
    }

    /// Marks the attempt GRANTED with the grant and logs `UNLOCK_GRANTED`. The event names the
    /// method of this unlock (`method`), which differs from the grant's own when it extends a
    /// grant obtained another way.
    func grantAttempt(_ attempt: UnlockAttempt, grant: UnlockGrant, method: UnlockGrantMethod, option: UnlockOptionType, payload: JSONValue,
                      at: EpochMillis) throws {
        var granted = attempt
        granted.outcome = .granted
        granted.grantID = grant.grantID
        granted.chosenOptionType = option
        granted.chosenOptionPayload = payload
        granted.updatedAt = max(attempt.updatedAt, at)
        try saveAttempt(granted)
        try appendEvent("\(attempt.attemptID)/UNLOCK_GRANTED",
                        .unlockGranted(.init(grantID: grant.grantID, appID: grant.appID, method: method, startsAt: grant.startsAt,
                                             endsAt: grant.endsAt, attemptID: attempt.attemptID)),
                        at: at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
    }

    // MARK: Streak

    /// Applies a streak qualification to the economy and the day summary, and logs
    /// `STREAK_QUALIFIED`, then `STREAK_BONUS_AWARDED` and its `CREDITS_EARNED` when there is a bonus.
    func applyStreak(_ streak: StreakUpdate, to economy: inout EconomyState, dayID: DayID, timezoneID: String, at: EpochMillis) throws {
        guard dayID == economy.currentDayID else {
            throw StoreError.invalidState("a streak can only qualify the current day \(economy.currentDayID), not \(dayID)")
        }
        guard !economy.todayQualified else {
            throw StoreError.invalidState("day \(dayID) of user \(userID) already qualified for the streak")
        }
        guard (1...1_000_000).contains(streak.newStreakCount) else {
            throw ModelValidationError(entity: "StreakUpdate", field: "newStreakCount", rule: "between 1 and 1000000", found: "\(streak.newStreakCount)")
        }
        guard (0...10_000).contains(streak.bonusCredits) else {
            throw ModelValidationError(entity: "StreakUpdate", field: "bonusCredits", rule: "between 0 and 10000", found: "\(streak.bonusCredits)")
        }
        economy.todayQualified = true
        economy.streakCount = streak.newStreakCount
        let prefix = "u\(userID)/\(dayID)"
        try appendEvent("\(prefix)/STREAK_QUALIFIED",
                        .streakQualified(.init(dayID: dayID, method: streak.method, streakCountNew: streak.newStreakCount, firstQualifiedAt: at)),
                        at: at, timezoneID: timezoneID, dayID: dayID)
        if streak.bonusCredits > 0 {
            guard economy.streakBonusAwardedDayID != dayID else {
                throw StoreError.invalidState("a streak bonus was already awarded on \(dayID)")
            }
            economy.creditBalance += streak.bonusCredits
            economy.streakBonusAwardedDayID = dayID
            try appendEvent("\(prefix)/STREAK_BONUS_AWARDED",
                            .streakBonusAwarded(.init(dayID: dayID, amount: streak.bonusCredits, streakCount: streak.newStreakCount)),
                            at: at, timezoneID: timezoneID, dayID: dayID)
            try appendEvent("\(prefix)/CREDITS_EARNED/STREAK_BONUS", .creditsEarned(.init(source: .streakBonus, amount: streak.bonusCredits)),
                            at: at, timezoneID: timezoneID, dayID: dayID)
        }
        try updateDaySummary(dayID, timezoneID: timezoneID, at: at) { summary in
            summary.qualified = true
            summary.firstQualifiedAt = summary.firstQualifiedAt ?? at
            summary.creditsEarned += streak.bonusCredits
        }
    }
}

import GRDB
import RulesModel

extension Store {
    /// A6.2 Create unlock attempt: inserts the PENDING attempt, counts it in the day summary and
    /// logs `UNLOCK_ATTEMPT_CREATED`, in one transaction.
    public func createUnlockAttempt(_ attempt: UnlockAttempt) throws {
        try attempt.validate()
        guard attempt.outcome == .pending, attempt.grantID == nil, attempt.chosenOptionType == nil else {
            throw StoreError.invalidState("a new UnlockAttempt must be PENDING with no choice yet, found \(attempt.outcome.rawValue)")
        }
        try write { db in
            try Self.requireUser(db, attempt.userID)
            let w = EarnedWriter(db: db, userID: attempt.userID)
            if let modeID = attempt.effectiveModeID,
               try Int64.fetchOne(cached: db, sql: "SELECT user_id FROM mode WHERE mode_id = ?", arguments: [modeID]) != w.u {
                throw StoreError.notFound("Mode \(modeID) of user", "\(attempt.userID)")
            }
            try db.execute(cached: """
                INSERT INTO unlock_attempt(attempt_id, user_id, app_id, ts_utc_ms, timezone_id, day_id, effective_mode_id, effective_strictness,
                  available_options_json, outcome, created_ts_utc_ms, updated_ts_utc_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [attempt.attemptID, w.u, attempt.appID.rawValue, attempt.timestamp, attempt.timezoneID, attempt.dayID.rawValue,
                                 attempt.effectiveModeID, attempt.effectiveStrictness.rawValue, try ModelJSON.encode(attempt.availableOptions),
                                 attempt.outcome.rawValue, attempt.createdAt, attempt.updatedAt])
            try w.updateDaySummary(attempt.dayID, timezoneID: attempt.timezoneID, at: attempt.timestamp) { $0.unlockAttemptsCount += 1 }
            try w.appendEvent("\(attempt.attemptID)/UNLOCK_ATTEMPT_CREATED",
                              .unlockAttemptCreated(.init(attemptID: attempt.attemptID, appID: attempt.appID, modeID: attempt.effectiveModeID,
                                                          strictness: attempt.effectiveStrictness)),
                              at: attempt.timestamp, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
        }
    }

    /// Denies a PENDING attempt and logs `UNLOCK_DENIED`, in one transaction. When the denial
    /// answers a choice (`option`), the attempt records it and `UNLOCK_OPTION_SELECTED` is logged first.
    public func denyUnlockAttempt(_ userID: UserID, attemptID: String, reason: UnlockDenialReason, at: EpochMillis,
                                  option: UnlockOptionType? = nil, payload: JSONValue = .emptyObject) throws {
        try Millis.check(at, entity: "UnlockAttempt", field: "updated_ts_utc_ms")
        try write { db in
            let w = EarnedWriter(db: db, userID: userID)
            var attempt = try w.pendingAttempt(attemptID)
            attempt.outcome = .denied
            attempt.denialReason = reason
            attempt.updatedAt = max(attempt.updatedAt, at)
            if let option {
                attempt.chosenOptionType = option
                attempt.chosenOptionPayload = payload
                try w.appendEvent("\(attemptID)/UNLOCK_OPTION_SELECTED",
                                  .unlockOptionSelected(.init(attemptID: attemptID, optionType: option, optionPayload: payload)),
                                  at: at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
            }
            try w.saveAttempt(attempt)
            try w.appendEvent("\(attemptID)/UNLOCK_DENIED", .unlockDenied(.init(attemptID: attemptID, reason: reason)),
                              at: at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
        }
    }

    /// Closes a PENDING attempt as CANCELLED or EXPIRED (A7 defines no event for these).
    public func closeUnlockAttempt(_ userID: UserID, attemptID: String, outcome: UnlockAttemptOutcome, at: EpochMillis) throws {
        try Millis.check(at, entity: "UnlockAttempt", field: "updated_ts_utc_ms")
        guard outcome == .cancelled || outcome == .expired else {
            throw StoreError.invalidState("an attempt is closed as CANCELLED or EXPIRED, not \(outcome.rawValue)")
        }
        try write { db in
            let w = EarnedWriter(db: db, userID: userID)
            var attempt = try w.pendingAttempt(attemptID)
            attempt.outcome = outcome
            attempt.updatedAt = max(attempt.updatedAt, at)
            try w.saveAttempt(attempt)
        }
    }

    /// A6.3 Credits unlock grant: spends the credits, creates or extends the app's current grant,
    /// marks the attempt GRANTED, updates the day summary and logs `UNLOCK_OPTION_SELECTED`,
    /// `CREDITS_SPENT` and `UNLOCK_GRANTED`, in one transaction.
    ///
    /// - Returns: the grant as it is after the operation.
    @discardableResult
    public func grantCreditsUnlock(_ request: CreditsUnlock) throws -> UnlockGrant {
        try Millis.check(request.at, entity: "CreditsUnlock", field: "at")
        guard request.costCredits >= 1 else {
            throw ModelValidationError(entity: "CreditsUnlock", field: "costCredits", rule: "at least 1", found: "\(request.costCredits)")
        }
        return try write { db in
            let w = EarnedWriter(db: db, userID: request.userID)
            let attempt = try w.pendingAttempt(request.attemptID)
            var economy = try w.economy()
            guard economy.creditBalance >= request.costCredits else {
                throw StoreError(.constraint, "EconomyState.credit_balance: \(economy.creditBalance) credits cannot pay \(request.costCredits) for \(request.minutes) minutes")
            }
            economy.creditBalance -= request.costCredits
            economy.updatedAt = max(economy.updatedAt, request.at)
            try w.save(economy)
            let payload = JSONValue.object(["minutes": .number(Double(request.minutes)), "cost_credits": .number(Double(request.costCredits))])
            try w.appendEvent("\(attempt.attemptID)/UNLOCK_OPTION_SELECTED",
                              .unlockOptionSelected(.init(attemptID: attempt.attemptID, optionType: .creditsUnlock, optionPayload: payload)),
                              at: request.at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
            try w.appendEvent("\(attempt.attemptID)/CREDITS_SPENT",
                              .creditsSpent(.init(appID: attempt.appID, amount: request.costCredits, unlockMinutes: request.minutes,
                                                  attemptID: attempt.attemptID)),
                              at: request.at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
            let grant = try w.createOrExtendGrant(for: attempt, minutes: request.minutes, method: .credits, at: request.at,
                                                  grantID: request.grantID ?? "\(attempt.attemptID).grant",
                                                  extensionID: request.extensionID ?? "\(attempt.attemptID).ext", metadata: payload)
            try w.grantAttempt(attempt, grant: grant, method: .credits, option: .creditsUnlock, payload: payload, at: request.at)
            try w.updateDaySummary(attempt.dayID, timezoneID: attempt.timezoneID, at: request.at) { summary in
                summary.creditsSpent += request.costCredits
                summary.creditsUnlocksCount += 1
            }
            return grant
        }
    }

    /// A6.5 Emergency unlock grant: updates the emergency state, creates a grant that starts after
    /// the delay and makes it current, marks the attempt GRANTED, updates the day summary and logs
    /// `UNLOCK_OPTION_SELECTED`, `EMERGENCY_USED` and `UNLOCK_GRANTED`, in one transaction.
    ///
    /// Decision: an emergency grant is always a new grant (it starts in the future, so it cannot
    /// extend the current one) and becomes the app's current grant.
    @discardableResult
    public func grantEmergencyUnlock(_ request: EmergencyUnlock) throws -> UnlockGrant {
        try Millis.check(request.at, entity: "EmergencyUnlock", field: "at")
        guard (1...1440).contains(request.unlockMinutes) else {
            throw ModelValidationError(entity: "EmergencyUnlock", field: "unlockMinutes", rule: "between 1 and 1440", found: "\(request.unlockMinutes)")
        }
        guard (0...600).contains(request.delaySeconds) else {
            throw ModelValidationError(entity: "EmergencyUnlock", field: "delaySeconds", rule: "between 0 and 600", found: "\(request.delaySeconds)")
        }
        return try write { db in
            let w = EarnedWriter(db: db, userID: request.userID)
            let attempt = try w.pendingAttempt(request.attemptID)
            guard let row = try Row.fetchOne(cached: db, sql: "SELECT * FROM emergency_state WHERE user_id = ?", arguments: [w.u]) else {
                throw StoreError.notFound("emergency_state of user", "\(request.userID)")
            }
            var emergency = try EarnedRows.emergency(row)
            emergency.usedCountToday = emergency.lastUsedDayID == attempt.dayID ? emergency.usedCountToday + 1 : 1
            emergency.lastUsedDayID = attempt.dayID
            emergency.lastAppIDUsed = attempt.appID
            emergency.updatedAt = max(emergency.updatedAt, request.at)
            try emergency.validate()
            try db.execute(cached: """
                UPDATE emergency_state SET last_used_day_id = ?, used_count_today = ?, last_app_id_used = ?, updated_ts_utc_ms = ? WHERE user_id = ?
                """, arguments: [attempt.dayID.rawValue, emergency.usedCountToday, attempt.appID.rawValue, emergency.updatedAt, w.u])
            let payload = JSONValue.object(["delay_seconds": .number(Double(request.delaySeconds)),
                                            "unlock_minutes": .number(Double(request.unlockMinutes))])
            try w.appendEvent("\(attempt.attemptID)/UNLOCK_OPTION_SELECTED",
                              .unlockOptionSelected(.init(attemptID: attempt.attemptID, optionType: .emergencyUnlock, optionPayload: payload)),
                              at: request.at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
            try w.appendEvent("\(attempt.attemptID)/EMERGENCY_USED",
                              .emergencyUsed(.init(attemptID: attempt.attemptID, appID: attempt.appID, delaySeconds: request.delaySeconds,
                                                   unlockMinutes: request.unlockMinutes)),
                              at: request.at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
            let grant = try w.insertCurrentGrant(for: attempt, startsAt: request.at + Int64(request.delaySeconds) * Millis.second,
                                                 minutes: request.unlockMinutes, method: .emergency, at: request.at,
                                                 grantID: request.grantID ?? "\(attempt.attemptID).grant", metadata: payload)
            try w.grantAttempt(attempt, grant: grant, method: .emergency, option: .emergencyUnlock, payload: payload, at: request.at)
            try w.updateDaySummary(attempt.dayID, timezoneID: attempt.timezoneID, at: request.at) { $0.emergencyUnlocksCount += 1 }
            return grant
        }
    }
}

import GRDB
import RulesModel

extension Store {
    /// Starts a quest for a PENDING attempt, records the choice on the attempt and logs
    /// `UNLOCK_OPTION_SELECTED` (option QUEST_UNLOCK, payload `{quest_type}`) and `QUEST_STARTED`, in
    /// one transaction. The attempt stays PENDING until the quest ends.
    public func startQuest(_ session: QuestSession) throws {
        try session.validate()
        guard session.state == .active else {
            throw StoreError.invalidState("a new QuestSession must be ACTIVE, found \(session.state.rawValue)")
        }
        try write { db in
            let w = EarnedWriter(db: db, userID: session.userID)
            var attempt = try w.pendingAttempt(session.attemptID)
            let payload = JSONValue.object(["quest_type": .string(session.questType.rawValue)])
            attempt.chosenOptionType = .questUnlock
            attempt.chosenOptionPayload = payload
            attempt.updatedAt = max(attempt.updatedAt, session.createdAt)
            try w.saveAttempt(attempt)
            try w.appendEvent("\(attempt.attemptID)/UNLOCK_OPTION_SELECTED",
                              .unlockOptionSelected(.init(attemptID: attempt.attemptID, optionType: .questUnlock, optionPayload: payload)),
                              at: session.createdAt, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
            try db.execute(cached: """
                INSERT INTO quest_session(quest_session_id, user_id, attempt_id, quest_type, created_ts_utc_ms, expires_ts_utc_ms, state,
                  metadata_json, updated_ts_utc_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [session.questSessionID, w.u, session.attemptID, session.questType.rawValue, session.createdAt, session.expiresAt,
                                 session.state.rawValue, try ModelJSON.encode(session.metadata), session.updatedAt])
            try w.appendEvent("\(session.questSessionID)/QUEST_STARTED",
                              .questStarted(.init(questSessionID: session.questSessionID, attemptID: session.attemptID, questType: session.questType)),
                              at: session.createdAt, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
        }
    }

    /// A6.4 Quest completion grant: completes the ACTIVE, unexpired quest, creates or extends the
    /// app's current grant (method QUEST), counts it in `daily_app_limits` and the day summary,
    /// marks the attempt GRANTED and logs `QUEST_COMPLETED` and `UNLOCK_GRANTED`, in one transaction.
    @discardableResult
    public func completeQuest(_ request: QuestCompletion) throws -> UnlockGrant {
        try Millis.check(request.at, entity: "QuestCompletion", field: "at")
        return try write { db in
            let w = EarnedWriter(db: db, userID: request.userID)
            var session = try Self.activeQuest(db, w, request.questSessionID)
            guard request.at < session.expiresAt else {
                throw StoreError.invalidState("QuestSession \(session.questSessionID) expired at \(session.expiresAt); it cannot complete at \(request.at)")
            }
            let attempt = try w.pendingAttempt(session.attemptID)
            session.state = .completed
            session.updatedAt = max(session.updatedAt, request.at)
            try Self.saveQuestState(db, session)
            try w.appendEvent("\(session.questSessionID)/QUEST_COMPLETED",
                              .questCompleted(.init(questSessionID: session.questSessionID, attemptID: attempt.attemptID, questType: session.questType)),
                              at: request.at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
            let payload = JSONValue.object(["quest_type": .string(session.questType.rawValue), "quest_session_id": .string(session.questSessionID),
                                            "unlock_minutes": .number(Double(request.unlockMinutes))])
            let grant = try w.createOrExtendGrant(for: attempt, minutes: request.unlockMinutes, method: .quest, at: request.at,
                                                  grantID: request.grantID ?? "\(attempt.attemptID).grant",
                                                  extensionID: request.extensionID ?? "\(attempt.attemptID).ext", metadata: payload)
            var limits = try Row.fetchOne(cached: db, sql: "SELECT * FROM daily_app_limits WHERE user_id = ? AND day_id = ? AND app_id = ?",
                                          arguments: [w.u, attempt.dayID.rawValue, attempt.appID.rawValue]).map(UnlockRows.dailyAppLimits)
                ?? DailyAppLimits(userID: request.userID, dayID: attempt.dayID, appID: attempt.appID)
            limits.questGrantsCount += 1
            limits.lastQuestGrantStartAt = request.at
            try limits.validate()
            try db.execute(cached: """
                INSERT INTO daily_app_limits(user_id, day_id, app_id, quest_grants_count, last_quest_grant_start_ts_utc_ms) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(user_id, day_id, app_id) DO UPDATE SET quest_grants_count = excluded.quest_grants_count,
                  last_quest_grant_start_ts_utc_ms = excluded.last_quest_grant_start_ts_utc_ms
                """, arguments: [w.u, attempt.dayID.rawValue, attempt.appID.rawValue, limits.questGrantsCount, limits.lastQuestGrantStartAt])
            try w.grantAttempt(attempt, grant: grant, method: .quest, option: .questUnlock, payload: payload, at: request.at)
            try w.updateDaySummary(attempt.dayID, timezoneID: attempt.timezoneID, at: request.at) { $0.questUnlocksCount += 1 }
            return grant
        }
    }

    /// Ends an ACTIVE quest as FAILED, CANCELLED or EXPIRED and logs the matching event, in one
    /// transaction. This never touches `daily_app_limits` (A6.4).
    ///
    /// - Parameter reason: required for FAILED (A7 `QUEST_FAILED.reason`), refused otherwise.
    public func endQuest(_ userID: UserID, questSessionID: String, state: QuestSessionState, reason: QuestFailureReason? = nil,
                         at: EpochMillis) throws {
        guard [.failed, .cancelled, .expired].contains(state) else {
            throw StoreError.invalidState("a quest ends as FAILED, CANCELLED or EXPIRED, not \(state.rawValue)")
        }
        guard (state == .failed) == (reason != nil) else {
            throw ModelValidationError(entity: "QuestSession", field: "reason", rule: state == .failed ? "set when FAILED" : "only for FAILED",
                                       found: reason?.rawValue ?? "null")
        }
        try write { db in
            let w = EarnedWriter(db: db, userID: userID)
            var session = try Self.activeQuest(db, w, questSessionID)
            let attempt = try w.attempt(session.attemptID)
            session.state = state
            session.updatedAt = max(session.updatedAt, at)
            try Self.saveQuestState(db, session)
            let ref = EventPayload.QuestRef(questSessionID: questSessionID, attemptID: attempt.attemptID, questType: session.questType)
            let payload: EventPayload = switch state {
            case .failed: .questFailed(.init(questSessionID: questSessionID, attemptID: attempt.attemptID, questType: session.questType, reason: reason!))
            case .cancelled: .questCancelled(ref)
            default: .questExpired(ref)
            }
            try w.appendEvent("\(questSessionID)/\(payload.type.rawValue)", payload, at: at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
        }
    }

    static func activeQuest(_ db: Database, _ w: EarnedWriter, _ questSessionID: String) throws -> QuestSession {
        guard let row = try Row.fetchOne(cached: db, sql: "SELECT * FROM quest_session WHERE quest_session_id = ?", arguments: [questSessionID]) else {
            throw StoreError.notFound("QuestSession", questSessionID)
        }
        let session = try UnlockRows.questSession(row)
        guard session.userID == w.userID else { throw StoreError.notFound("QuestSession \(questSessionID) of user", "\(w.userID)") }
        guard session.state == .active else {
            throw StoreError.invalidState("QuestSession \(questSessionID) is \(session.state.rawValue); only an ACTIVE quest can end")
        }
        return session
    }

    static func saveQuestState(_ db: Database, _ session: QuestSession) throws {
        try session.validate()
        try db.execute(cached: "UPDATE quest_session SET state = ?, updated_ts_utc_ms = ? WHERE quest_session_id = ?",
                       arguments: [session.state.rawValue, session.updatedAt, session.questSessionID])
    }
}

import RulesModel

/// Earned's atomic operations (A6), written once over the rows of one user (``EarnedTables``): the
/// store runs them in a transaction on the database, a simulation on the rows it holds in memory.
/// Every row is validated as a model value before it is written; any throw leaves the caller to
/// undo what was written (the transaction, or the records' savepoint).
struct EarnedOperations<Tables: EarnedTables> {
    let rows: Tables

    init(_ rows: Tables) { self.rows = rows }

    var userID: UserID { rows.userID }

    // MARK: Retention

    /// A8's cleanup of the user's rows as of `now` (see ``RetentionPolicy``): the event log,
    /// attempts, grants, quest sessions, grant extensions and quest limits the policy no longer keeps.
    func applyRetention(now: EpochMillis, policy: RetentionPolicy) throws {
        try Millis.check(now, entity: "RetentionPolicy", field: "now")
        try policy.check()
        try rows.requireUser()
        try rows.prune(now: now, policy: policy)
    }

    // MARK: The day cycle

    func startEconomy(day: DayID, timezoneID: String, rolloverCap: Int, resetHour: Int, at: EpochMillis) throws {
        try Millis.check(at, entity: "EconomyState", field: "updated_ts_utc_ms")
        try rows.requireUser()
        var economy = try rows.economy()
        economy.currentDayID = day
        economy.rolloverCap = rolloverCap
        economy.dailyResetHourLocal = resetHour
        economy.todayFocusQualified = false
        economy.todayHabitQualifiedCount = 0
        economy.todayQualified = false
        economy.updatedAt = max(economy.updatedAt, at)
        try save(economy)
        try updateDaySummary(day, timezoneID: timezoneID, at: at) { _ in }
    }

    func rollOverDay(_ request: DayRollover) throws {
        try Millis.check(request.at, entity: "DayRollover", field: "at")
        try rows.requireUser()
        var economy = try rows.economy()
        let from = economy.currentDayID
        guard request.toDayID > from else {
            throw StoreError.invalidState(
                "rollover of user \(request.userID) must move past the current day \(from), found \(request.toDayID)")
        }
        guard (0...economy.creditBalance).contains(request.carriedCredits) else {
            throw StoreError(
                .constraint,
                "DayRollover.carriedCredits: between 0 and the balance (\(economy.creditBalance)), found \(request.carriedCredits)")
        }
        economy.currentDayID = request.toDayID
        economy.creditBalance = request.carriedCredits
        if let streak = request.streakCount { economy.streakCount = streak }
        economy.todayFocusQualified = false
        economy.todayHabitQualifiedCount = 0
        economy.todayQualified = false
        economy.updatedAt = max(economy.updatedAt, request.at)
        try save(economy)
        try updateDaySummary(request.toDayID, timezoneID: request.timezoneID, at: request.at) { _ in }
        try appendEvent(
            "u\(request.userID)/\(request.toDayID)/DAY_ROLLOVER",
            .dayRollover(.init(fromDayID: from, toDayID: request.toDayID, carriedCredits: request.carriedCredits)),
            at: request.at, timezoneID: request.timezoneID, dayID: request.toDayID)
    }

    // MARK: Focus and habits

    func startFocusSession(_ session: FocusSession, blockedApps: [AppID]) throws {
        try session.validate()
        guard session.isOpen else { throw StoreError.invalidState("a new FocusSession must be open (no ended_ts_utc_ms)") }
        try rows.requireUser()
        if let active = try rows.activeFocusSessionID() {
            throw StoreError.invalidState("user \(session.userID) already has the active focus session \(active)")
        }
        try rows.insertFocusSession(session, blockedApps: Set(blockedApps).sorted())
        try rows.setActiveFocusSession(session.sessionID, at: session.startedAt)
        try appendEvent(
            Self.eventID(session.sessionID, "FOCUS_STARTED"),
            .focusStarted(.init(sessionID: session.sessionID, plannedMinutes: session.plannedDurationMinutes)),
            at: session.startedAt, timezoneID: session.timezoneID, dayID: session.dayID)
    }

    func completeFocusSession(_ request: FocusCompletion) throws {
        try Millis.check(request.endedAt, entity: "FocusCompletion", field: "endedAt")
        try rows.requireUser()
        guard var session = try rows.focusSession(request.sessionID) else {
            throw StoreError.notFound("FocusSession \(request.sessionID) of user", "\(request.userID)")
        }
        guard (0...10_000).contains(request.awardedCredits) else {
            throw ModelValidationError(
                entity: "FocusCompletion", field: "awardedCredits", rule: "between 0 and 10000", found: "\(request.awardedCredits)")
        }
        guard session.isOpen else { throw StoreError.invalidState("FocusSession \(request.sessionID) has already ended") }
        session.endedAt = request.endedAt
        session.actualDurationMinutes = request.actualMinutes
        session.completed = request.completed
        session.endedEarly = !request.completed
        session.awardedCredits = request.awardedCredits
        session.qualifies = request.qualifies
        session.updatedAt = max(session.updatedAt, request.endedAt)
        try session.validate()
        if request.streak != nil && !request.qualifies {
            throw StoreError.invalidState("FocusCompletion: a session that does not qualify cannot qualify the day for the streak")
        }
        try rows.updateFocusSession(session)
        try rows.clearActiveFocusSession(session.sessionID, at: request.endedAt)
        let (at, tz, day) = (request.endedAt, session.timezoneID, session.dayID)
        try appendEvent(
            Self.eventID(session.sessionID, "FOCUS_ENDED"),
            .focusEnded(
                .init(
                    sessionID: session.sessionID, completed: session.completed, endedEarly: session.endedEarly,
                    actualMinutes: request.actualMinutes)),
            at: at, timezoneID: tz, dayID: day)
        var economy = try rows.economy()
        economy.creditBalance += request.awardedCredits
        if request.qualifies && day == economy.currentDayID { economy.todayFocusQualified = true }
        if request.awardedCredits > 0 {
            try appendEvent(
                Self.eventID(session.sessionID, "CREDITS_EARNED"),
                .creditsEarned(.init(source: .focus, amount: request.awardedCredits, focusSessionID: session.sessionID)),
                at: at, timezoneID: tz, dayID: day)
        }
        try updateDaySummary(day, timezoneID: tz, at: at) { summary in
            summary.focusMinutesCompleted += request.actualMinutes
            summary.creditsEarned += request.awardedCredits
        }
        if let streak = request.streak {
            try applyStreak(streak, to: &economy, dayID: day, timezoneID: tz, at: at)
        }
        economy.updatedAt = max(economy.updatedAt, at)
        try save(economy)
    }

    func recordHabitCompletion(_ record: HabitCompletionRecord) throws {
        let completion = record.completion
        try completion.validate()
        try rows.requireUser()
        guard let habit = try rows.habit(completion.habitID) else {
            throw StoreError.notFound("Habit \(completion.habitID) of user", "\(completion.userID)")
        }
        guard habit.active, habit.deletedAt == nil else {
            throw StoreError.invalidState(
                "Habit \(habit.habitID) is \(habit.deletedAt == nil ? "inactive" : "deleted"); it cannot be completed")
        }
        guard completion.awardedCredits <= habit.rewardCredits else {
            throw StoreError(
                .constraint,
                "HabitCompletion.awarded_credits: at most the habit's reward_credits (\(habit.rewardCredits)), found \(completion.awardedCredits)"
            )
        }
        if try rows.habitCompleted(completion.habitID, on: completion.dayID) {
            throw StoreError(.constraint, "HabitCompletion: habit \(completion.habitID) is already completed on \(completion.dayID) (A5.4)")
        }
        var economy = try rows.economy()
        if let until = economy.habitAwardsSuspendedUntilDayID, completion.dayID <= until, !completion.awardSuspended {
            throw StoreError(
                .constraint,
                "HabitCompletion.award_suspended: habit awards are suspended until \(until); the completion on \(completion.dayID) must be suspended"
            )
        }
        try rows.insertHabitCompletion(completion)
        let (at, tz, day) = (completion.timestamp, completion.timezoneID, completion.dayID)
        if !completion.awardSuspended {
            economy.creditBalance += completion.awardedCredits
            if day == economy.currentDayID { economy.todayHabitQualifiedCount += 1 }
            try updateDaySummary(day, timezoneID: tz, at: at) { $0.creditsEarned += completion.awardedCredits }
            if completion.awardedCredits > 0 {
                try appendEvent(
                    Self.eventID(completion.completionID, "CREDITS_EARNED"),
                    .creditsEarned(.init(source: .habit, amount: completion.awardedCredits, habitID: completion.habitID)),
                    at: at, timezoneID: tz, dayID: day)
            }
            if let streak = record.streak {
                try applyStreak(streak, to: &economy, dayID: day, timezoneID: tz, at: at)
            }
        } else if record.streak != nil {
            throw StoreError.invalidState("HabitCompletionRecord: a suspended completion cannot qualify the day for the streak")
        }
        if let until = record.suspendAwardsUntil {
            guard until >= day else {
                throw StoreError.invalidState(
                    "HabitCompletionRecord.suspendAwardsUntil: not before the completion's day \(day), found \(until)")
            }
            economy.habitAwardsSuspendedUntilDayID = until
            try appendEvent(
                Self.eventID(completion.completionID, "HABIT_AWARD_SUSPENDED"),
                .habitAwardSuspended(.init(untilDayID: until)), at: at, timezoneID: tz, dayID: day)
        }
        economy.updatedAt = max(economy.updatedAt, at)
        try save(economy)
    }

    // MARK: The unlock gate

    func createUnlockAttempt(_ attempt: UnlockAttempt) throws {
        try attempt.validate()
        guard attempt.outcome == .pending, attempt.grantID == nil, attempt.chosenOptionType == nil else {
            throw StoreError.invalidState("a new UnlockAttempt must be PENDING with no choice yet, found \(attempt.outcome.rawValue)")
        }
        try rows.requireUser()
        if let modeID = attempt.effectiveModeID, try rows.owner(ofMode: modeID) != userID {
            throw StoreError.notFound("Mode \(modeID) of user", "\(attempt.userID)")
        }
        try rows.insertAttempt(attempt)
        try updateDaySummary(attempt.dayID, timezoneID: attempt.timezoneID, at: attempt.timestamp) { $0.unlockAttemptsCount += 1 }
        try appendEvent(
            Self.eventID(attempt.attemptID, "UNLOCK_ATTEMPT_CREATED"),
            .unlockAttemptCreated(
                .init(
                    attemptID: attempt.attemptID, appID: attempt.appID, modeID: attempt.effectiveModeID,
                    strictness: attempt.effectiveStrictness)),
            at: attempt.timestamp, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
    }

    func denyUnlockAttempt(
        _ attemptID: String, reason: UnlockDenialReason, at: EpochMillis, option: UnlockOptionType?,
        payload: JSONValue
    ) throws {
        try Millis.check(at, entity: "UnlockAttempt", field: "updated_ts_utc_ms")
        var attempt = try pendingAttempt(attemptID)
        attempt.outcome = .denied
        attempt.denialReason = reason
        attempt.updatedAt = max(attempt.updatedAt, at)
        if let option {
            attempt.chosenOptionType = option
            attempt.chosenOptionPayload = payload
            try appendEvent(
                Self.eventID(attemptID, "UNLOCK_OPTION_SELECTED"),
                .unlockOptionSelected(.init(attemptID: attemptID, optionType: option, optionPayload: payload)),
                at: at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
        }
        try saveAttempt(attempt)
        try appendEvent(
            Self.eventID(attemptID, "UNLOCK_DENIED"), .unlockDenied(.init(attemptID: attemptID, reason: reason)),
            at: at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
    }

    func closeUnlockAttempt(_ attemptID: String, outcome: UnlockAttemptOutcome, at: EpochMillis) throws {
        try Millis.check(at, entity: "UnlockAttempt", field: "updated_ts_utc_ms")
        guard outcome == .cancelled || outcome == .expired else {
            throw StoreError.invalidState("an attempt is closed as CANCELLED or EXPIRED, not \(outcome.rawValue)")
        }
        var attempt = try pendingAttempt(attemptID)
        attempt.outcome = outcome
        attempt.updatedAt = max(attempt.updatedAt, at)
        try saveAttempt(attempt)
    }

    func grantCreditsUnlock(_ request: CreditsUnlock) throws -> UnlockGrant {
        try Millis.check(request.at, entity: "CreditsUnlock", field: "at")
        guard request.costCredits >= 1 else {
            throw ModelValidationError(entity: "CreditsUnlock", field: "costCredits", rule: "at least 1", found: "\(request.costCredits)")
        }
        let attempt = try pendingAttempt(request.attemptID)
        var economy = try rows.economy()
        guard economy.creditBalance >= request.costCredits else {
            throw StoreError(
                .constraint,
                "EconomyState.credit_balance: \(economy.creditBalance) credits cannot pay \(request.costCredits) for \(request.minutes) minutes"
            )
        }
        economy.creditBalance -= request.costCredits
        economy.updatedAt = max(economy.updatedAt, request.at)
        try save(economy)
        let payload = JSONValue.payload([("minutes", .int(request.minutes)), ("cost_credits", .int(request.costCredits))])
        try appendEvent(
            Self.eventID(attempt.attemptID, "UNLOCK_OPTION_SELECTED"),
            .unlockOptionSelected(.init(attemptID: attempt.attemptID, optionType: .creditsUnlock, optionPayload: payload)),
            at: request.at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
        try appendEvent(
            Self.eventID(attempt.attemptID, "CREDITS_SPENT"),
            .creditsSpent(
                .init(
                    appID: attempt.appID, amount: request.costCredits, unlockMinutes: request.minutes,
                    attemptID: attempt.attemptID)),
            at: request.at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
        let grant = try createOrExtendGrant(
            for: attempt, minutes: request.minutes, method: .credits, at: request.at,
            grantID: request.grantID ?? "\(attempt.attemptID).grant",
            extensionID: request.extensionID ?? "\(attempt.attemptID).ext", metadata: payload)
        try grantAttempt(attempt, grant: grant, method: .credits, option: .creditsUnlock, payload: payload, at: request.at)
        try updateDaySummary(attempt.dayID, timezoneID: attempt.timezoneID, at: request.at) { summary in
            summary.creditsSpent += request.costCredits
            summary.creditsUnlocksCount += 1
        }
        return grant
    }

    func grantEmergencyUnlock(_ request: EmergencyUnlock) throws -> UnlockGrant {
        try Millis.check(request.at, entity: "EmergencyUnlock", field: "at")
        guard (1...1440).contains(request.unlockMinutes) else {
            throw ModelValidationError(
                entity: "EmergencyUnlock", field: "unlockMinutes", rule: "between 1 and 1440", found: "\(request.unlockMinutes)")
        }
        guard (0...600).contains(request.delaySeconds) else {
            throw ModelValidationError(
                entity: "EmergencyUnlock", field: "delaySeconds", rule: "between 0 and 600", found: "\(request.delaySeconds)")
        }
        let attempt = try pendingAttempt(request.attemptID)
        var emergency = try rows.emergency()
        emergency.usedCountToday = emergency.lastUsedDayID == attempt.dayID ? emergency.usedCountToday + 1 : 1
        emergency.lastUsedDayID = attempt.dayID
        emergency.lastAppIDUsed = attempt.appID
        emergency.updatedAt = max(emergency.updatedAt, request.at)
        try emergency.validate()
        try rows.setEmergency(emergency)
        let payload = JSONValue.payload([
            ("delay_seconds", .int(request.delaySeconds)),
            ("unlock_minutes", .int(request.unlockMinutes)),
        ])
        try appendEvent(
            Self.eventID(attempt.attemptID, "UNLOCK_OPTION_SELECTED"),
            .unlockOptionSelected(.init(attemptID: attempt.attemptID, optionType: .emergencyUnlock, optionPayload: payload)),
            at: request.at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
        try appendEvent(
            Self.eventID(attempt.attemptID, "EMERGENCY_USED"),
            .emergencyUsed(
                .init(
                    attemptID: attempt.attemptID, appID: attempt.appID, delaySeconds: request.delaySeconds,
                    unlockMinutes: request.unlockMinutes)),
            at: request.at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
        let grant = try insertCurrentGrant(
            for: attempt, startsAt: request.at + Int64(request.delaySeconds) * Millis.second,
            minutes: request.unlockMinutes, method: .emergency, at: request.at,
            grantID: request.grantID ?? "\(attempt.attemptID).grant", metadata: payload)
        try grantAttempt(attempt, grant: grant, method: .emergency, option: .emergencyUnlock, payload: payload, at: request.at)
        try updateDaySummary(attempt.dayID, timezoneID: attempt.timezoneID, at: request.at) { $0.emergencyUnlocksCount += 1 }
        return grant
    }

    // MARK: Quests

    func startQuest(_ session: QuestSession) throws {
        try session.validate()
        guard session.state == .active else {
            throw StoreError.invalidState("a new QuestSession must be ACTIVE, found \(session.state.rawValue)")
        }
        var attempt = try pendingAttempt(session.attemptID)
        let payload = JSONValue.payload([("quest_type", .string(session.questType.rawValue))])
        attempt.chosenOptionType = .questUnlock
        attempt.chosenOptionPayload = payload
        attempt.updatedAt = max(attempt.updatedAt, session.createdAt)
        try saveAttempt(attempt)
        try appendEvent(
            Self.eventID(attempt.attemptID, "UNLOCK_OPTION_SELECTED"),
            .unlockOptionSelected(.init(attemptID: attempt.attemptID, optionType: .questUnlock, optionPayload: payload)),
            at: session.createdAt, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
        try rows.insertQuest(session)
        try appendEvent(
            Self.eventID(session.questSessionID, "QUEST_STARTED"),
            .questStarted(.init(questSessionID: session.questSessionID, attemptID: session.attemptID, questType: session.questType)),
            at: session.createdAt, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
    }

    func completeQuest(_ request: QuestCompletion) throws -> UnlockGrant {
        try Millis.check(request.at, entity: "QuestCompletion", field: "at")
        var session = try activeQuest(request.questSessionID)
        guard request.at < session.expiresAt else {
            throw StoreError.invalidState(
                "QuestSession \(session.questSessionID) expired at \(session.expiresAt); it cannot complete at \(request.at)")
        }
        let attempt = try pendingAttempt(session.attemptID)
        session.state = .completed
        session.updatedAt = max(session.updatedAt, request.at)
        try session.validate()
        try rows.updateQuestState(session)
        try appendEvent(
            Self.eventID(session.questSessionID, "QUEST_COMPLETED"),
            .questCompleted(.init(questSessionID: session.questSessionID, attemptID: attempt.attemptID, questType: session.questType)),
            at: request.at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
        let payload = JSONValue.payload([
            ("quest_type", .string(session.questType.rawValue)), ("quest_session_id", .string(session.questSessionID)),
            ("unlock_minutes", .int(request.unlockMinutes)),
        ])
        let grant = try createOrExtendGrant(
            for: attempt, minutes: request.unlockMinutes, method: .quest, at: request.at,
            grantID: request.grantID ?? "\(attempt.attemptID).grant",
            extensionID: request.extensionID ?? "\(attempt.attemptID).ext", metadata: payload)
        var limits =
            try rows.dailyAppLimits(attempt.dayID, attempt.appID)
            ?? DailyAppLimits(userID: userID, dayID: attempt.dayID, appID: attempt.appID)
        limits.questGrantsCount += 1
        limits.lastQuestGrantStartAt = request.at
        try limits.validate()
        try rows.saveDailyAppLimits(limits)
        try grantAttempt(attempt, grant: grant, method: .quest, option: .questUnlock, payload: payload, at: request.at)
        try updateDaySummary(attempt.dayID, timezoneID: attempt.timezoneID, at: request.at) { $0.questUnlocksCount += 1 }
        return grant
    }

    func endQuest(_ questSessionID: String, state: QuestSessionState, reason: QuestFailureReason?, at: EpochMillis) throws {
        guard [.failed, .cancelled, .expired].contains(state) else {
            throw StoreError.invalidState("a quest ends as FAILED, CANCELLED or EXPIRED, not \(state.rawValue)")
        }
        guard (state == .failed) == (reason != nil) else {
            throw ModelValidationError(
                entity: "QuestSession", field: "reason", rule: state == .failed ? "set when FAILED" : "only for FAILED",
                found: reason?.rawValue ?? "null")
        }
        var session = try activeQuest(questSessionID)
        let attempt = try self.attempt(session.attemptID)
        session.state = state
        session.updatedAt = max(session.updatedAt, at)
        try session.validate()
        try rows.updateQuestState(session)
        let ref = EventPayload.QuestRef(questSessionID: questSessionID, attemptID: attempt.attemptID, questType: session.questType)
        let payload: EventPayload =
            switch state {
            case .failed:
                .questFailed(
                    .init(questSessionID: questSessionID, attemptID: attempt.attemptID, questType: session.questType, reason: reason!))
            case .cancelled: .questCancelled(ref)
            default: .questExpired(ref)
            }
        try appendEvent("\(questSessionID)/\(payload.type.rawValue)", payload, at: at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
    }

    // MARK: Settings, habits, modes, apps

    func saveEarnedSettings(_ settings: EarnedSettings, now: EpochMillis) throws {
        try Millis.check(now, entity: "EarnedUserSettings", field: "updated_ts_utc_ms")
        try settings.validate()
        try rows.requireUser()
        try rows.setEarnedSettings(settings, at: now)
    }

    func saveEntitlement(_ state: EntitlementState) throws {
        try state.validate()
        try rows.requireUser()
        try rows.setEntitlement(state)
    }

    func saveMode(_ mode: Mode, windows: [ModeWindow], blockedApps: [AppID]) throws {
        try mode.validate()
        for window in windows {
            try window.validate()
            guard window.modeID == mode.modeID, window.userID == mode.userID else {
                throw ModelValidationError(
                    entity: "ModeWindow", field: "mode_id", rule: "the saved mode \(mode.modeID)", found: window.modeID)
            }
        }
        try rows.requireUser()
        if let owner = try rows.owner(ofMode: mode.modeID), owner != userID { throw Self.otherUsers("mode", mode.modeID) }
        try rows.saveMode(mode, windows: windows, blockedApps: Set(blockedApps).sorted())
    }

    func saveHabit(_ habit: Habit) throws {
        try habit.validate()
        try rows.requireUser()
        if let owner = try rows.owner(ofHabit: habit.habitID), owner != userID { throw Self.otherUsers("habit", habit.habitID) }
        try rows.saveHabit(habit)
    }

    func setDistractingApps(_ apps: [AppID], now: EpochMillis) throws {
        try Millis.check(now, entity: "DistractingApp", field: "created_ts_utc_ms")
        try rows.requireUser()
        try rows.setDistractingApps(Set(apps).sorted(), at: now)
    }

    private static func otherUsers(_ table: String, _ id: String) -> StoreError {
        StoreError(.constraint, "\(table) \(id) belongs to another user")
    }

    // MARK: Shared steps

    /// Appends an `event_log` row. Event ids derive from the entity that caused them
    /// (`<attempt_id>/UNLOCK_GRANTED`, `u<user>/<day>/STREAK_QUALIFIED`, …), so replaying an
    /// operation fails on the primary key instead of logging twice.
    func appendEvent(_ id: String, _ payload: EventPayload, at: EpochMillis, timezoneID: String, dayID: DayID) throws {
        let entry = EventLogEntry(
            userID: userID, eventID: id, timestamp: at, timezoneID: timezoneID, dayID: dayID, payload: payload, createdAt: at)
        try entry.validate()
        try rows.appendEvent(entry)
    }

    /// An event's id, `base/kind`, written at once into a string of its length (an interpolation
    /// appends its pieces one by one: 1.6 % of an in-memory simulation).
    static func eventID(_ base: String, _ kind: StaticString) -> String {
        var base = base
        return base.withUTF8 { head in
            kind.withUTF8Buffer { tail in
                String(unsafeUninitializedCapacity: head.count + 1 + tail.count) { out in
                    _ = UnsafeMutableBufferPointer(rebasing: out[..<head.count]).initialize(from: head)
                    out[head.count] = UInt8(ascii: "/")
                    _ = UnsafeMutableBufferPointer(rebasing: out[(head.count + 1)...]).initialize(from: tail)
                    return out.count
                }
            }
        }
    }

    private func save(_ economy: EconomyState) throws {
        try economy.validate()
        try rows.setEconomy(economy)
    }

    /// Loads (or starts) the day's summary, applies `change`, validates and writes it.
    private func updateDaySummary(_ dayID: DayID, timezoneID: String, at: EpochMillis, _ change: (inout DaySummary) throws -> Void) throws {
        var summary =
            try rows.daySummary(dayID) ?? DaySummary(userID: userID, dayID: dayID, timezoneID: timezoneID, createdAt: at, updatedAt: at)
        try change(&summary)
        summary.updatedAt = max(summary.updatedAt, at)
        try summary.validate()
        try rows.saveDaySummary(summary)
    }

    private func attempt(_ attemptID: String) throws -> UnlockAttempt {
        guard let attempt = try rows.attempt(attemptID) else { throw StoreError.notFound("UnlockAttempt", attemptID) }
        guard attempt.userID == userID else { throw StoreError.notFound("UnlockAttempt \(attemptID) of user", "\(userID)") }
        return attempt
    }

    private func pendingAttempt(_ attemptID: String) throws -> UnlockAttempt {
        let attempt = try attempt(attemptID)
        guard attempt.outcome == .pending else {
            throw StoreError.invalidState(
                "UnlockAttempt \(attemptID) is \(attempt.outcome.rawValue); only a PENDING attempt can be granted or denied")
        }
        return attempt
    }

    private func saveAttempt(_ attempt: UnlockAttempt) throws {
        try attempt.validate()
        try rows.updateAttempt(attempt)
    }

    private func activeQuest(_ questSessionID: String) throws -> QuestSession {
        guard let session = try rows.quest(questSessionID) else { throw StoreError.notFound("QuestSession", questSessionID) }
        guard session.userID == userID else { throw StoreError.notFound("QuestSession \(questSessionID) of user", "\(userID)") }
        guard session.state == .active else {
            throw StoreError.invalidState("QuestSession \(questSessionID) is \(session.state.rawValue); only an ACTIVE quest can end")
        }
        return session
    }

    /// Extends the app's current grant when it has not ended (nor been revoked) at `at`;
    /// otherwise creates a new grant starting at `at` and makes it current.
    private func createOrExtendGrant(
        for attempt: UnlockAttempt, minutes: Int, method: UnlockGrantMethod, at: EpochMillis,
        grantID: String, extensionID: String, metadata: JSONValue
    ) throws -> UnlockGrant {
        try Self.checkGrantMinutes(minutes)
        if var current = try rows.currentGrant(attempt.appID), current.revokedAt == nil, current.endsAt > at {
            try current.validate()
            current.endsAt += Int64(minutes) * Millis.minute
            try current.validate()
            let ext = UnlockGrantExtension(
                userID: userID, extensionID: extensionID, grantID: current.grantID, timestamp: at,
                addedMinutes: minutes, newEndsAt: current.endsAt, method: method, metadata: metadata)
            try ext.validate()
            try rows.extendGrant(current, ext, at: at)
            return current
        }
        return try insertCurrentGrant(
            for: attempt, startsAt: at, minutes: minutes, method: method, at: at, grantID: grantID, metadata: metadata)
    }

    private static func checkGrantMinutes(_ minutes: Int) throws {
        guard (1...1440).contains(minutes) else {
            throw ModelValidationError(entity: "UnlockGrant", field: "minutes", rule: "between 1 and 1440", found: "\(minutes)")
        }
    }

    /// Creates a grant and makes it the app's current one (replacing any previous mapping).
    private func insertCurrentGrant(
        for attempt: UnlockAttempt, startsAt: EpochMillis, minutes: Int, method: UnlockGrantMethod, at: EpochMillis,
        grantID: String, metadata: JSONValue
    ) throws -> UnlockGrant {
        try Self.checkGrantMinutes(minutes)
        let grant = UnlockGrant(
            userID: userID, grantID: grantID, appID: attempt.appID, createdAt: at, createdDayID: attempt.dayID,
            startsAt: startsAt, endsAt: startsAt + Int64(minutes) * Millis.minute, method: method,
            sourceModeID: attempt.effectiveModeID, sourceAttemptID: attempt.attemptID, metadata: metadata)
        try grant.validate()
        try rows.insertCurrentGrant(grant, at: at)
        return grant
    }

    /// Marks the attempt GRANTED with the grant and logs `UNLOCK_GRANTED`. The event names the
    /// method of this unlock (`method`), which differs from the grant's own when it extends a
    /// grant obtained another way.
    private func grantAttempt(
        _ attempt: UnlockAttempt, grant: UnlockGrant, method: UnlockGrantMethod, option: UnlockOptionType,
        payload: JSONValue, at: EpochMillis
    ) throws {
        var granted = attempt
        granted.outcome = .granted
        granted.grantID = grant.grantID
        granted.chosenOptionType = option
        granted.chosenOptionPayload = payload
        granted.updatedAt = max(attempt.updatedAt, at)
        try saveAttempt(granted)
        try appendEvent(
            Self.eventID(attempt.attemptID, "UNLOCK_GRANTED"),
            .unlockGranted(
                .init(
                    grantID: grant.grantID, appID: grant.appID, method: method, startsAt: grant.startsAt,
                    endsAt: grant.endsAt, attemptID: attempt.attemptID)),
            at: at, timezoneID: attempt.timezoneID, dayID: attempt.dayID)
    }

    /// Applies a streak qualification to the economy and the day summary, and logs
    /// `STREAK_QUALIFIED`, then `STREAK_BONUS_AWARDED` and its `CREDITS_EARNED` when there is a bonus.
    private func applyStreak(
        _ streak: StreakUpdate, to economy: inout EconomyState, dayID: DayID, timezoneID: String, at: EpochMillis
    ) throws {
        guard dayID == economy.currentDayID else {
            throw StoreError.invalidState("a streak can only qualify the current day \(economy.currentDayID), not \(dayID)")
        }
        guard !economy.todayQualified else {
            throw StoreError.invalidState("day \(dayID) of user \(userID) already qualified for the streak")
        }
        guard (1...1_000_000).contains(streak.newStreakCount) else {
            throw ModelValidationError(
                entity: "StreakUpdate", field: "newStreakCount", rule: "between 1 and 1000000", found: "\(streak.newStreakCount)")
        }
        guard (0...10_000).contains(streak.bonusCredits) else {
            throw ModelValidationError(
                entity: "StreakUpdate", field: "bonusCredits", rule: "between 0 and 10000", found: "\(streak.bonusCredits)")
        }
        economy.todayQualified = true
        economy.streakCount = streak.newStreakCount
        let prefix = "u\(userID)/\(dayID)"
        try appendEvent(
            Self.eventID(prefix, "STREAK_QUALIFIED"),
            .streakQualified(.init(dayID: dayID, method: streak.method, streakCountNew: streak.newStreakCount, firstQualifiedAt: at)),
            at: at, timezoneID: timezoneID, dayID: dayID)
        if streak.bonusCredits > 0 {
            guard economy.streakBonusAwardedDayID != dayID else {
                throw StoreError.invalidState("a streak bonus was already awarded on \(dayID)")
            }
            economy.creditBalance += streak.bonusCredits
            economy.streakBonusAwardedDayID = dayID
            try appendEvent(
                Self.eventID(prefix, "STREAK_BONUS_AWARDED"),
                .streakBonusAwarded(.init(dayID: dayID, amount: streak.bonusCredits, streakCount: streak.newStreakCount)),
                at: at, timezoneID: timezoneID, dayID: dayID)
            try appendEvent(
                "\(prefix)/CREDITS_EARNED/STREAK_BONUS", .creditsEarned(.init(source: .streakBonus, amount: streak.bonusCredits)),
                at: at, timezoneID: timezoneID, dayID: dayID)
        }
        try updateDaySummary(dayID, timezoneID: timezoneID, at: at) { summary in
            summary.qualified = true
            summary.firstQualifiedAt = summary.firstQualifiedAt ?? at
            summary.creditsEarned += streak.bonusCredits
        }
    }
}

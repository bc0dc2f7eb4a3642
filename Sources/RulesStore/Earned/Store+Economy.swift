import GRDB
import RulesModel

extension Store {
    /// Starts Earned's day cycle for a user at its first Earned event: the economy's current day,
    /// its rollover cap and reset hour (from the rules), and the day's summary, in one transaction.
    /// A7 defines no event for it. The day may be earlier than the one the user was created on (a
    /// user created after midnight UTC but before 04:00 local).
    public func startEconomy(_ userID: UserID, day: DayID, timezoneID: String, rolloverCap: Int, resetHour: Int, at: EpochMillis) throws {
        try Millis.check(at, entity: "EconomyState", field: "updated_ts_utc_ms")
        try write { db in
            try Self.requireUser(db, userID)
            let w = EarnedWriter(db: db, userID: userID)
            var economy = try w.economy()
            economy.currentDayID = day
            economy.rolloverCap = rolloverCap
            economy.dailyResetHourLocal = resetHour
            economy.todayFocusQualified = false
            economy.todayHabitQualifiedCount = 0
            economy.todayQualified = false
            economy.updatedAt = max(economy.updatedAt, at)
            try w.save(economy)
            try w.updateDaySummary(day, timezoneID: timezoneID, at: at) { _ in }
        }
    }

    /// A6.1 Daily rollover (`ensureDayState`): moves the economy to the new day (carried credits,
    /// today's flags reset), starts the new day's summary and logs `DAY_ROLLOVER`, in one transaction.
    public func rollOverDay(_ request: DayRollover) throws {
        try Millis.check(request.at, entity: "DayRollover", field: "at")
        try write { db in
            try Self.requireUser(db, request.userID)
            let w = EarnedWriter(db: db, userID: request.userID)
            var economy = try w.economy()
            let from = economy.currentDayID
            guard request.toDayID > from else {
                throw StoreError.invalidState("rollover of user \(request.userID) must move past the current day \(from), found \(request.toDayID)")
            }
            guard (0...economy.creditBalance).contains(request.carriedCredits) else {
                throw StoreError(.constraint, "DayRollover.carriedCredits: between 0 and the balance (\(economy.creditBalance)), found \(request.carriedCredits)")
            }
            economy.currentDayID = request.toDayID
            economy.creditBalance = request.carriedCredits
            if let streak = request.streakCount { economy.streakCount = streak }
            economy.todayFocusQualified = false
            economy.todayHabitQualifiedCount = 0
            economy.todayQualified = false
            economy.updatedAt = max(economy.updatedAt, request.at)
            try w.save(economy)
            try w.updateDaySummary(request.toDayID, timezoneID: request.timezoneID, at: request.at) { _ in }
            try w.appendEvent("u\(request.userID)/\(request.toDayID)/DAY_ROLLOVER",
                              .dayRollover(.init(fromDayID: from, toDayID: request.toDayID, carriedCredits: request.carriedCredits)),
                              at: request.at, timezoneID: request.timezoneID, dayID: request.toDayID)
        }
    }

    /// Starts a focus session (open), points `focus_state` at it and logs `FOCUS_STARTED`, in one
    /// transaction. Refused while another session is active.
    public func startFocusSession(_ session: FocusSession, blockedApps: [AppID] = []) throws {
        try session.validate()
        guard session.isOpen else { throw StoreError.invalidState("a new FocusSession must be open (no ended_ts_utc_ms)") }
        try write { db in
            try Self.requireUser(db, session.userID)
            let w = EarnedWriter(db: db, userID: session.userID)
            if let active = try String.fetchOne(cached: db, sql: "SELECT active_session_id FROM focus_state WHERE user_id = ?", arguments: [w.u]) {
                throw StoreError.invalidState("user \(session.userID) already has the active focus session \(active)")
            }
            try db.execute(cached: """
                INSERT INTO focus_session(session_id, user_id, started_ts_utc_ms, timezone_id, day_id, planned_duration_minutes, strict,
                  task_label, created_ts_utc_ms, updated_ts_utc_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [session.sessionID, w.u, session.startedAt, session.timezoneID, session.dayID.rawValue,
                                 session.plannedDurationMinutes, session.strict, session.taskLabel, session.createdAt, session.updatedAt])
            for app in Set(blockedApps).sorted() {
                try db.execute(cached: "INSERT INTO focus_session_blocked_app(session_id, app_id, user_id) VALUES (?, ?, ?)",
                               arguments: [session.sessionID, app.rawValue, w.u])
            }
            try db.execute(cached: "UPDATE focus_state SET active_session_id = ?, updated_ts_utc_ms = ? WHERE user_id = ?",
                           arguments: [session.sessionID, session.startedAt, w.u])
            try w.appendEvent("\(session.sessionID)/FOCUS_STARTED",
                              .focusStarted(.init(sessionID: session.sessionID, plannedMinutes: session.plannedDurationMinutes)),
                              at: session.startedAt, timezoneID: session.timezoneID, dayID: session.dayID)
        }
    }

    /// A6.6 Focus session completion: ends the session, clears `focus_state`, adds the awarded
    /// credits (and any streak qualification and bonus) to the economy and the day summary, and
    /// logs `FOCUS_ENDED`, `CREDITS_EARNED` (if any), `STREAK_QUALIFIED` / `STREAK_BONUS_AWARDED`
    /// (if applicable), in one transaction.
    ///
    /// Decision: `day_summary.focus_minutes_completed` adds the actual minutes of every ended
    /// session, completed or ended early (the minutes were focused either way).
    public func completeFocusSession(_ request: FocusCompletion) throws {
        try Millis.check(request.endedAt, entity: "FocusCompletion", field: "endedAt")
        try write { db in
            try Self.requireUser(db, request.userID)
            let w = EarnedWriter(db: db, userID: request.userID)
            guard let row = try Row.fetchOne(cached: db, sql: "SELECT * FROM focus_session WHERE session_id = ? AND user_id = ?",
                                             arguments: [request.sessionID, w.u]) else {
                throw StoreError.notFound("FocusSession \(request.sessionID) of user", "\(request.userID)")
            }
            var session = try EarnedRows.focusSession(row)
            guard (0...10_000).contains(request.awardedCredits) else {
                throw ModelValidationError(entity: "FocusCompletion", field: "awardedCredits", rule: "between 0 and 10000", found: "\(request.awardedCredits)")
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
            try db.execute(cached: """
                UPDATE focus_session SET ended_ts_utc_ms = ?, actual_duration_minutes = ?, completed = ?, ended_early = ?, awarded_credits = ?,
                  qualifies = ?, updated_ts_utc_ms = ? WHERE session_id = ?
                """, arguments: [session.endedAt, session.actualDurationMinutes, session.completed, session.endedEarly, session.awardedCredits,
                                 session.qualifies, session.updatedAt, session.sessionID])
            try db.execute(cached: "UPDATE focus_state SET active_session_id = NULL, updated_ts_utc_ms = ? WHERE user_id = ? AND active_session_id = ?",
                           arguments: [request.endedAt, w.u, session.sessionID])
            let (at, tz, day) = (request.endedAt, session.timezoneID, session.dayID)
            try w.appendEvent("\(session.sessionID)/FOCUS_ENDED",
                              .focusEnded(.init(sessionID: session.sessionID, completed: session.completed, endedEarly: session.endedEarly,
                                                actualMinutes: request.actualMinutes)),
                              at: at, timezoneID: tz, dayID: day)
            var economy = try w.economy()
            economy.creditBalance += request.awardedCredits
            if request.qualifies && day == economy.currentDayID { economy.todayFocusQualified = true }
            if request.awardedCredits > 0 {
                try w.appendEvent("\(session.sessionID)/CREDITS_EARNED",
                                  .creditsEarned(.init(source: .focus, amount: request.awardedCredits, focusSessionID: session.sessionID)),
                                  at: at, timezoneID: tz, dayID: day)
            }
            try w.updateDaySummary(day, timezoneID: tz, at: at) { summary in
                summary.focusMinutesCompleted += request.actualMinutes
                summary.creditsEarned += request.awardedCredits
            }
            if let streak = request.streak {
                try w.applyStreak(streak, to: &economy, dayID: day, timezoneID: tz, at: at)
            }
            economy.updatedAt = max(economy.updatedAt, at)
            try w.save(economy)
        }
    }

    /// A6.7 Habit completion: inserts the completion (at most one per habit and day: a second one
    /// fails on the unique index and changes nothing); unless suspended, adds its credits to the
    /// economy, `today_habit_qualified_count` and the day summary and logs `CREDITS_EARNED`, plus
    /// the streak events when it qualifies the day; when it triggers a suspension, sets
    /// `habit_awards_suspended_until_day_id` and logs `HABIT_AWARD_SUSPENDED`. One transaction.
    ///
    /// A completion during a suspension must be `award_suspended` with no credits.
    public func recordHabitCompletion(_ record: HabitCompletionRecord) throws {
        let completion = record.completion
        try completion.validate()
        try write { db in
            try Self.requireUser(db, completion.userID)
            let w = EarnedWriter(db: db, userID: completion.userID)
            guard let habitRow = try Row.fetchOne(cached: db, sql: "SELECT * FROM habit WHERE habit_id = ? AND user_id = ?",
                                                  arguments: [completion.habitID, w.u]) else {
                throw StoreError.notFound("Habit \(completion.habitID) of user", "\(completion.userID)")
            }
            let habit = try EarnedRows.habit(habitRow)
            guard habit.active, habit.deletedAt == nil else {
                throw StoreError.invalidState("Habit \(habit.habitID) is \(habit.deletedAt == nil ? "inactive" : "deleted"); it cannot be completed")
            }
            guard completion.awardedCredits <= habit.rewardCredits else {
                throw StoreError(.constraint, "HabitCompletion.awarded_credits: at most the habit's reward_credits (\(habit.rewardCredits)), found \(completion.awardedCredits)")
            }
            if try Bool.fetchOne(cached: db, sql: "SELECT 1 FROM habit_completion WHERE habit_id = ? AND day_id = ?",
                                 arguments: [completion.habitID, completion.dayID.rawValue]) == true {
                throw StoreError(.constraint, "HabitCompletion: habit \(completion.habitID) is already completed on \(completion.dayID) (A5.4)")
            }
            var economy = try w.economy()
            if let until = economy.habitAwardsSuspendedUntilDayID, completion.dayID <= until, !completion.awardSuspended {
                throw StoreError(.constraint, "HabitCompletion.award_suspended: habit awards are suspended until \(until); the completion on \(completion.dayID) must be suspended")
            }
            try db.execute(cached: EarnedRows.insertHabitCompletionSQL, arguments: EarnedRows.habitCompletionArguments(completion))
            let (at, tz, day) = (completion.timestamp, completion.timezoneID, completion.dayID)
            if !completion.awardSuspended {
                economy.creditBalance += completion.awardedCredits
                if day == economy.currentDayID { economy.todayHabitQualifiedCount += 1 }
                try w.updateDaySummary(day, timezoneID: tz, at: at) { $0.creditsEarned += completion.awardedCredits }
                if completion.awardedCredits > 0 {
                    try w.appendEvent("\(completion.completionID)/CREDITS_EARNED",
                                      .creditsEarned(.init(source: .habit, amount: completion.awardedCredits, habitID: completion.habitID)),
                                      at: at, timezoneID: tz, dayID: day)
                }
                if let streak = record.streak {
                    try w.applyStreak(streak, to: &economy, dayID: day, timezoneID: tz, at: at)
                }
            } else if record.streak != nil {
                throw StoreError.invalidState("HabitCompletionRecord: a suspended completion cannot qualify the day for the streak")
            }
            if let until = record.suspendAwardsUntil {
                guard until >= day else {
                    throw StoreError.invalidState("HabitCompletionRecord.suspendAwardsUntil: not before the completion's day \(day), found \(until)")
                }
                economy.habitAwardsSuspendedUntilDayID = until
                try w.appendEvent("\(completion.completionID)/HABIT_AWARD_SUSPENDED",
                                  .habitAwardSuspended(.init(untilDayID: until)), at: at, timezoneID: tz, dayID: day)
            }
            economy.updatedAt = max(economy.updatedAt, at)
            try w.save(economy)
        }
    }
}

import RulesModel

/// Earned's operations and reads on the rows in memory: the store's operations
/// (``EarnedOperations``) on ``EarnedRecords``, and the store's queries answered from them.
extension UserRecords {
    /// Runs one of Earned's operations on the user's rows (after checking it is this user).
    private func earned<T>(_ userID: UserID, _ body: (EarnedOperations<EarnedRecords>) throws -> T) throws -> T {
        try requireUser(userID)
        return try body(EarnedOperations(earnedTables))
    }

    package func startEconomy(_ userID: UserID, day: DayID, timezoneID: String, rolloverCap: Int, resetHour: Int, at: EpochMillis) throws {
        try earned(userID) { try $0.startEconomy(day: day, timezoneID: timezoneID, rolloverCap: rolloverCap, resetHour: resetHour, at: at) }
    }

    package func rollOverDay(_ request: DayRollover) throws {
        try earned(request.userID) { try $0.rollOverDay(request) }
    }

    package func applyEarnedRetention(_ userID: UserID, now: EpochMillis, policy: RetentionPolicy) throws {
        try earned(userID) { try $0.applyRetention(now: now, policy: policy) }
    }

    package func startFocusSession(_ session: FocusSession, blockedApps: [AppID]) throws {
        try earned(session.userID) { try $0.startFocusSession(session, blockedApps: blockedApps) }
    }

    package func completeFocusSession(_ request: FocusCompletion) throws {
        try earned(request.userID) { try $0.completeFocusSession(request) }
    }

    package func recordHabitCompletion(_ record: HabitCompletionRecord) throws {
        try earned(record.completion.userID) { try $0.recordHabitCompletion(record) }
    }

    package func createUnlockAttempt(_ attempt: UnlockAttempt) throws {
        try earned(attempt.userID) { try $0.createUnlockAttempt(attempt) }
    }

    package func denyUnlockAttempt(
        _ userID: UserID, attemptID: String, reason: UnlockDenialReason, at: EpochMillis,
        option: UnlockOptionType?, payload: JSONValue
    ) throws {
        try earned(userID) { try $0.denyUnlockAttempt(attemptID, reason: reason, at: at, option: option, payload: payload) }
    }

    package func closeUnlockAttempt(_ userID: UserID, attemptID: String, outcome: UnlockAttemptOutcome, at: EpochMillis) throws {
        try earned(userID) { try $0.closeUnlockAttempt(attemptID, outcome: outcome, at: at) }
    }

    @discardableResult
    package func grantCreditsUnlock(_ request: CreditsUnlock) throws -> UnlockGrant {
        return try earned(request.userID) { try $0.grantCreditsUnlock(request) }
    }

    @discardableResult
    package func grantEmergencyUnlock(_ request: EmergencyUnlock) throws -> UnlockGrant {
        return try earned(request.userID) { try $0.grantEmergencyUnlock(request) }
    }

    package func startQuest(_ session: QuestSession) throws {
        try earned(session.userID) { try $0.startQuest(session) }
    }

    @discardableResult
    package func completeQuest(_ request: QuestCompletion) throws -> UnlockGrant {
        return try earned(request.userID) { try $0.completeQuest(request) }
    }

    package func endQuest(
        _ userID: UserID, questSessionID: String, state: QuestSessionState, reason: QuestFailureReason?, at: EpochMillis
    ) throws {
        try earned(userID) { try $0.endQuest(questSessionID, state: state, reason: reason, at: at) }
    }

    package func saveEarnedSettings(_ userID: UserID, _ settings: EarnedSettings, now: EpochMillis) throws {
        try earned(userID) { try $0.saveEarnedSettings(settings, now: now) }
    }

    package func saveMode(_ mode: Mode, windows: [ModeWindow], blockedApps: [AppID]) throws {
        try earned(mode.userID) { try $0.saveMode(mode, windows: windows, blockedApps: blockedApps) }
    }

    package func saveHabit(_ habit: Habit) throws {
        try earned(habit.userID) { try $0.saveHabit(habit) }
    }

    package func setDistractingApps(_ userID: UserID, _ apps: [AppID], now: EpochMillis) throws {
        try earned(userID) { try $0.setDistractingApps(apps, now: now) }
    }

    // Reads, as the store's queries answer them.

    private func reading<T>(_ userID: UserID, _ body: (EarnedRecords) throws -> T) throws -> T {
        try requireUser(userID)
        return try body(earnedTables)
    }

    package func economyState(_ userID: UserID) throws -> EconomyState { try reading(userID) { $0.economyRow } }
    package func emergencyState(_ userID: UserID) throws -> EmergencyState { try reading(userID) { $0.emergencyRow } }
    package func earnedSettings(_ userID: UserID) throws -> EarnedSettings { try reading(userID) { $0.settings.value } }

    package func dailyAppLimits(_ userID: UserID, day: DayID, appID: AppID) throws -> DailyAppLimits {
        try reading(userID) { try $0.dailyAppLimits(day, appID) } ?? DailyAppLimits(userID: userID, dayID: day, appID: appID)
    }

    package func habit(_ userID: UserID, id: String) throws -> Habit? { try reading(userID) { $0.habits[id] } }

    package func habitCompletions(_ userID: UserID, fromDay: DayID, toDay: DayID) throws -> [HabitCompletion] {
        try reading(userID) { $0.completions.filter { (fromDay...toDay).contains($0.dayID) } }.sorted(by: Self.logOrder)
    }

    package func habitCompletions(_ userID: UserID, from: EpochMillis, to: EpochMillis) throws -> [HabitCompletion] {
        try Snapshot.requirePeriod(from, to)
        return try reading(userID) { $0.completions.filter { $0.timestamp >= from && $0.timestamp < to } }.sorted(by: Self.logOrder)
    }

    private static func logOrder(_ a: HabitCompletion, _ b: HabitCompletion) -> Bool {
        (a.timestamp, a.completionID) < (b.timestamp, b.completionID)
    }

    package func mode(_ userID: UserID, id: String) throws -> Mode? { try reading(userID) { $0.modes[id]?.mode } }

    package func modes(_ userID: UserID) throws -> [Mode] {
        try reading(userID) { $0.modes.values.map(\.mode).filter { $0.deletedAt == nil } }
            .sorted { ($1.priority, $0.modeID) < ($0.priority, $1.modeID) }
    }

    package func modeWindows(_ userID: UserID, modeID: String) throws -> [ModeWindow] {
        try reading(userID) { $0.modes[modeID]?.windows ?? [] }.sorted {
            ($0.startLocal.text, $0.windowID) < ($1.startLocal.text, $1.windowID)
        }
    }

    package func blockedApps(_ userID: UserID, modeID: String) throws -> [AppID] {
        try reading(userID) { $0.modes[modeID]?.blockedApps ?? [] }
    }
    package func distractingApps(_ userID: UserID) throws -> [AppID] { try reading(userID) { $0.distractingApps?.apps ?? [] } }

    package func activeGrants(_ userID: UserID, at: EpochMillis) throws -> [UnlockGrant] {
        try reading(userID) { records in
            records.currentGrants.values.compactMap { records.grants[$0.grantID] }
                .filter { $0.startsAt <= at && $0.endsAt > at && $0.revokedAt == nil }
        }.sorted { $0.appID.rawValue < $1.appID.rawValue }
    }
}

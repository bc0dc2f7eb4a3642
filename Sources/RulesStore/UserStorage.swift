import Foundation
import RulesModel

/// What the rules engine reads and writes of a user, with the ``Store``'s operations: the store
/// itself (every operation checked against the database, in the caller's transaction), or one
/// user's ``UserRecords`` held in memory until ``BulkWriter`` writes them. The same operations make
/// the same checks and leave the same rows either way.
package protocol UserStorage: AnyObject {
    // Pressure
    func savePressureSettings(_ userID: UserID, _ settings: UserSettings, now: EpochMillis) throws
    func saveEscalationState(_ userID: UserID, _ state: EscalationState, now: EpochMillis) throws
    func addCommitment(_ commitment: Commitment) throws
    func editCommitmentText(_ userID: UserID, on day: DayID, text: String) throws
    @discardableResult
    func lockCommitment(
        _ userID: UserID, on day: DayID, at deadline: EpochMillis,
        ifMissing missing: (id: UUID, escalation: EscalationState)?
    ) throws -> Commitment
    @discardableResult
    func recordCheckIn(
        _ userID: UserID, on day: DayID, status: CommitmentStatus, at time: EpochMillis,
        escalation: EscalationState, shieldUsed: Bool
    ) throws -> Commitment
    @discardableResult
    func useRestartShield(_ userID: UserID, on day: DayID, at time: EpochMillis, escalation: EscalationState) throws -> Commitment
    func logNotification(_ entry: NotificationLogEntry) throws
    func commitment(_ userID: UserID, on day: DayID) throws -> Commitment?
    func commitmentHistory(_ userID: UserID, lastDays days: Int, endingOn end: DayID) throws -> [Commitment]

    // Habit tracker
    func saveTask(_ task: HabitTask) throws
    /// The completion as recorded (the store assigns its `id`; records leave it nil until written).
    @discardableResult
    func addCompletion(_ completion: TaskCompletion) throws -> TaskCompletion
    func task(_ userID: UserID, id: UUID) throws -> HabitTask?
    func completions(_ userID: UserID, taskID: UUID?, from: EpochMillis, to: EpochMillis) throws -> [TaskCompletion]
    /// Deletes the latest completion of the task in `[from, to)` and returns it (nil: none, nothing deleted).
    @discardableResult
    func deleteLatestCompletion(_ userID: UserID, taskID: UUID, from: EpochMillis, to: EpochMillis) throws -> TaskCompletion?
    /// Records a skip or a freeze on one of the task's days.
    func addDayMark(_ mark: DayMark) throws
    /// The marks on days `fromDay…toDay`, by day, then in the order they were recorded.
    func dayMarks(_ userID: UserID, taskID: UUID?, fromDay: DayID, toDay: DayID) throws -> [DayMark]

    // MIGA
    func recordUsageEvent(_ event: UsageEvent) throws
    func usageEvents(_ userID: UserID, from: EpochMillis, to: EpochMillis, type: UsageEventType?) throws -> [UsageEvent]
    func migaSettings(_ userID: UserID) throws -> MigaSettings

    // Earned: the operations (A6) and what the engine reads
    func startEconomy(_ userID: UserID, day: DayID, timezoneID: String, rolloverCap: Int, resetHour: Int, at: EpochMillis) throws
    func rollOverDay(_ request: DayRollover) throws
    func startFocusSession(_ session: FocusSession, blockedApps: [AppID]) throws
    func completeFocusSession(_ request: FocusCompletion) throws
    func recordHabitCompletion(_ record: HabitCompletionRecord) throws
    func createUnlockAttempt(_ attempt: UnlockAttempt) throws
    func denyUnlockAttempt(
        _ userID: UserID, attemptID: String, reason: UnlockDenialReason, at: EpochMillis,
        option: UnlockOptionType?, payload: JSONValue) throws
    func closeUnlockAttempt(_ userID: UserID, attemptID: String, outcome: UnlockAttemptOutcome, at: EpochMillis) throws
    @discardableResult
    func grantCreditsUnlock(_ request: CreditsUnlock) throws -> UnlockGrant
    @discardableResult
    func grantEmergencyUnlock(_ request: EmergencyUnlock) throws -> UnlockGrant
    func startQuest(_ session: QuestSession) throws
    @discardableResult
    func completeQuest(_ request: QuestCompletion) throws -> UnlockGrant
    func endQuest(_ userID: UserID, questSessionID: String, state: QuestSessionState, reason: QuestFailureReason?, at: EpochMillis) throws
    func saveEarnedSettings(_ userID: UserID, _ settings: EarnedSettings, now: EpochMillis) throws
    func saveMode(_ mode: Mode, windows: [ModeWindow], blockedApps: [AppID]) throws
    func saveHabit(_ habit: Habit) throws
    func setDistractingApps(_ userID: UserID, _ apps: [AppID], now: EpochMillis) throws
    func economyState(_ userID: UserID) throws -> EconomyState
    func emergencyState(_ userID: UserID) throws -> EmergencyState
    func earnedSettings(_ userID: UserID) throws -> EarnedSettings
    func dailyAppLimits(_ userID: UserID, day: DayID, appID: AppID) throws -> DailyAppLimits
    func habit(_ userID: UserID, id: String) throws -> Habit?
    func habitCompletions(_ userID: UserID, fromDay: DayID, toDay: DayID) throws -> [HabitCompletion]
    func habitCompletions(_ userID: UserID, from: EpochMillis, to: EpochMillis) throws -> [HabitCompletion]
    func mode(_ userID: UserID, id: String) throws -> Mode?
    /// The modes that are not deleted, by priority (highest first).
    func modes(_ userID: UserID) throws -> [Mode]
    func modeWindows(_ userID: UserID, modeID: String) throws -> [ModeWindow]
    func blockedApps(_ userID: UserID, modeID: String) throws -> [AppID]
    func distractingApps(_ userID: UserID) throws -> [AppID]
    /// Current grants that cover the instant `at`, by app.
    func activeGrants(_ userID: UserID, at: EpochMillis) throws -> [UnlockGrant]

    // Experiments
    /// Records an exposure; a second one to the same arm of the same experiment is refused.
    func addExposure(_ exposure: ExperimentExposure) throws
    /// The exposure to `arm` of `experiment`, nil when there is none.
    func exposure(_ userID: UserID, experiment: String, arm: String) throws -> ExperimentExposure?
    /// The exposures, in the order they happened (at the same instant, by experiment and arm).
    func exposures(_ userID: UserID) throws -> [ExperimentExposure]

    // The engine's bookkeeping
    func saveEngineState(_ row: EngineStateRow) throws
    /// A8's cleanup of one user's Earned rows as of `now`: what `policy` no longer keeps of
    /// `event_log`, `unlock_attempt`, `unlock_grant`, `quest_session`, `unlock_grant_extension` and
    /// `daily_app_limits` is deleted (see ``RetentionPolicy`` for what is kept past its period).
    func applyEarnedRetention(_ userID: UserID, now: EpochMillis, policy: RetentionPolicy) throws
}

/// The store's reads for ``UserStorage``: a snapshot each (inside a transaction, its own state).
extension Store: UserStorage {
    package func commitment(_ userID: UserID, on day: DayID) throws -> Commitment? {
        try read { try $0.commitment(userID, on: day) }
    }

    package func commitmentHistory(_ userID: UserID, lastDays days: Int, endingOn end: DayID) throws -> [Commitment] {
        try read { try $0.commitmentHistory(userID, lastDays: days, endingOn: end) }
    }

    package func task(_ userID: UserID, id: UUID) throws -> HabitTask? {
        try read { try $0.task(userID, id: id) }
    }

    package func completions(_ userID: UserID, taskID: UUID?, from: EpochMillis, to: EpochMillis) throws -> [TaskCompletion] {
        try read { try $0.completions(userID, taskID: taskID, from: from, to: to) }
    }

    package func usageEvents(_ userID: UserID, from: EpochMillis, to: EpochMillis, type: UsageEventType?) throws -> [UsageEvent] {
        try read { try $0.usageEvents(userID, from: from, to: to, type: type) }
    }

    package func migaSettings(_ userID: UserID) throws -> MigaSettings {
        try read { try $0.migaSettings(userID) }
    }

    package func economyState(_ userID: UserID) throws -> EconomyState { try read { try $0.economyState(userID) } }
    package func emergencyState(_ userID: UserID) throws -> EmergencyState { try read { try $0.emergencyState(userID) } }
    package func earnedSettings(_ userID: UserID) throws -> EarnedSettings { try read { try $0.earnedSettings(userID) } }

    package func dailyAppLimits(_ userID: UserID, day: DayID, appID: AppID) throws -> DailyAppLimits {
        try read { try $0.dailyAppLimits(userID, day: day, appID: appID) }
    }

    package func habit(_ userID: UserID, id: String) throws -> Habit? { try read { try $0.habit(userID, id: id) } }

    package func habitCompletions(_ userID: UserID, fromDay: DayID, toDay: DayID) throws -> [HabitCompletion] {
        try read { try $0.habitCompletions(userID, fromDay: fromDay, toDay: toDay) }
    }

    package func habitCompletions(_ userID: UserID, from: EpochMillis, to: EpochMillis) throws -> [HabitCompletion] {
        try read { try $0.habitCompletions(userID, from: from, to: to) }
    }

    package func mode(_ userID: UserID, id: String) throws -> Mode? { try read { try $0.mode(userID, id: id) } }
    package func modes(_ userID: UserID) throws -> [Mode] { try read { try $0.modes(userID) } }

    package func modeWindows(_ userID: UserID, modeID: String) throws -> [ModeWindow] {
        try read { try $0.modeWindows(userID, modeID: modeID) }
    }

    package func blockedApps(_ userID: UserID, modeID: String) throws -> [AppID] { try read { try $0.blockedApps(userID, modeID: modeID) } }
    package func distractingApps(_ userID: UserID) throws -> [AppID] { try read { try $0.distractingApps(userID) } }
    package func activeGrants(_ userID: UserID, at: EpochMillis) throws -> [UnlockGrant] { try read { try $0.activeGrants(userID, at: at) } }
}

/// The store's default arguments.
extension UserStorage {
    @discardableResult
    package func lockCommitment(_ userID: UserID, on day: DayID, at deadline: EpochMillis) throws -> Commitment {
        try lockCommitment(userID, on: day, at: deadline, ifMissing: nil)
    }

    @discardableResult
    package func recordCheckIn(
        _ userID: UserID, on day: DayID, status: CommitmentStatus, at time: EpochMillis,
        escalation: EscalationState
    ) throws -> Commitment {
        try recordCheckIn(userID, on: day, status: status, at: time, escalation: escalation, shieldUsed: false)
    }

    package func usageEvents(_ userID: UserID, from: EpochMillis, to: EpochMillis) throws -> [UsageEvent] {
        try usageEvents(userID, from: from, to: to, type: nil)
    }

    package func endQuest(_ userID: UserID, questSessionID: String, state: QuestSessionState, at: EpochMillis) throws {
        try endQuest(userID, questSessionID: questSessionID, state: state, reason: nil, at: at)
    }
}

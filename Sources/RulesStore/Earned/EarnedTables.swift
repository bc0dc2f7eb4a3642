import RulesModel

/// One user's rows of Earned's tables, as Earned's operations (``EarnedOperations``) read and
/// write them: in the database (``DatabaseEarnedTables``, inside the caller's transaction) or held
/// in memory (``EarnedRecords``, a simulated user's rows until ``BulkWriter`` writes them).
///
/// These are row accesses only: every check and every derived value belongs to the operations,
/// written once for both. A write receives a row already validated; reads of an id that belongs
/// to another user return nil (or that user's id for the `owner` reads).
protocol EarnedTables {
    var userID: UserID { get }
    func requireUser() throws

    // Singletons
    func economy() throws -> EconomyState
    func setEconomy(_ economy: EconomyState) throws
    func emergency() throws -> EmergencyState
    func setEmergency(_ emergency: EmergencyState) throws
    func setEarnedSettings(_ settings: EarnedSettings, at: EpochMillis) throws
    func setEntitlement(_ state: EntitlementState) throws
    func activeFocusSessionID() throws -> String?
    func setActiveFocusSession(_ id: String, at: EpochMillis) throws
    /// Clears the active session when it is `id`.
    func clearActiveFocusSession(_ id: String, at: EpochMillis) throws

    // Days
    func daySummary(_ day: DayID) throws -> DaySummary?
    func saveDaySummary(_ summary: DaySummary) throws

    // The unlock gate
    func attempt(_ id: String) throws -> UnlockAttempt?
    func insertAttempt(_ attempt: UnlockAttempt) throws
    func updateAttempt(_ attempt: UnlockAttempt) throws
    /// The app's current grant (A5.2), whether or not it is still running.
    func currentGrant(_ app: AppID) throws -> UnlockGrant?
    /// Inserts a grant and makes it the app's current one as of `at`.
    func insertCurrentGrant(_ grant: UnlockGrant, at: EpochMillis) throws
    /// Writes the grant's new end, its extension, and touches the app's current-grant row at `at`.
    func extendGrant(_ grant: UnlockGrant, _ extension: UnlockGrantExtension, at: EpochMillis) throws
    func dailyAppLimits(_ day: DayID, _ app: AppID) throws -> DailyAppLimits?
    func saveDailyAppLimits(_ limits: DailyAppLimits) throws
    func quest(_ id: String) throws -> QuestSession?
    func insertQuest(_ session: QuestSession) throws
    func updateQuestState(_ session: QuestSession) throws

    // Habits, focus, modes
    func owner(ofHabit id: String) throws -> UserID?
    func habit(_ id: String) throws -> Habit?
    /// Inserts or updates a habit (an update keeps the first `createdAt`).
    func saveHabit(_ habit: Habit) throws
    func habitCompleted(_ habitID: String, on day: DayID) throws -> Bool
    func insertHabitCompletion(_ completion: HabitCompletion) throws
    func focusSession(_ id: String) throws -> FocusSession?
    func insertFocusSession(_ session: FocusSession, blockedApps: [AppID]) throws
    func updateFocusSession(_ session: FocusSession) throws
    func owner(ofMode id: String) throws -> UserID?
    /// Inserts or updates a mode (an update keeps the first `createdAt`) and replaces its windows
    /// and blocked apps (sorted, distinct).
    func saveMode(_ mode: Mode, windows: [ModeWindow], blockedApps: [AppID]) throws
    /// Replaces the "Distracting Apps" (sorted, distinct).
    func setDistractingApps(_ apps: [AppID], at: EpochMillis) throws

    // The event log
    /// Appends a row; an id already logged throws ``StoreError/Code-swift.struct/constraint``.
    func appendEvent(_ entry: EventLogEntry) throws

    // Retention (A8)
    /// Deletes the rows `policy` no longer keeps as of `now`, as ``Store/deleteEarned(_:user:now:policy:)`` does.
    func prune(now: EpochMillis, policy: RetentionPolicy) throws
}

extension StoreError {
    /// An event id logged twice: the operation that logs it has already been applied.
    static func alreadyLogged(_ id: String) -> StoreError {
        StoreError(.constraint, "event \(id) was already logged: the operation has already been applied")
    }
}

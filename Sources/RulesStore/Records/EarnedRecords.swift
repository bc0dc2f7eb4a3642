import RulesModel

/// One user's Earned rows held in memory (part of its ``UserRecords``): the singletons as the user
/// was created with them (``NewUser``), then what Earned's operations (``EarnedOperations``) wrote,
/// until ``BulkWriter`` writes them. Reads see the writes; ``savepoint()`` and ``rollback()`` undo
/// what happened since, as a failed transaction does in the store. Not thread-safe.
final class EarnedRecords: EarnedTables {
    let userID: UserID
    private(set) var economyRow: EconomyState
    private(set) var emergencyRow: EmergencyState
    private(set) var settings: (value: EarnedSettings, updatedAt: EpochMillis)
    private(set) var entitlement: EntitlementState
    private(set) var focusState: (activeSessionID: String?, updatedAt: EpochMillis)
    private(set) var summaries: [DayID: DaySummary] = [:]
    private(set) var attempts: [String: UnlockAttempt] = [:]
    private(set) var grants: [String: UnlockGrant] = [:]
    private(set) var currentGrants: [AppID: (grantID: String, updatedAt: EpochMillis)] = [:]
    private(set) var extensions: [UnlockGrantExtension] = []
    private(set) var limits: [DayKey: DailyAppLimits] = [:]
    private(set) var quests: [String: QuestSession] = [:]
    private(set) var habits: [String: Habit] = [:]
    private(set) var completions: [HabitCompletion] = []
    private var completedHabitDays: Set<DayKey> = []
    private(set) var focusSessions: [String: FocusSession] = [:]
    private(set) var focusBlockedApps: [(sessionID: String, app: AppID)] = []
    private(set) var modes: [String: ModeRows] = [:]
    private(set) var distractingApps: (apps: [AppID], at: EpochMillis)?
    private(set) var events: [EventLogEntry] = []
    private var eventIDs: Set<String> = []
    /// The JSON columns, once encoded (``encodeJSON()``).
    var encoded: EncodedJSON?
    /// What undoes each change since the savepoint, oldest first.
    private var undo: [() -> Void] = []

    /// A day and a second key (an app's id, or a habit's).
    struct DayKey: Hashable {
        var day: DayID
        var key: String
    }

    /// A mode with its windows and blocked apps (and the instant those were written).
    struct ModeRows {
        var mode: Mode
        var windows: [ModeWindow]
        var blockedApps: [AppID]
    }

    init(_ user: NewUser) {
        userID = user.userID
        economyRow = EconomyState(userID: user.userID, currentDayID: user.day, updatedAt: user.now)
        emergencyRow = EmergencyState(userID: user.userID, updatedAt: user.now)
        settings = (user.earned, user.now)
        entitlement = EntitlementState(userID: user.userID, updatedAt: user.now)
        focusState = (nil, user.now)
    }

    func savepoint() { undo.removeAll(keepingCapacity: true) }

    func rollback() {
        for change in undo.reversed() { change() }
        undo.removeAll(keepingCapacity: true)
    }

    /// Changes a value, remembering how to undo it.
    private func change<Value>(_ path: ReferenceWritableKeyPath<EarnedRecords, Value>, to value: Value) {
        let old = self[keyPath: path]
        undo.append { [unowned self] in self[keyPath: path] = old }
        self[keyPath: path] = value
    }

    /// Sets one entry of a dictionary, remembering how to undo it.
    private func set<Key: Hashable, Value>(_ path: ReferenceWritableKeyPath<EarnedRecords, [Key: Value]>, _ key: Key, _ value: Value) {
        let old = self[keyPath: path][key]
        undo.append { [unowned self] in self[keyPath: path][key] = old }
        self[keyPath: path][key] = value
    }

    /// Appends to an array, remembering how to undo it.
    private func append<Element>(_ path: ReferenceWritableKeyPath<EarnedRecords, [Element]>, _ element: Element) {
        undo.append { [unowned self] in self[keyPath: path].removeLast() }
        self[keyPath: path].append(element)
    }

    private func requireNew<Key: Hashable, Value>(_ table: String, _ map: [Key: Value], _ key: Key) throws {
        if map[key] != nil { throw StoreError(.constraint, "UNIQUE constraint failed: \(table) \(key) already exists") }
    }

    // MARK: EarnedTables

    func requireUser() throws {}

    func economy() throws -> EconomyState { economyRow }
    func setEconomy(_ economy: EconomyState) throws { change(\.economyRow, to: economy) }
    func emergency() throws -> EmergencyState { emergencyRow }
    func setEmergency(_ emergency: EmergencyState) throws { change(\.emergencyRow, to: emergency) }
    func setEarnedSettings(_ settings: EarnedSettings, at: EpochMillis) throws { change(\.settings, to: (settings, at)) }
    func setEntitlement(_ state: EntitlementState) throws { change(\.entitlement, to: state) }
    func activeFocusSessionID() throws -> String? { focusState.activeSessionID }
    func setActiveFocusSession(_ id: String, at: EpochMillis) throws { change(\.focusState, to: (id, at)) }

    func clearActiveFocusSession(_ id: String, at: EpochMillis) throws {
        if focusState.activeSessionID == id { change(\.focusState, to: (nil, at)) }
    }

    func daySummary(_ day: DayID) throws -> DaySummary? { summaries[day] }
    func saveDaySummary(_ summary: DaySummary) throws { set(\.summaries, summary.dayID, summary) }

    func attempt(_ id: String) throws -> UnlockAttempt? { attempts[id] }

    func insertAttempt(_ attempt: UnlockAttempt) throws {
        try requireNew("unlock_attempt", attempts, attempt.attemptID)
        set(\.attempts, attempt.attemptID, attempt)
    }

    func updateAttempt(_ attempt: UnlockAttempt) throws {
        guard var stored = attempts[attempt.attemptID] else { return }
        stored.chosenOptionType = attempt.chosenOptionType
        stored.chosenOptionPayload = attempt.chosenOptionPayload
        stored.outcome = attempt.outcome
        stored.denialReason = attempt.denialReason
        stored.grantID = attempt.grantID
        stored.updatedAt = attempt.updatedAt
        set(\.attempts, attempt.attemptID, stored)
    }

    func currentGrant(_ app: AppID) throws -> UnlockGrant? { currentGrants[app].flatMap { grants[$0.grantID] } }

    func insertCurrentGrant(_ grant: UnlockGrant, at: EpochMillis) throws {
        try requireNew("unlock_grant", grants, grant.grantID)
        set(\.grants, grant.grantID, grant)
        set(\.currentGrants, grant.appID, (grant.grantID, at))
    }

    func extendGrant(_ grant: UnlockGrant, _ ext: UnlockGrantExtension, at: EpochMillis) throws {
        guard var stored = grants[grant.grantID] else { return }
        if extensions.contains(where: { $0.extensionID == ext.extensionID }) {
            throw StoreError(.constraint, "UNIQUE constraint failed: unlock_grant_extension \(ext.extensionID) already exists")
        }
        stored.endsAt = grant.endsAt
        set(\.grants, grant.grantID, stored)
        append(\.extensions, ext)
        if let current = currentGrants[grant.appID] { set(\.currentGrants, grant.appID, (current.grantID, at)) }
    }

    func dailyAppLimits(_ day: DayID, _ app: AppID) throws -> DailyAppLimits? { limits[DayKey(day: day, key: app.rawValue)] }
    func saveDailyAppLimits(_ l: DailyAppLimits) throws { set(\.limits, DayKey(day: l.dayID, key: l.appID.rawValue), l) }

    func quest(_ id: String) throws -> QuestSession? { quests[id] }

    func insertQuest(_ session: QuestSession) throws {
        try requireNew("quest_session", quests, session.questSessionID)
        set(\.quests, session.questSessionID, session)
    }

    func updateQuestState(_ session: QuestSession) throws {
        guard var stored = quests[session.questSessionID] else { return }
        stored.state = session.state
        stored.updatedAt = session.updatedAt
        set(\.quests, session.questSessionID, stored)
    }

    func owner(ofHabit id: String) throws -> UserID? { habits[id] == nil ? nil : userID }
    func habit(_ id: String) throws -> Habit? { habits[id] }

    func saveHabit(_ habit: Habit) throws {
        var saved = habit
        if let stored = habits[habit.habitID] { saved.createdAt = stored.createdAt }
        set(\.habits, habit.habitID, saved)
    }

    func habitCompleted(_ habitID: String, on day: DayID) throws -> Bool { completedHabitDays.contains(DayKey(day: day, key: habitID)) }

    func insertHabitCompletion(_ completion: HabitCompletion) throws {
        let key = DayKey(day: completion.dayID, key: completion.habitID)
        guard !completedHabitDays.contains(key) else {
            throw StoreError(.constraint, "UNIQUE constraint failed: habit_completion.habit_id, habit_completion.day_id")
        }
        append(\.completions, completion)
        completedHabitDays.insert(key)
        undo.append { [unowned self] in completedHabitDays.remove(key) }
    }

    func focusSession(_ id: String) throws -> FocusSession? { focusSessions[id] }

    func insertFocusSession(_ session: FocusSession, blockedApps: [AppID]) throws {
        try requireNew("focus_session", focusSessions, session.sessionID)
        set(\.focusSessions, session.sessionID, session)
        for app in blockedApps { append(\.focusBlockedApps, (session.sessionID, app)) }
    }

    func updateFocusSession(_ s: FocusSession) throws {
        guard var stored = focusSessions[s.sessionID] else { return }
        stored.endedAt = s.endedAt
        stored.actualDurationMinutes = s.actualDurationMinutes
        stored.completed = s.completed
        stored.endedEarly = s.endedEarly
        stored.awardedCredits = s.awardedCredits
        stored.qualifies = s.qualifies
        stored.updatedAt = s.updatedAt
        set(\.focusSessions, s.sessionID, stored)
    }

    func owner(ofMode id: String) throws -> UserID? { modes[id] == nil ? nil : userID }

    func saveMode(_ mode: Mode, windows: [ModeWindow], blockedApps: [AppID]) throws {
        var saved = mode
        if let stored = modes[mode.modeID] { saved.createdAt = stored.mode.createdAt }
        set(\.modes, mode.modeID, ModeRows(mode: saved, windows: windows, blockedApps: blockedApps))
    }

    func setDistractingApps(_ apps: [AppID], at: EpochMillis) throws { change(\.distractingApps, to: (apps, at)) }

    func appendEvent(_ entry: EventLogEntry) throws {
        guard !eventIDs.contains(entry.eventID) else { throw StoreError.alreadyLogged(entry.eventID) }
        append(\.events, entry)
        eventIDs.insert(entry.eventID)
        undo.append { [unowned self] in eventIDs.remove(entry.eventID) }
    }

    /// The statements of `Store.deleteEarned` on the rows in memory, in the same order and with
    /// the same foreign-key cascades, so that the bulk write stores what the store keeps.
    func prune(now: EpochMillis, policy: RetentionPolicy) throws {
        let eventCutoff = policy.eventCutoff(now), cutoff = policy.unlockCutoff(now)
        if events.contains(where: { $0.timestamp < eventCutoff }) {
            let (kept, gone) = (events.filter { $0.timestamp >= eventCutoff }, events.filter { $0.timestamp < eventCutoff })
            change(\.events, to: kept)
            change(\.eventIDs, to: eventIDs.subtracting(gone.map(\.eventID)))
        }
        if extensions.contains(where: { $0.timestamp < cutoff }) { change(\.extensions, to: extensions.filter { $0.timestamp >= cutoff }) }
        for (id, quest) in quests where quest.createdAt < cutoff && quest.state != .active { remove(\.quests, id) }
        // Only attempts older than the cutoff can go: none (most cleanups of a run), nothing to decide.
        guard attempts.values.contains(where: { $0.timestamp < cutoff }) else { return pruneLimits(now: now, policy: policy) }
        // Decided on the attempts as they were before any of them goes, as the one DELETE does.
        let activeQuests = Set(quests.values.filter { $0.state == .active }.map(\.attemptID))
        let referenced = Set(attempts.values.filter { $0.timestamp >= cutoff }.compactMap(\.grantID))
        let keptBySource = Set(
            grants.values.filter { ($0.endsAt > now && $0.revokedAt == nil) || referenced.contains($0.grantID) }.map(\.sourceAttemptID))
        let gone = Set(
            attempts.values.filter { $0.timestamp < cutoff && !activeQuests.contains($0.attemptID) && !keptBySource.contains($0.attemptID) }
                .map(\.attemptID))
        if gone.isEmpty { return pruneLimits(now: now, policy: policy) }
        for id in gone { remove(\.attempts, id) }
        // The cascades: the attempts' grants, and theirs (current-grant rows, extensions); their quests.
        let goneGrants = Set(grants.values.filter { gone.contains($0.sourceAttemptID) }.map(\.grantID))
        for id in goneGrants { remove(\.grants, id) }
        for (app, current) in currentGrants where goneGrants.contains(current.grantID) { remove(\.currentGrants, app) }
        if extensions.contains(where: { goneGrants.contains($0.grantID) }) {
            change(\.extensions, to: extensions.filter { !goneGrants.contains($0.grantID) })
        }
        for (id, quest) in quests where gone.contains(quest.attemptID) { remove(\.quests, id) }
        pruneLimits(now: now, policy: policy)
    }

    private func pruneLimits(now: EpochMillis, policy: RetentionPolicy) {
        let limitsCutoff = policy.limitsCutoff(now)
        for key in limits.keys where key.day < limitsCutoff { remove(\.limits, key) }
    }

    /// Removes one entry of a dictionary, remembering how to undo it.
    private func remove<Key: Hashable, Value>(_ path: ReferenceWritableKeyPath<EarnedRecords, [Key: Value]>, _ key: Key) {
        guard let old = self[keyPath: path].removeValue(forKey: key) else { return }
        undo.append { [unowned self] in self[keyPath: path][key] = old }
    }
}

import GRDB
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
    /// The events' ids, by a 64-bit fingerprint of each: how many of the events have it (hashing a
    /// fingerprint instead of a 36-character id was 2 % of an in-memory simulation; an id whose
    /// fingerprint is already there is compared with the events' ids, so a repeated id is still
    /// refused as the table's UNIQUE constraint refuses it).
    private var eventIDs: [Int: Int] = [:]
    /// The JSON columns, once encoded (``encodeJSON()``).
    var encoded: EncodedJSON?
    /// What undoes each change since the savepoint, oldest first.
    private var undo: [Undo] = []
    /// Where each row write is recorded as the write ``DatabaseEarnedTables`` makes of it, if
    /// anywhere (``UserRecords/journal(into:)``): Earned's operations, written once over
    /// ``EarnedTables``, make the same writes on either, so the writer runs the writes alone,
    /// without the operations' reads (a refused event's are dropped by the journal's owner).
    var journal: StoreJournal?

    /// One change to undo: a replaced value (the old one, nil when there was none) or an appended
    /// row (removed again). Values, not closures: an undo closure was one allocation per change,
    /// freed at the next event's savepoint.
    private enum Undo {
        case economy(EconomyState)
        case emergency(EmergencyState)
        case settings(EarnedSettings, EpochMillis)
        case entitlement(EntitlementState)
        case focusState(String?, EpochMillis)
        case summary(DayID, DaySummary?)
        case attempt(String, UnlockAttempt?)
        case grant(String, UnlockGrant?)
        case currentGrant(AppID, (grantID: String, updatedAt: EpochMillis)?)
        case extensionAppended
        case extensions([UnlockGrantExtension])
        case limits(DayKey, DailyAppLimits?)
        case quest(String, QuestSession?)
        case habit(String, Habit?)
        case completionAppended(DayKey)
        case focusBlockedApps(count: Int)
        case focusSession(String, FocusSession?)
        case mode(String, ModeRows?)
        case distractingApps((apps: [AppID], at: EpochMillis)?)
        case eventAppended(String)
        case events([EventLogEntry], [Int: Int])
    }

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

    /// Records, with a ``journal``, the write `body` makes on the user's rows in the database.
    /// `row`: when the write sets that row whole (``StoreJournal/Row``).
    private func record(_ row: StoreJournal.Row? = nil, _ body: @escaping @Sendable (DatabaseEarnedTables) throws -> Void) {
        let user = userID
        journal?.addWrite(user: user, row: row) { db in try body(DatabaseEarnedTables(db: db, userID: user)) }
    }

    func rollback() {
        for change in undo.reversed() {
            switch change {
            case .economy(let old): economyRow = old
            case .emergency(let old): emergencyRow = old
            case .settings(let old, let at): settings = (old, at)
            case .entitlement(let old): entitlement = old
            case .focusState(let old, let at): focusState = (old, at)
            case .summary(let day, let old): summaries[day] = old
            case .attempt(let id, let old): attempts[id] = old
            case .grant(let id, let old): grants[id] = old
            case .currentGrant(let app, let old): currentGrants[app] = old
            case .extensionAppended: extensions.removeLast()
            case .extensions(let old): extensions = old
            case .limits(let key, let old): limits[key] = old
            case .quest(let id, let old): quests[id] = old
            case .habit(let id, let old): habits[id] = old
            case .completionAppended(let key):
                completions.removeLast()
                completedHabitDays.remove(key)
            case .focusBlockedApps(let count): focusBlockedApps.removeSubrange(count...)
            case .focusSession(let id, let old): focusSessions[id] = old
            case .mode(let id, let old): modes[id] = old
            case .distractingApps(let old): distractingApps = old
            case .eventAppended(let id):
                events.removeLast()
                Self.forget(id, in: &eventIDs)
            case .events(let old, let ids): (events, eventIDs) = (old, ids)
            }
        }
        undo.removeAll(keepingCapacity: true)
    }

    private func requireNew<Key: Hashable, Value>(_ table: String, _ map: [Key: Value], _ key: Key) throws {
        if map[key] != nil { throw StoreError(.constraint, "UNIQUE constraint failed: \(table) \(key) already exists") }
    }

    // MARK: EarnedTables

    func requireUser() throws {}

    func economy() throws -> EconomyState { economyRow }
    func setEconomy(_ economy: EconomyState) throws {
        record(.init(.economy)) { try $0.setEconomy(economy) }
        undo.append(.economy(economyRow))
        economyRow = economy
    }

    func emergency() throws -> EmergencyState { emergencyRow }
    func setEmergency(_ emergency: EmergencyState) throws {
        record(.init(.emergency)) { try $0.setEmergency(emergency) }
        undo.append(.emergency(emergencyRow))
        emergencyRow = emergency
    }

    func setEarnedSettings(_ settings: EarnedSettings, at: EpochMillis) throws {
        record(.init(.earnedSettings)) { try $0.setEarnedSettings(settings, at: at) }
        undo.append(.settings(self.settings.value, self.settings.updatedAt))
        self.settings = (settings, at)
    }

    func setEntitlement(_ state: EntitlementState) throws {
        record(.init(.entitlement)) { try $0.setEntitlement(state) }
        undo.append(.entitlement(entitlement))
        entitlement = state
    }

    func activeFocusSessionID() throws -> String? { focusState.activeSessionID }
    func setActiveFocusSession(_ id: String, at: EpochMillis) throws {
        record { try $0.setActiveFocusSession(id, at: at) }
        undo.append(.focusState(focusState.activeSessionID, focusState.updatedAt))
        focusState = (id, at)
    }

    func clearActiveFocusSession(_ id: String, at: EpochMillis) throws {
        record { try $0.clearActiveFocusSession(id, at: at) }
        guard focusState.activeSessionID == id else { return }
        undo.append(.focusState(focusState.activeSessionID, focusState.updatedAt))
        focusState = (nil, at)
    }

    func daySummary(_ day: DayID) throws -> DaySummary? { summaries[day] }
    func saveDaySummary(_ summary: DaySummary) throws {
        // The write that creates the row is kept where it is (``StoreJournal/Row``).
        let day = summary.dayID
        record(summaries[day] == nil ? nil : .init(.daySummary, key: "\(day.rawValue)")) { try $0.saveDaySummary(summary) }
        let old = summaries.updateValue(summary, forKey: day)
        undo.append(.summary(day, old))
    }

    func attempt(_ id: String) throws -> UnlockAttempt? { attempts[id] }

    func insertAttempt(_ attempt: UnlockAttempt) throws {
        record { try $0.insertAttempt(attempt) }
        try requireNew("unlock_attempt", attempts, attempt.attemptID)
        setAttempt(attempt)
    }

    func updateAttempt(_ attempt: UnlockAttempt) throws {
        record(.init(.attempt, key: attempt.attemptID)) { try $0.updateAttempt(attempt) }
        let id = attempt.attemptID
        guard
            let old = Self.update(
                &attempts, id,
                { stored in
                    stored.chosenOptionType = attempt.chosenOptionType
                    stored.chosenOptionPayload = attempt.chosenOptionPayload
                    stored.outcome = attempt.outcome
                    stored.denialReason = attempt.denialReason
                    stored.grantID = attempt.grantID
                    stored.updatedAt = attempt.updatedAt
                })
        else { return }
        undo.append(.attempt(id, old))
    }

    /// Changes the value stored under `key` in place, in one lookup of its (string) key; returns
    /// the value before, or nil (and changes nothing) when there is none.
    private static func update<Key: Hashable, Value>(_ map: inout [Key: Value], _ key: Key, _ change: (inout Value) -> Void) -> Value? {
        guard let index = map.index(forKey: key) else { return nil }
        let old = map.values[index]
        change(&map.values[index])
        return old
    }

    private func setAttempt(_ attempt: UnlockAttempt) {
        let id = attempt.attemptID, old = attempts.updateValue(attempt, forKey: id)
        undo.append(.attempt(id, old))
    }

    private func setGrant(_ grant: UnlockGrant) {
        let id = grant.grantID, old = grants.updateValue(grant, forKey: id)
        undo.append(.grant(id, old))
    }

    private func setCurrentGrant(_ app: AppID, _ grantID: String, at: EpochMillis) {
        let old = currentGrants.updateValue((grantID, at), forKey: app)
        undo.append(.currentGrant(app, old))
    }

    func currentGrant(_ app: AppID) throws -> UnlockGrant? { currentGrants[app].flatMap { grants[$0.grantID] } }

    func insertCurrentGrant(_ grant: UnlockGrant, at: EpochMillis) throws {
        record { try $0.insertCurrentGrant(grant, at: at) }
        try requireNew("unlock_grant", grants, grant.grantID)
        setGrant(grant)
        setCurrentGrant(grant.appID, grant.grantID, at: at)
    }

    func extendGrant(_ grant: UnlockGrant, _ ext: UnlockGrantExtension, at: EpochMillis) throws {
        record { try $0.extendGrant(grant, ext, at: at) }
        guard var stored = grants[grant.grantID] else { return }
        if extensions.contains(where: { $0.extensionID == ext.extensionID }) {
            throw StoreError(.constraint, "UNIQUE constraint failed: unlock_grant_extension \(ext.extensionID) already exists")
        }
        stored.endsAt = grant.endsAt
        setGrant(stored)
        extensions.append(ext)
        undo.append(.extensionAppended)
        if let current = currentGrants[grant.appID] { setCurrentGrant(grant.appID, current.grantID, at: at) }
    }

    func dailyAppLimits(_ day: DayID, _ app: AppID) throws -> DailyAppLimits? { limits[DayKey(day: day, key: app.rawValue)] }
    func saveDailyAppLimits(_ l: DailyAppLimits) throws {
        let key = DayKey(day: l.dayID, key: l.appID.rawValue)
        record(limits[key] == nil ? nil : .init(.dailyAppLimits, key: "\(l.dayID.rawValue) \(l.appID.rawValue)")) {
            try $0.saveDailyAppLimits(l)
        }
        let old = limits.updateValue(l, forKey: key)
        undo.append(.limits(key, old))
    }

    func quest(_ id: String) throws -> QuestSession? { quests[id] }

    func insertQuest(_ session: QuestSession) throws {
        record { try $0.insertQuest(session) }
        try requireNew("quest_session", quests, session.questSessionID)
        setQuest(session)
    }

    func updateQuestState(_ session: QuestSession) throws {
        record(.init(.quest, key: session.questSessionID)) { try $0.updateQuestState(session) }
        let id = session.questSessionID
        guard
            let old = Self.update(
                &quests, id,
                { stored in
                    stored.state = session.state
                    stored.updatedAt = session.updatedAt
                })
        else { return }
        undo.append(.quest(id, old))
    }

    private func setQuest(_ session: QuestSession) {
        let id = session.questSessionID, old = quests.updateValue(session, forKey: id)
        undo.append(.quest(id, old))
    }

    func owner(ofHabit id: String) throws -> UserID? { habits[id] == nil ? nil : userID }
    func habit(_ id: String) throws -> Habit? { habits[id] }

    func saveHabit(_ habit: Habit) throws {
        record { try $0.saveHabit(habit) }
        var saved = habit
        if let stored = habits[habit.habitID] { saved.createdAt = stored.createdAt }
        let id = habit.habitID, old = habits.updateValue(saved, forKey: id)
        undo.append(.habit(id, old))
    }

    func habitCompleted(_ habitID: String, on day: DayID) throws -> Bool { completedHabitDays.contains(DayKey(day: day, key: habitID)) }

    func insertHabitCompletion(_ completion: HabitCompletion) throws {
        record { try $0.insertHabitCompletion(completion) }
        let key = DayKey(day: completion.dayID, key: completion.habitID)
        guard !completedHabitDays.contains(key) else {
            throw StoreError(.constraint, "UNIQUE constraint failed: habit_completion.habit_id, habit_completion.day_id")
        }
        completions.append(completion)
        completedHabitDays.insert(key)
        undo.append(.completionAppended(key))
    }

    func focusSession(_ id: String) throws -> FocusSession? { focusSessions[id] }

    func insertFocusSession(_ session: FocusSession, blockedApps: [AppID]) throws {
        record { try $0.insertFocusSession(session, blockedApps: blockedApps) }
        try requireNew("focus_session", focusSessions, session.sessionID)
        setFocusSession(session)
        let blocked = focusBlockedApps.count
        focusBlockedApps += blockedApps.map { (session.sessionID, $0) }
        undo.append(.focusBlockedApps(count: blocked))
    }

    func updateFocusSession(_ s: FocusSession) throws {
        record { try $0.updateFocusSession(s) }
        let id = s.sessionID
        guard
            let old = Self.update(
                &focusSessions, id,
                { stored in
                    stored.endedAt = s.endedAt
                    stored.actualDurationMinutes = s.actualDurationMinutes
                    stored.completed = s.completed
                    stored.endedEarly = s.endedEarly
                    stored.awardedCredits = s.awardedCredits
                    stored.qualifies = s.qualifies
                    stored.updatedAt = s.updatedAt
                })
        else { return }
        undo.append(.focusSession(id, old))
    }

    private func setFocusSession(_ session: FocusSession) {
        let id = session.sessionID, old = focusSessions.updateValue(session, forKey: id)
        undo.append(.focusSession(id, old))
    }

    func owner(ofMode id: String) throws -> UserID? { modes[id] == nil ? nil : userID }

    func saveMode(_ mode: Mode, windows: [ModeWindow], blockedApps: [AppID]) throws {
        record { try $0.saveMode(mode, windows: windows, blockedApps: blockedApps) }
        var saved = mode
        if let stored = modes[mode.modeID] { saved.createdAt = stored.mode.createdAt }
        let id = mode.modeID, old = modes.updateValue(ModeRows(mode: saved, windows: windows, blockedApps: blockedApps), forKey: id)
        undo.append(.mode(id, old))
    }

    func setDistractingApps(_ apps: [AppID], at: EpochMillis) throws {
        record { try $0.setDistractingApps(apps, at: at) }
        undo.append(.distractingApps(distractingApps))
        distractingApps = (apps, at)
    }

    func appendEvent(_ entry: EventLogEntry) throws {
        if journal != nil {
            // Encoded here, on the worker, rather than by the writer.
            let json = try entry.payload.json()
            record { try $0.appendEvent(entry, payloadJSON: json) }
        }
        let id = entry.eventID
        let key = Self.fingerprint(id)
        let count = eventIDs[key, default: 0]
        if count > 0, events.contains(where: { $0.eventID == id }) { throw StoreError.alreadyLogged(id) }
        eventIDs[key] = count + 1
        events.append(entry)
        undo.append(.eventAppended(id))
    }

    /// FNV-1a of the id's bytes.
    private static func fingerprint(_ id: String) -> Int {
        func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return Int(bitPattern: UInt(h))
        }
        return id.utf8.withContiguousStorageIfAvailable(hash) ?? Array(id.utf8).withUnsafeBufferPointer(hash)
    }

    private static func forget(_ id: String, in counts: inout [Int: Int]) {
        let key = fingerprint(id)
        if let count = counts[key], count > 1 { counts[key] = count - 1 } else { counts[key] = nil }
    }

    private static func fingerprints(of events: [EventLogEntry]) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for event in events { counts[fingerprint(event.eventID), default: 0] += 1 }
        return counts
    }

    /// The statements of `Store.deleteEarned` on the rows in memory, in the same order and with
    /// the same foreign-key cascades, so that the bulk write stores what the store keeps.
    func prune(now: EpochMillis, policy: RetentionPolicy) throws {
        record { try $0.prune(now: now, policy: policy) }
        let eventCutoff = policy.eventCutoff(now), cutoff = policy.unlockCutoff(now)
        if events.contains(where: { $0.timestamp < eventCutoff }) {
            let kept = events.filter { $0.timestamp >= eventCutoff }
            undo.append(.events(events, eventIDs))
            (events, eventIDs) = (kept, Self.fingerprints(of: kept))
        }
        if extensions.contains(where: { $0.timestamp < cutoff }) { replaceExtensions(extensions.filter { $0.timestamp >= cutoff }) }
        for (id, quest) in quests where quest.createdAt < cutoff && quest.state != .active {
            undo.append(.quest(id, quests.removeValue(forKey: id)))
        }
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
        for id in gone { undo.append(.attempt(id, attempts.removeValue(forKey: id))) }
        // The cascades: the attempts' grants, and theirs (current-grant rows, extensions); their quests.
        let goneGrants = Set(grants.values.filter { gone.contains($0.sourceAttemptID) }.map(\.grantID))
        for id in goneGrants { undo.append(.grant(id, grants.removeValue(forKey: id))) }
        for (app, current) in currentGrants where goneGrants.contains(current.grantID) {
            undo.append(.currentGrant(app, currentGrants.removeValue(forKey: app)))
        }
        if extensions.contains(where: { goneGrants.contains($0.grantID) }) {
            replaceExtensions(extensions.filter { !goneGrants.contains($0.grantID) })
        }
        for (id, quest) in quests where gone.contains(quest.attemptID) { undo.append(.quest(id, quests.removeValue(forKey: id))) }
        pruneLimits(now: now, policy: policy)
    }

    private func pruneLimits(now: EpochMillis, policy: RetentionPolicy) {
        let limitsCutoff = policy.limitsCutoff(now)
        for key in limits.keys where key.day < limitsCutoff { undo.append(.limits(key, limits.removeValue(forKey: key))) }
    }

    private func replaceExtensions(_ kept: [UnlockGrantExtension]) {
        undo.append(.extensions(extensions))
        extensions = kept
    }
}

import Foundation
import GRDB
import RulesModel

/// The store's operations on the rows in memory: the same checks (shared with the store where
/// they go beyond the model's own validation), the same resulting rows. With a journal, the
/// frequent operations record the rows they write (the store's own writes: `Store.insert`, …),
/// once their checks passed on the rows in memory; the others record the store's operation.
extension UserRecords: UserStorage {
    // Pressure

    package func savePressureSettings(_ userID: UserID, _ settings: UserSettings, now: EpochMillis) throws {
        try PressureChanges.checkSettings(settings, now: now)
        try requireUser(userID)
        journal?.addWrite(user: userID, row: .init(.pressureSettings)) { db in
            try db.execute(
                cached: PressureRows.updateSettingsSQL, arguments: PressureRows.settingsArguments(settings, user: userID, now: now))
        }
        setSettings(settings, at: now)
    }

    package func saveEscalationState(_ userID: UserID, _ state: EscalationState, now: EpochMillis) throws {
        try PressureChanges.checkEscalation(state, now: now)
        try requireUser(userID)
        journal?.addWrite(user: userID, row: .init(.escalation)) { db in
            try db.execute(
                cached: PressureRows.updateEscalationSQL, arguments: PressureRows.escalationArguments(state, user: userID, now: now))
        }
        setEscalation(state, at: now)
    }

    package func addCommitment(_ commitment: Commitment) throws {
        try commitment.validate()
        try requireUser(commitment.userID)
        if commitments[commitment.day] != nil { throw PressureChanges.alreadyCommitted(commitment) }
        journal?.addWrite(user: userID) { try Store.insert(commitment, $0) }
        setCommitment(commitment)
    }

    package func editCommitmentText(_ userID: UserID, on day: DayID, text: String) throws {
        journal?.add(user: userID) { try $0.editCommitmentText(userID, on: day, text: text) }
        setCommitment(try PressureChanges.edited(try requireCommitment(userID, day), text: text))
    }

    @discardableResult
    package func lockCommitment(
        _ userID: UserID, on day: DayID, at deadline: EpochMillis,
        ifMissing missing: (id: UUID, escalation: EscalationState)? = nil
    ) throws -> Commitment {
        try Millis.check(deadline, entity: "Commitment", field: "locked_at")
        try requireUser(userID)
        let lock = try PressureChanges.lock(commitments[day], userID, day, deadline: deadline, missing: missing) {
            escalation.value.currentTier
        }
        journal?.addWrite(user: userID) { try Store.write(lock, userID, at: deadline, $0) }
        switch lock {
        case .unchanged: break
        case .locked(let commitment): setCommitment(commitment)
        case .created(let record, let state):
            setCommitment(record)
            setEscalation(state, at: deadline)
        }
        return lock.commitment
    }

    @discardableResult
    package func recordCheckIn(
        _ userID: UserID, on day: DayID, status: CommitmentStatus, at time: EpochMillis,
        escalation state: EscalationState, shieldUsed: Bool = false
    ) throws -> Commitment {
        try PressureChanges.checkCheckIn(status: status, at: time, escalation: state)
        let updated = try PressureChanges.checkedIn(
            try requireCommitment(userID, day), status: status, at: time,
            before: escalation.value, after: state, shieldUsed: shieldUsed)
        journal?.addWrite(user: userID) { try Store.writeCheckIn(updated, escalation: state, at: time, $0) }
        setCommitment(updated)
        setEscalation(state, at: time)
        return updated
    }

    @discardableResult
    package func useRestartShield(
        _ userID: UserID, on day: DayID, at time: EpochMillis, escalation state: EscalationState
    ) throws -> Commitment {
        journal?.add(user: userID) { try $0.useRestartShield(userID, on: day, at: time, escalation: state) }
        try PressureChanges.checkEscalation(state, now: time)
        let shielded = try PressureChanges.shielded(try requireCommitment(userID, day), before: escalation.value, after: state)
        setCommitment(shielded)
        setEscalation(state, at: time)
        return shielded
    }

    package func logNotification(_ entry: NotificationLogEntry) throws {
        try entry.validate()
        try requireUser(entry.userID)
        journal?.addWrite(user: userID) { try Store.insert(entry, $0) }
        append(entry)
    }

    package func commitment(_ userID: UserID, on day: DayID) throws -> Commitment? {
        userID == self.userID ? commitments[day] : nil
    }

    package func commitmentHistory(_ userID: UserID, lastDays days: Int, endingOn end: DayID) throws -> [Commitment] {
        let (from, to) = try Snapshot.lastDays(days, endingOn: end)
        guard userID == self.userID else { return [] }
        return commitments.values.filter { $0.day >= from && $0.day <= to }.sorted { $0.day < $1.day }
    }

    private func requireCommitment(_ userID: UserID, _ day: DayID) throws -> Commitment {
        try requireUser(userID)
        guard let commitment = commitments[day] else { throw PressureChanges.noCommitment(userID, day) }
        return commitment
    }

    // Habit tracker

    package func saveTask(_ task: HabitTask) throws {
        journal?.add(user: userID) { try $0.saveTask(task) }
        try task.validate()
        try requireUser(task.userID)
        if let categoryID = task.categoryID, !user.categories.contains(where: { $0.id == categoryID }) {
            throw StoreError.notFound("Category \(categoryID.uuidString) of user", "\(task.userID)")
        }
        upsert(task)
    }

    @discardableResult
    package func addCompletion(_ completion: TaskCompletion) throws -> TaskCompletion {
        try completion.validate()
        guard completion.id == nil else { throw StoreError.invalidState("TaskCompletion.id is assigned by the store; pass nil") }
        guard completion.userID == userID, let task = storedTask(completion.taskID) else {
            throw StoreError.notFound("HabitTask \(completion.taskID.uuidString) of user", "\(completion.userID)")
        }
        try completion.validate(against: task)
        journal?.addWrite(user: userID) { db in
            try Store.insert(completion, taskKey: try Store.taskKey(db, completion.userID, completion.taskID), db)
        }
        append(completion)
        return completion
    }

    package func task(_ userID: UserID, id: UUID) throws -> HabitTask? {
        userID == self.userID ? storedTask(id) : nil
    }

    /// Oldest first, in the order they were recorded at the same instant (the store's `completion_id` order).
    package func completions(_ userID: UserID, taskID: UUID?, from: EpochMillis, to: EpochMillis) throws -> [TaskCompletion] {
        try Snapshot.requirePeriod(from, to)
        guard userID == self.userID else { return [] }
        return completions.enumerated()
            .filter { (taskID == nil || $0.element.taskID == taskID) && $0.element.completedAt >= from && $0.element.completedAt < to }
            .sorted { ($0.element.completedAt, $0.offset) < ($1.element.completedAt, $1.offset) }
            .map(\.element)
    }

    package func deleteLatestCompletion(_ userID: UserID, taskID: UUID, from: EpochMillis, to: EpochMillis) throws -> TaskCompletion? {
        journal?.add(user: userID) { try $0.deleteLatestCompletion(userID, taskID: taskID, from: from, to: to) }
        try Snapshot.requirePeriod(from, to)
        guard userID == self.userID, storedTask(taskID) != nil else {
            throw StoreError.notFound("HabitTask \(taskID.uuidString) of user", "\(userID)")
        }
        // The latest instant, and of those the last recorded (the store's highest completion_id).
        var latest: Int?
        for (index, c) in completions.enumerated() where c.taskID == taskID && c.completedAt >= from && c.completedAt < to {
            if latest == nil || c.completedAt >= completions[latest!].completedAt { latest = index }
        }
        return latest.map(removeCompletion(at:))
    }

    package func addDayMark(_ mark: DayMark) throws {
        journal?.add(user: userID) { try $0.addDayMark(mark) }
        try mark.validate()
        guard mark.userID == userID, storedTask(mark.taskID) != nil else {
            throw StoreError.notFound("HabitTask \(mark.taskID.uuidString) of user", "\(mark.userID)")
        }
        if mark.kind.isOncePerDay, dayMarks.contains(where: { $0.taskID == mark.taskID && $0.day == mark.day && $0.kind == mark.kind }) {
            throw StoreError.duplicateDayMark(mark)
        }
        append(mark)
    }

    package func dayMarks(_ userID: UserID, taskID: UUID?, fromDay: DayID, toDay: DayID) throws -> [DayMark] {
        guard userID == self.userID else { return [] }
        return dayMarks.enumerated()
            .filter { (taskID == nil || $0.element.taskID == taskID) && $0.element.day >= fromDay && $0.element.day <= toDay }
            .sorted { ($0.element.day, $0.offset) < ($1.element.day, $1.offset) }
            .map(\.element)
    }

    // MIGA

    package func recordUsageEvent(_ event: UsageEvent) throws {
        try event.validate()
        try requireUser(event.userID)
        journal?.addWrite(user: userID) { try Store.insert(event, $0) }
        append(event)
    }

    /// Oldest first; at the same instant in the order of their ids' bytes (the store's order).
    package func usageEvents(_ userID: UserID, from: EpochMillis, to: EpochMillis, type: UsageEventType?) throws -> [UsageEvent] {
        try Snapshot.requirePeriod(from, to)
        guard userID == self.userID else { return [] }
        return usageEvents.filter { (type == nil || $0.eventType == type) && $0.timestamp >= from && $0.timestamp < to }
            .sorted { $0.timestamp != $1.timestamp ? $0.timestamp < $1.timestamp : $0.id.precedes($1.id) }
    }

    /// MIGA's settings as created (no operation of ``UserStorage`` changes them).
    package func migaSettings(_ userID: UserID) throws -> MigaSettings {
        guard userID == self.userID else { throw StoreError.notFound("MIGA settings of user", "\(userID)") }
        return MigaSettings.defaults
    }

    // Experiments

    package func addExposure(_ exposure: ExperimentExposure) throws {
        journal?.add(user: userID) { try $0.addExposure(exposure) }
        try exposure.validate()
        try requireUser(exposure.userID)
        if try self.exposure(userID, experiment: exposure.experiment, arm: exposure.arm) != nil {
            throw StoreError.duplicateExposure(exposure)
        }
        append(exposure)
    }

    package func exposure(_ userID: UserID, experiment: String, arm: String) throws -> ExperimentExposure? {
        guard userID == self.userID else { return nil }
        return exposures.first { $0.experiment == experiment && $0.arm == arm }
    }

    /// In the store's order: by instant, then experiment and arm (ASCII names: SQLite's order of their bytes).
    package func exposures(_ userID: UserID) throws -> [ExperimentExposure] {
        guard userID == self.userID else { return [] }
        return exposures.sorted { a, b in (a.exposedAt, a.experiment, a.arm) < (b.exposedAt, b.experiment, b.arm) }
    }

    // The engine's bookkeeping

    package func saveEngineState(_ row: EngineStateRow) throws {
        try EngineStateRow.check(row)
        try requireUser(row.userID)
        // The write that creates the row is kept where it is (``StoreJournal/Row``).
        journal?.addWrite(user: userID, row: engineState == nil ? nil : .init(.engineState)) { try Store.upsert(row, $0) }
        setEngineState(row)
    }
}

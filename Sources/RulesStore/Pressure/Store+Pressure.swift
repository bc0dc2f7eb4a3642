import Foundation
import GRDB
import RulesModel

extension Store {
    /// Replaces Pressure's settings of a user (validated first).
    package func savePressureSettings(_ userID: UserID, _ settings: UserSettings, now: EpochMillis) throws {
        try PressureChanges.checkSettings(settings, now: now)
        try write { db in
            try Self.requireUser(db, userID)
            try db.execute(
                cached: PressureRows.updateSettingsSQL, arguments: PressureRows.settingsArguments(settings, user: userID, now: now))
        }
    }

    /// Replaces Pressure's escalation state of a user (validated first).
    package func saveEscalationState(_ userID: UserID, _ state: EscalationState, now: EpochMillis) throws {
        try PressureChanges.checkEscalation(state, now: now)
        try write { db in
            try Self.requireUser(db, userID)
            try db.execute(
                cached: PressureRows.updateEscalationSQL, arguments: PressureRows.escalationArguments(state, user: userID, now: now))
        }
    }

    /// Records a new commitment (at most one per user and day).
    package func addCommitment(_ commitment: Commitment) throws {
        try commitment.validate()
        try write { db in
            try Self.requireUser(db, commitment.userID)
            if try Snapshot(db).commitment(commitment.userID, on: commitment.day) != nil {
                throw PressureChanges.alreadyCommitted(commitment)
            }
            try Self.insert(commitment, db)
        }
    }

    /// The row of a new commitment (``addCommitment(_:)``).
    static func insert(_ commitment: Commitment, _ db: Database) throws {
        try db.execute(cached: PressureRows.insertCommitmentSQL, arguments: PressureRows.commitmentArguments(commitment))
    }

    /// Changes the text of a day's commitment before it is locked.
    package func editCommitmentText(_ userID: UserID, on day: DayID, text: String) throws {
        try write { db in
            let commitment = try PressureChanges.edited(try Self.requireCommitment(db, userID, day), text: text)
            try db.execute(
                cached: "UPDATE pressure_commitment SET text = ? WHERE commitment_id = ?", arguments: [text, commitment.id.blob])
        }
    }

    /// Locks a day's commitment at the deadline (`locked_at`); a day with no commitment gets the
    /// seed's no-commitment record (empty text, MISSED, locked at the deadline) together with
    /// the escalation state the rules computed for that miss.
    ///
    /// - Returns: the commitment as stored.
    @discardableResult
    package func lockCommitment(
        _ userID: UserID, on day: DayID, at deadline: EpochMillis,
        ifMissing missing: (id: UUID, escalation: EscalationState)? = nil
    ) throws -> Commitment {
        try Millis.check(deadline, entity: "Commitment", field: "locked_at")
        return try write { db in
            try Self.requireUser(db, userID)
            let lock = try PressureChanges.lock(
                try Snapshot(db).commitment(userID, on: day), userID, day, deadline: deadline, missing: missing
            ) {
                try Snapshot(db).escalationState(userID).currentTier
            }
            try Self.write(lock, userID, at: deadline, db)
            return lock.commitment
        }
    }

    /// The rows a lock writes (``lockCommitment(_:on:at:ifMissing:)``).
    static func write(_ lock: PressureChanges.Lock, _ userID: UserID, at deadline: EpochMillis, _ db: Database) throws {
        switch lock {
        case .unchanged: break
        case .locked(let commitment):
            try db.execute(
                cached: "UPDATE pressure_commitment SET locked_at_ts_utc_ms = ? WHERE commitment_id = ?",
                arguments: [deadline, commitment.id.blob])
        case .created(let record, let escalation):
            try db.execute(cached: PressureRows.insertCommitmentSQL, arguments: PressureRows.commitmentArguments(record))
            try db.execute(
                cached: PressureRows.updateEscalationSQL,
                arguments: PressureRows.escalationArguments(escalation, user: userID, now: deadline))
        }
    }

    /// Records a day's outcome (YES, NO or MISSED) and the escalation state the rules computed
    /// from it, in one transaction. The status change is one-way: a final status is refused.
    ///
    /// - Parameters:
    ///   - escalation: the new escalation state (the tier before the outcome is snapshotted on the commitment).
    ///   - shieldUsed: a Restart Shield applied at once to a NO or MISSED day (see ``useRestartShield(_:on:at:escalation:)``).
    @discardableResult
    package func recordCheckIn(
        _ userID: UserID, on day: DayID, status: CommitmentStatus, at time: EpochMillis,
        escalation: EscalationState, shieldUsed: Bool = false
    ) throws -> Commitment {
        try PressureChanges.checkCheckIn(status: status, at: time, escalation: escalation)
        return try write { db in
            let current = try Self.requireCommitment(db, userID, day)
            let updated = try PressureChanges.checkedIn(
                current, status: status, at: time, before: try Snapshot(db).escalationState(userID),
                after: escalation, shieldUsed: shieldUsed)
            try Self.writeCheckIn(updated, escalation: escalation, at: time, db)
            return updated
        }
    }

    /// The rows a check-in writes (``recordCheckIn(_:on:status:at:escalation:shieldUsed:)``): the
    /// commitment as checked in, and the escalation state.
    static func writeCheckIn(_ updated: Commitment, escalation: EscalationState, at time: EpochMillis, _ db: Database) throws {
        try db.execute(
            cached: """
                UPDATE pressure_commitment SET status = ?, checked_in_at_ts_utc_ms = ?, locked_at_ts_utc_ms = ?,
                  escalation_tier_snap = ?, shield_used = ? WHERE commitment_id = ?
                """,
            arguments: [
                updated.status.rawValue, updated.checkedInAt, updated.lockedAt, updated.escalationTierSnapshot?.rawValue,
                updated.shieldUsed, updated.id.blob,
            ])
        try db.execute(
            cached: PressureRows.updateEscalationSQL,
            arguments: PressureRows.escalationArguments(escalation, user: updated.userID, now: time))
    }

    /// Applies a Restart Shield to a NO or MISSED day after the fact, with the escalation state
    /// the rules computed (pressure-escalation-engine.md: the streak resets, the tier does not
    /// advance, one shield is spent). When the shield may be used (within an hour of the NO, paid
    /// users only) is the rules' decision; the store enforces what is hard: the day is NO or
    /// MISSED, no shield was used on it yet, and exactly one shield is spent.
    @discardableResult
    package func useRestartShield(_ userID: UserID, on day: DayID, at time: EpochMillis, escalation: EscalationState) throws -> Commitment {
        try PressureChanges.checkEscalation(escalation, now: time)
        return try write { db in
            let commitment = try PressureChanges.shielded(
                try Self.requireCommitment(db, userID, day),
                before: try Snapshot(db).escalationState(userID), after: escalation)
            try db.execute(
                cached: "UPDATE pressure_commitment SET shield_used = 1 WHERE commitment_id = ?", arguments: [commitment.id.blob])
            try db.execute(
                cached: PressureRows.updateEscalationSQL, arguments: PressureRows.escalationArguments(escalation, user: userID, now: time))
            return commitment
        }
    }

    /// Appends an entry to the notification log.
    package func logNotification(_ entry: NotificationLogEntry) throws {
        try entry.validate()
        try write { db in
            try Self.requireUser(db, entry.userID)
            try Self.insert(entry, db)
        }
    }

    /// The row of a notification logged (``logNotification(_:)``).
    static func insert(_ entry: NotificationLogEntry, _ db: Database) throws {
        try db.execute(cached: PressureRows.insertNotificationSQL, arguments: PressureRows.notificationArguments(entry))
    }

    /// Marks a logged notification delivered and/or tapped (flags only ever go from false to true).
    package func markNotification(_ id: UUID, delivered: Bool, tapped: Bool) throws {
        try write { db in
            guard
                let row = try Row.fetchOne(
                    cached: db, sql: "SELECT * FROM pressure_notification WHERE notification_id = ?", arguments: [id.blob])
            else {
                throw StoreError.notFound("NotificationLogEntry", id.uuidString)
            }
            var entry = try PressureRows.notification(row)
            entry.delivered = entry.delivered || delivered || tapped
            entry.tapped = entry.tapped || tapped
            try entry.validate()
            try db.execute(
                cached: "UPDATE pressure_notification SET delivered = ?, tapped = ? WHERE notification_id = ?",
                arguments: [entry.delivered, entry.tapped, id.blob])
        }
    }

    static func requireCommitment(_ db: Database, _ userID: UserID, _ day: DayID) throws -> Commitment {
        try requireUser(db, userID)
        guard let commitment = try Snapshot(db).commitment(userID, on: day) else {
            throw PressureChanges.noCommitment(userID, day)
        }
        return commitment
    }
}

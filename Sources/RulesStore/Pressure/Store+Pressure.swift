import Foundation
import GRDB
import RulesModel

extension Store {
    /// Replaces Pressure's settings of a user (validated first).
    public func savePressureSettings(_ userID: UserID, _ settings: UserSettings, now: EpochMillis) throws {
        try Millis.check(now, entity: "UserSettings", field: "updated_ts_utc_ms")
        try settings.validate()
        try write { db in
            try Self.requireUser(db, userID)
            try db.execute(cached: """
                UPDATE pressure_settings SET personality_mode = ?, commitment_deadline = ?, checkin_window_close = ?,
                  timezone_identifier = ?, notifications_enabled = ?, onboarding_completed = ?, subscription_tier = ?,
                  subscription_expiry_ts_utc_ms = ?, updated_ts_utc_ms = ? WHERE user_id = ?
                """, arguments: [settings.personalityMode.rawValue, settings.commitmentDeadline.text, settings.checkinWindowClose.text,
                                 settings.timezoneIdentifier, settings.notificationsEnabled, settings.onboardingCompleted,
                                 settings.subscriptionTier.rawValue, settings.subscriptionExpiry, now, userID.rawValue])
        }
    }

    /// Replaces Pressure's escalation state of a user (validated first).
    public func saveEscalationState(_ userID: UserID, _ state: EscalationState, now: EpochMillis) throws {
        try Millis.check(now, entity: "EscalationState", field: "updated_ts_utc_ms")
        try state.validate()
        try write { db in
            try Self.requireUser(db, userID)
            try db.execute(cached: PressureRows.updateEscalationSQL, arguments: PressureRows.escalationArguments(state, user: userID, now: now))
        }
    }

    /// Records a new commitment (at most one per user and day).
    public func addCommitment(_ commitment: Commitment) throws {
        try commitment.validate()
        try write { db in
            try Self.requireUser(db, commitment.userID)
            if try Snapshot(db).commitment(commitment.userID, on: commitment.day) != nil {
                throw StoreError(.constraint, "Commitment: user \(commitment.userID) already has a commitment on \(commitment.day)")
            }
            try db.execute(cached: PressureRows.insertCommitmentSQL, arguments: PressureRows.commitmentArguments(commitment))
        }
    }

    /// Changes the text of a day's commitment before it is locked.
    public func editCommitmentText(_ userID: UserID, on day: DayID, text: String) throws {
        try write { db in
            var commitment = try Self.requireCommitment(db, userID, day)
            guard commitment.lockedAt == nil else {
                throw StoreError.invalidState("Commitment of user \(userID) on \(day) is locked since \(commitment.lockedAt!); its text cannot change")
            }
            commitment.text = text
            try commitment.validate()
            try db.execute(cached: "UPDATE pressure_commitment SET text = ? WHERE commitment_id = ?", arguments: [text, commitment.id.blob])
        }
    }

    /// Locks a day's commitment at the deadline (`locked_at`); a day with no commitment gets the
    /// seed's no-commitment record (empty text, MISSED, locked at the deadline) together with
    /// the escalation state the rules computed for that miss.
    ///
    /// - Returns: the commitment as stored.
    @discardableResult
    public func lockCommitment(_ userID: UserID, on day: DayID, at deadline: EpochMillis,
                               ifMissing missing: (id: UUID, escalation: EscalationState)? = nil) throws -> Commitment {
        try Millis.check(deadline, entity: "Commitment", field: "locked_at")
        return try write { db in
            try Self.requireUser(db, userID)
            if var commitment = try Snapshot(db).commitment(userID, on: day) {
                guard commitment.lockedAt == nil else { return commitment }
                commitment.lockedAt = deadline
                try commitment.validate()
                try db.execute(cached: "UPDATE pressure_commitment SET locked_at_ts_utc_ms = ? WHERE commitment_id = ?",
                               arguments: [deadline, commitment.id.blob])
                return commitment
            }
            guard let missing else {
                throw StoreError.notFound("Commitment of user \(userID) on", day.rawValue)
            }
            try missing.escalation.validate()
            let tier = try Snapshot(db).escalationState(userID).currentTier
            let record = Commitment.noCommitment(id: missing.id, userID: userID, day: day, deadline: deadline, tier: tier)
            try record.validate()
            try db.execute(cached: PressureRows.insertCommitmentSQL, arguments: PressureRows.commitmentArguments(record))
            try db.execute(cached: PressureRows.updateEscalationSQL, arguments: PressureRows.escalationArguments(missing.escalation, user: userID, now: deadline))
            return record
        }
    }

    /// Records a day's outcome (YES, NO or MISSED) and the escalation state the rules computed
    /// from it, in one transaction. The status change is one-way: a final status is refused.
    ///
    /// - Parameters:
    ///   - escalation: the new escalation state (the tier before the outcome is snapshotted on the commitment).
    ///   - shieldUsed: a Restart Shield applied at once to a NO or MISSED day (see ``useRestartShield(_:on:at:escalation:)``).
    @discardableResult
    public func recordCheckIn(_ userID: UserID, on day: DayID, status: CommitmentStatus, at time: EpochMillis,
                              escalation: EscalationState, shieldUsed: Bool = false) throws -> Commitment {
        try Millis.check(time, entity: "Commitment", field: "checked_in_at")
        try escalation.validate()
        guard status.isFinal else { throw StoreError.invalidState("a check-in records YES, NO or MISSED, not PENDING") }
        return try write { db in
            let current = try Self.requireCommitment(db, userID, day)
            let before = try Snapshot(db).escalationState(userID)
            var updated = try current.transitioned(to: status, at: time, tier: before.currentTier)
            if shieldUsed { try Self.checkShield(updated, before: before, after: escalation) }
            updated.shieldUsed = shieldUsed
            try db.execute(cached: """
                UPDATE pressure_commitment SET status = ?, checked_in_at_ts_utc_ms = ?, locked_at_ts_utc_ms = ?,
                  escalation_tier_snap = ?, shield_used = ? WHERE commitment_id = ?
                """, arguments: [updated.status.rawValue, updated.checkedInAt, updated.lockedAt, updated.escalationTierSnapshot?.rawValue,
                                 updated.shieldUsed, updated.id.blob])
            try db.execute(cached: PressureRows.updateEscalationSQL, arguments: PressureRows.escalationArguments(escalation, user: userID, now: time))
            return updated
        }
    }

    /// Applies a Restart Shield to a NO or MISSED day after the fact, with the escalation state
    /// the rules computed (pressure-escalation-engine.md: the streak resets, the tier does not
    /// advance, one shield is spent). When the shield may be used (within an hour of the NO, paid
    /// users only) is the rules' decision; the store enforces what is hard: the day is NO or
    /// MISSED, no shield was used on it yet, and exactly one shield is spent.
    @discardableResult
    public func useRestartShield(_ userID: UserID, on day: DayID, at time: EpochMillis, escalation: EscalationState) throws -> Commitment {
        try Millis.check(time, entity: "EscalationState", field: "updated_ts_utc_ms")
        try escalation.validate()
        return try write { db in
            var commitment = try Self.requireCommitment(db, userID, day)
            let before = try Snapshot(db).escalationState(userID)
            try Self.checkShield(commitment, before: before, after: escalation)
            commitment.shieldUsed = true
            try db.execute(cached: "UPDATE pressure_commitment SET shield_used = 1 WHERE commitment_id = ?", arguments: [commitment.id.blob])
            try db.execute(cached: PressureRows.updateEscalationSQL, arguments: PressureRows.escalationArguments(escalation, user: userID, now: time))
            return commitment
        }
    }

    static func checkShield(_ commitment: Commitment, before: EscalationState, after: EscalationState) throws {
        guard commitment.status == .no || commitment.status == .missed else {
            throw StoreError.invalidState("a Restart Shield applies to a NO or MISSED day, not \(commitment.status.rawValue) (\(commitment.day))")
        }
        guard !commitment.shieldUsed else { throw StoreError.invalidState("a Restart Shield was already used on \(commitment.day)") }
        guard before.restartShieldsRemaining >= 1, after.restartShieldsRemaining == before.restartShieldsRemaining - 1 else {
            throw StoreError(.constraint, "EscalationState.restart_shields_remaining: a shield spends exactly one of \(before.restartShieldsRemaining) remaining, found \(after.restartShieldsRemaining) after")
        }
    }

    /// Appends an entry to the notification log.
    public func logNotification(_ entry: NotificationLogEntry) throws {
        try entry.validate()
        try write { db in
            try Self.requireUser(db, entry.userID)
            try db.execute(cached: PressureRows.insertNotificationSQL, arguments: PressureRows.notificationArguments(entry))
        }
    }

    /// Marks a logged notification delivered and/or tapped (flags only ever go from false to true).
    public func markNotification(_ id: UUID, delivered: Bool, tapped: Bool) throws {
        try write { db in
            guard let row = try Row.fetchOne(cached: db, sql: "SELECT * FROM pressure_notification WHERE notification_id = ?", arguments: [id.blob]) else {
                throw StoreError.notFound("NotificationLogEntry", id.uuidString)
            }
            var entry = try PressureRows.notification(row)
            entry.delivered = entry.delivered || delivered || tapped
            entry.tapped = entry.tapped || tapped
            try entry.validate()
            try db.execute(cached: "UPDATE pressure_notification SET delivered = ?, tapped = ? WHERE notification_id = ?",
                           arguments: [entry.delivered, entry.tapped, id.blob])
        }
    }

    static func requireCommitment(_ db: Database, _ userID: UserID, _ day: DayID) throws -> Commitment {
        try requireUser(db, userID)
        guard let commitment = try Snapshot(db).commitment(userID, on: day) else {
            throw StoreError.notFound("Commitment of user \(userID) on", day.rawValue)
        }
        return commitment
    }
}

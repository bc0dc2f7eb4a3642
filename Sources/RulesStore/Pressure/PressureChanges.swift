import Foundation
import RulesModel

/// The checks and row changes of Pressure's operations, shared by the ``Store`` (on the rows it
/// reads from the database) and ``UserRecords`` (on the rows it holds in memory).
enum PressureChanges {
    static func checkSettings(_ settings: UserSettings, now: EpochMillis) throws {
        try Millis.check(now, entity: "UserSettings", field: "updated_ts_utc_ms")
        try settings.validate()
    }

    static func checkEscalation(_ state: EscalationState, now: EpochMillis) throws {
        try Millis.check(now, entity: "EscalationState", field: "updated_ts_utc_ms")
        try state.validate()
    }

    static func alreadyCommitted(_ commitment: Commitment) -> StoreError {
        StoreError(.constraint, "Commitment: user \(commitment.userID) already has a commitment on \(commitment.day)")
    }

    static func noCommitment(_ userID: UserID, _ day: DayID) -> StoreError {
        StoreError.notFound("Commitment of user \(userID) on", day.rawValue)
    }

    /// `editCommitmentText`: the commitment with its new text, while it is not locked.
    static func edited(_ commitment: Commitment, text: String) throws -> Commitment {
        guard commitment.lockedAt == nil else {
            throw StoreError.invalidState(
                "Commitment of user \(commitment.userID) on \(commitment.day) is locked since \(commitment.lockedAt!); its text cannot change"
            )
        }
        var edited = commitment
        edited.text = text
        try edited.validate()
        return edited
    }

    /// What `lockCommitment` does to a day.
    enum Lock {
        /// Already locked: nothing changes.
        case unchanged(Commitment)
        /// The day's commitment, now locked at the deadline.
        case locked(Commitment)
        /// No commitment that day: the no-commitment record, and the escalation state to store with it.
        case created(Commitment, EscalationState)

        var commitment: Commitment {
            switch self {
            case .unchanged(let c), .locked(let c), .created(let c, _): c
            }
        }
    }

    /// `lockCommitment` on the day's `existing` commitment; `tier` is the tier in force (read only
    /// when the no-commitment record is created).
    static func lock(
        _ existing: Commitment?, _ userID: UserID, _ day: DayID, deadline: EpochMillis,
        missing: (id: UUID, escalation: EscalationState)?, tier: () throws -> EscalationTier
    ) throws -> Lock {
        if var commitment = existing {
            guard commitment.lockedAt == nil else { return .unchanged(commitment) }
            commitment.lockedAt = deadline
            try commitment.validate()
            return .locked(commitment)
        }
        guard let missing else { throw noCommitment(userID, day) }
        try missing.escalation.validate()
        let record = Commitment.noCommitment(id: missing.id, userID: userID, day: day, deadline: deadline, tier: try tier())
        try record.validate()
        return .created(record, missing.escalation)
    }

    /// The arguments of `recordCheckIn`, before any row is read.
    static func checkCheckIn(status: CommitmentStatus, at time: EpochMillis, escalation: EscalationState) throws {
        try Millis.check(time, entity: "Commitment", field: "checked_in_at")
        try escalation.validate()
        guard status.isFinal else { throw StoreError.invalidState("a check-in records YES, NO or MISSED, not PENDING") }
    }

    /// `recordCheckIn`: the day's commitment with its outcome (`before`: the escalation state in force).
    static func checkedIn(
        _ current: Commitment, status: CommitmentStatus, at time: EpochMillis, before: EscalationState,
        after escalation: EscalationState, shieldUsed: Bool
    ) throws -> Commitment {
        var updated = try current.transitioned(to: status, at: time, tier: before.currentTier)
        if shieldUsed { try checkShield(updated, before: before, after: escalation) }
        updated.shieldUsed = shieldUsed
        return updated
    }

    /// `useRestartShield`: the day's commitment with its shield (`before`: the escalation state in force).
    static func shielded(_ commitment: Commitment, before: EscalationState, after: EscalationState) throws -> Commitment {
        try checkShield(commitment, before: before, after: after)
        var shielded = commitment
        shielded.shieldUsed = true
        return shielded
    }

    static func checkShield(_ commitment: Commitment, before: EscalationState, after: EscalationState) throws {
        guard commitment.status == .no || commitment.status == .missed else {
            throw StoreError.invalidState(
                "a Restart Shield applies to a NO or MISSED day, not \(commitment.status.rawValue) (\(commitment.day))")
        }
        guard !commitment.shieldUsed else { throw StoreError.invalidState("a Restart Shield was already used on \(commitment.day)") }
        guard before.restartShieldsRemaining >= 1, after.restartShieldsRemaining == before.restartShieldsRemaining - 1 else {
            throw StoreError(
                .constraint,
                "EscalationState.restart_shields_remaining: a shield spends exactly one of \(before.restartShieldsRemaining) remaining, found \(after.restartShieldsRemaining) after"
            )
        }
    }
}

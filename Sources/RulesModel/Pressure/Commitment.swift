import Foundation

/// Pressure's daily commitment: at most one per user and calendar day (pressure-data-model.md).
///
/// Decisions on the seed:
/// - `text` is 1–280 characters (grapheme clusters), not white space only, without control
///   characters other than tab and newline. The only empty text allowed is the seed's
///   no-commitment day: `text == ""`, `status == .missed` and `lockedAt` set (the deadline).
/// - `escalationTierSnapshot` is optional: the seed types it `Int (0-3)` but says it is taken
///   at check-in, so a PENDING commitment has none yet. A final status may carry one.
/// - `checkedInAt` is set exactly when the status is YES or NO (the seed: "Timestamp of YES or
///   NO submission"); MISSED and PENDING have none.
/// - `lockedAt` is required for every final status: a check-in happens in the window, which opens
///   at the commitment deadline, when the commitment locks.
public struct Commitment: Hashable, Sendable, Codable, Validatable {
    public static let maxTextLength = 280

    public var id: UUID
    public var userID: UserID
    /// The calendar date (no time component).
    public var day: DayID
    public var text: String
    public var lockedAt: EpochMillis?
    public var status: CommitmentStatus
    public var checkedInAt: EpochMillis?
    public var escalationTierSnapshot: EscalationTier?
    public var shieldUsed: Bool

    public init(
        id: UUID = UUID(), userID: UserID, day: DayID, text: String, lockedAt: EpochMillis? = nil,
        status: CommitmentStatus = .pending, checkedInAt: EpochMillis? = nil,
        escalationTierSnapshot: EscalationTier? = nil, shieldUsed: Bool = false
    ) {
        self.id = id
        self.userID = userID
        self.day = day
        self.text = text
        self.lockedAt = lockedAt
        self.status = status
        self.checkedInAt = checkedInAt
        self.escalationTierSnapshot = escalationTierSnapshot
        self.shieldUsed = shieldUsed
    }

    /// The record of a day with no commitment by the deadline: empty text, MISSED, locked at the
    /// deadline.
    public static func noCommitment(
        id: UUID = UUID(), userID: UserID, day: DayID, deadline: EpochMillis,
        tier: EscalationTier? = nil
    ) -> Commitment {
        Commitment(
            id: id, userID: userID, day: day, text: "", lockedAt: deadline, status: .missed,
            escalationTierSnapshot: tier)
    }

    public var isNoCommitmentDay: Bool { text.isEmpty && status == .missed }

    public func validate() throws {
        let check = FieldCheck("Commitment")
        if text.isEmpty {
            try check.require(
                status == .missed, "text", "non-empty unless the day had no commitment (status MISSED)",
                "\"\" with status \(status.rawValue)")
        } else {
            try check.text("text", text, max: Commitment.maxTextLength)
        }
        try check.timestamp("locked_at", lockedAt)
        try check.timestamp("checked_in_at", checkedInAt)
        switch status {
        case .pending:
            try check.require(checkedInAt == nil, "checked_in_at", "null while PENDING", "\(checkedInAt ?? 0)")
        case .yes, .no:
            try check.require(checkedInAt != nil, "checked_in_at", "set when status is \(status.rawValue)", "null")
            try check.require(lockedAt != nil, "locked_at", "set when status is \(status.rawValue)", "null")
            try check.notBefore("checked_in_at", checkedInAt, "locked_at", lockedAt)
        case .missed:
            try check.require(checkedInAt == nil, "checked_in_at", "null when MISSED (no submission)", "\(checkedInAt ?? 0)")
            try check.require(lockedAt != nil, "locked_at", "set when status is MISSED", "null")
        }
    }

    /// The commitment after a check-in or a miss; throws when the transition is not allowed
    /// (a final status is irreversible).
    public func transitioned(to next: CommitmentStatus, at time: EpochMillis, tier: EscalationTier?) throws -> Commitment {
        guard status.canTransition(to: next) else {
            throw ModelValidationError(
                entity: "Commitment", field: "status",
                rule: "one-way PENDING → YES | NO | MISSED", found: "\(status.rawValue) → \(next.rawValue)")
        }
        var copy = self
        copy.status = next
        copy.escalationTierSnapshot = tier
        if next != .missed { copy.checkedInAt = time }
        if copy.lockedAt == nil { copy.lockedAt = time }
        try copy.validate()
        return copy
    }
}

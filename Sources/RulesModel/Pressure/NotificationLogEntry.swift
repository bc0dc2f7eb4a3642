import Foundation

/// One entry of Pressure's notification log (pressure-data-model.md, "Notification Records").
///
/// Decision: the seed lists no constraint between `delivered` and `tapped`; a tap implies a
/// delivery, so `tapped == true` requires `delivered == true`.
public struct NotificationLogEntry: Hashable, Sendable, Codable, Validatable {
    /// Matches the `UNNotificationRequest` identifier.
    public var id: UUID
    public var userID: UserID
    public var scheduledFor: EpochMillis
    public var tier: EscalationTier
    public var personality: PersonalityMode
    public var delivered: Bool
    public var tapped: Bool

    public init(
        id: UUID = UUID(), userID: UserID, scheduledFor: EpochMillis, tier: EscalationTier,
        personality: PersonalityMode, delivered: Bool = false, tapped: Bool = false
    ) {
        self.id = id
        self.userID = userID
        self.scheduledFor = scheduledFor
        self.tier = tier
        self.personality = personality
        self.delivered = delivered
        self.tapped = tapped
    }

    public func validate() throws {
        let check = FieldCheck("NotificationLogEntry")
        try check.timestamp("scheduled_for", scheduledFor)
        try check.require(!tapped || delivered, "tapped", "only after delivered", "tapped without delivery")
    }
}

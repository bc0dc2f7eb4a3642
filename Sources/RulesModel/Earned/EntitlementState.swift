/// Earned's `entitlement_state` singleton (A3), one per user.
public struct EntitlementState: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var tier: EntitlementTier
    public var subscriptionActive: Bool
    public var updatedAt: EpochMillis

    public init(userID: UserID, tier: EntitlementTier = .free, subscriptionActive: Bool = false, updatedAt: EpochMillis) {
        self.userID = userID
        self.tier = tier
        self.subscriptionActive = subscriptionActive
        self.updatedAt = updatedAt
    }

    public func validate() throws {
        try FieldCheck("EntitlementState").timestamp("updated_ts_utc_ms", updatedAt)
    }
}

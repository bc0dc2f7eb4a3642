/// Pressure's subscription tier (`subscription_tier`); Earned has its own ``EntitlementTier``.
public enum SubscriptionTier: String, Sendable, Codable, CaseIterable {
    case free = "FREE"
    case paid = "PAID"
}

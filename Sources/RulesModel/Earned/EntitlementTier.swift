/// Earned's entitlement tier (A2).
public enum EntitlementTier: String, Sendable, Codable, CaseIterable {
    case free = "FREE"
    case plus = "PLUS"
    case pro = "PRO"
}

/// Pressure's escalation tier, 0 (Baseline) to 3 (Alarm) (pressure-escalation-engine.md).
public enum EscalationTier: Int, Sendable, Codable, CaseIterable, Comparable {
    case baseline = 0
    case nudge = 1
    case push = 2
    case alarm = 3

    public static func < (lhs: EscalationTier, rhs: EscalationTier) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Validating constructor for raw input.
    public static func parse(_ value: Int, entity: String, field: String) throws -> EscalationTier {
        guard let tier = EscalationTier(rawValue: value) else {
            throw ModelValidationError(entity: entity, field: field, rule: "a tier between 0 and 3", found: "\(value)")
        }
        return tier
    }
}

/// The outcome of an unlock attempt (A2).
public enum UnlockAttemptOutcome: String, Sendable, Codable, CaseIterable {
    case pending = "PENDING"
    case granted = "GRANTED"
    case denied = "DENIED"
    case cancelled = "CANCELLED"
    case expired = "EXPIRED"
}

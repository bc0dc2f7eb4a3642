/// The state of a quest session (A2).
public enum QuestSessionState: String, Sendable, Codable, CaseIterable {
    case active = "ACTIVE"
    case completed = "COMPLETED"
    case failed = "FAILED"
    case expired = "EXPIRED"
    case cancelled = "CANCELLED"
}

/// Why a quest failed (A7 `QUEST_FAILED.reason`).
public enum QuestFailureReason: String, Sendable, Codable, CaseIterable {
    case timeout = "TIMEOUT"
    case mismatch = "MISMATCH"
    case userCancelled = "USER_CANCELLED"
    case expired = "EXPIRED"
}

/// How an unlock grant was obtained (A2).
public enum UnlockGrantMethod: String, Sendable, Codable, CaseIterable {
    case credits = "CREDITS"
    case quest = "QUEST"
    case emergency = "EMERGENCY"
}

/// Earned's mode strictness (A2).
public enum Strictness: String, Sendable, Codable, CaseIterable {
    case gentle = "GENTLE"
    case strict = "STRICT"
    case hard = "HARD"
}

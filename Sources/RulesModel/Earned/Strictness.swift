/// Earned's mode strictness (A2).
public enum Strictness: String, Sendable, Codable, CaseIterable {
    case gentle = "GENTLE"
    case strict = "STRICT"
    case hard = "HARD"
}

extension Strictness {
    /// GENTLE 1, STRICT 2, HARD 3: the order "the strictest applies" uses.
    public var rank: Int {
        switch self {
        case .gentle: 1
        case .strict: 2
        case .hard: 3
        }
    }
}

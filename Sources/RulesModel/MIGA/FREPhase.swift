/// MIGA's first-run-experience progress (UserDefaults key `frePhase`).
public enum FREPhase: String, Sendable, Codable, CaseIterable {
    case notStarted
    case phase1Complete
    case phase2Complete
}

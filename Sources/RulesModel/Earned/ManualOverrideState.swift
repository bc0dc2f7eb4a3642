/// Earned's manual override of a mode (A2).
public enum ManualOverrideState: String, Sendable, Codable, CaseIterable {
    case auto = "AUTO"
    case forcedOn = "FORCED_ON"
    case forcedOff = "FORCED_OFF"
}

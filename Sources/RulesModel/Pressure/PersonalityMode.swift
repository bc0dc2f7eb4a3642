/// Pressure's notification copy tone (pressure-data-model.md, `personality_mode`).
public enum PersonalityMode: String, Sendable, Codable, CaseIterable {
    case professional = "PROFESSIONAL"
    case brutal = "BRUTAL"
}

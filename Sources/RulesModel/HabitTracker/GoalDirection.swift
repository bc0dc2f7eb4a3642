/// Whether a habit's goal is a floor or a ceiling (issue 17): `atLeast` (the seed's only kind: run
/// 5 km) or `atMost` (at most 2 cups of coffee).
public enum GoalDirection: String, Sendable, Codable, CaseIterable {
    case atLeast
    case atMost

    /// The name events and rules use (`at_least`).
    public var eventName: String { self == .atLeast ? "at_least" : "at_most" }

    /// Reads the event name (`at_least`) or the raw value; anything else is refused listing the event names.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let value = GoalDirection.allCases.first(where: { $0.eventName == name || $0.rawValue == name }) else {
            throw NameError(expected: GoalDirection.allCases.map(\.eventName), found: name)
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

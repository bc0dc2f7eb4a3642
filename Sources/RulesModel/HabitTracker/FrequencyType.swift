/// How often a habit task recurs (habit-tracker-data-model.md §3.3, widened by issue 17).
///
/// - `daily`: every day; `specificDays`: the task's `scheduledDays`.
/// - `timesInDays`: `frequencyTimes` (x, 1…y) times in any `frequencyDays` (y, 2…365) days.
/// - `everyNDays`: every `frequencyDays` (n, 2…365) days, counted from the task's start date
///   (its `startDate`, else the day it was created).
/// - `daysOfMonth`: the task's `daysOfMonth` (1…31). A day past the end of a shorter month means
///   that month's last day: 31 is "the last day of every month", 30 is February's 28th or 29th.
public enum FrequencyType: String, Sendable, Codable, CaseIterable {
    case daily
    case specificDays
    case timesInDays
    case everyNDays
    case daysOfMonth

    /// The name events and rules use (`times_in_days`); `specificDays` stays as the seed spells it.
    public var eventName: String {
        switch self {
        case .daily: "daily"
        case .specificDays: "specificDays"
        case .timesInDays: "times_in_days"
        case .everyNDays: "every_n_days"
        case .daysOfMonth: "days_of_month"
        }
    }

    /// Reads the event name or the raw value; anything else is refused listing the event names.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let value = FrequencyType(eventName: name) else {
            throw NameError(expected: FrequencyType.allCases.map(\.eventName), found: name)
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The frequency an event names (`eventName`, or the seed's raw value), nil when unknown.
    public init?(eventName: String) {
        guard let match = FrequencyType.allCases.first(where: { $0.eventName == eventName || $0.rawValue == eventName }) else { return nil }
        self = match
    }
}

/// What a habit task measures, with the units each goal accepts (habit-tracker-data-model.md §3.2).
public enum GoalType: String, Sendable, Codable, CaseIterable {
    case none
    case repetitions
    case time
    case cups
    case calories
    case distance
    case weight
    case capacity

    /// The units of the seed's "Compatible Units" column; empty for `none`.
    public var compatibleUnits: [String] {
        switch self {
        case .none: []
        case .repetitions: ["times"]
        case .time: ["sec", "min", "hr"]
        case .cups: ["cups"]
        case .calories: ["kcal"]
        case .distance: ["m", "km", "mi"]
        case .weight: ["g", "kg", "lb"]
        case .capacity: ["mL", "L"]
        }
    }
}

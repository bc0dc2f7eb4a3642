import RulesModel

/// How long a simulation runs: `30d`, `12w`, `6m` (calendar months from the start day), `1y`.
public struct SimulationDuration: Sendable, Equatable, CustomStringConvertible {
    public enum Unit: String, Sendable { case days = "d", weeks = "w", months = "m", years = "y" }
    public var count: Int
    public var unit: Unit

    public init(_ text: String) throws(SimulationError) {
        guard let last = text.last, let unit = Unit(rawValue: String(last).lowercased()), let count = Int(text.dropLast()), count > 0 else {
            throw SimulationError("invalid duration \"\(text)\": expected a positive number and a unit, e.g. 30d, 12w, 6m or 1y")
        }
        // Bounded before any arithmetic: 3660 days, 523 weeks, 120 months or 10 years.
        let most: Int = switch unit { case .days: 3660; case .weeks: 523; case .months: 120; case .years: 10 }
        guard count <= most else {
            throw SimulationError("invalid duration \"\(text)\": at most 10 years (\(most)\(unit.rawValue))")
        }
        self.count = count
        self.unit = unit
    }

    /// The number of days from `start` (months and years are calendar ones).
    public func days(from start: DayID) -> Int {
        switch unit {
        case .days: return count
        case .weeks: return count * 7
        case .months, .years:
            let months = unit == .months ? count : count * 12
            let total = start.year * 12 + (start.month - 1) + months
            let (year, month) = (total / 12, total % 12 + 1)
            // Past the last day there is: a count that `Simulation` refuses.
            guard year <= 9999 else { return start.days(to: Self.lastDay) + 1 }
            let end = Self.day(year: year, month: month, day: start.day)
            return start.days(to: end)
        }
    }

    /// The last day a simulation can reach.
    static let lastDay = try! DayID("9999-12-31")

    /// The day, clamped to the month's last day (31 January + 1 month = 28 or 29 February).
    static func day(year: Int, month: Int, day: Int) -> DayID {
        func pad(_ n: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        let first = try! DayID(pad(year, 4) + "-" + pad(month, 2) + "-01")
        var result = first
        for n in 1..<day {
            guard let next = first.adding(days: n), next.month == month else { break }
            result = next
        }
        return result
    }

    public var description: String { "\(count)\(unit.rawValue)" }
}

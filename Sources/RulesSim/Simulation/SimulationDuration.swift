import RulesEngine
import RulesModel

/// How long a simulation runs: `30d`, `12w`, `6m` (calendar months from the start day), `1y`;
/// at most `maxDays` days whatever the unit (3660d, 522w, 120m or 10y).
package struct SimulationDuration: Sendable, Equatable, CustomStringConvertible {
    package enum Unit: String, Sendable { case days = "d", weeks = "w", months = "m", years = "y" }
    package var count: Int
    package var unit: Unit

    /// The longest run, in days: ten years.
    package static let maxDays = 3_660

    package init(_ text: String) throws(SimulationError) {
        let number = text.dropLast()
        if let last = text.last, Unit(rawValue: String(last).lowercased()) != nil, let n = Int(number), n <= 0 {
            throw SimulationError(
                "invalid duration \"\(text)\": a duration must be positive (at least 1), expected a number from 1 and a unit, e.g. 30d, 12w, 6m or 1y"
            )
        }
        guard let last = text.last, let unit = Unit(rawValue: String(last).lowercased()),
            let parsed = Int(number) ?? (Self.isDigits(number) ? Int.max : nil), parsed > 0
        else {
            throw SimulationError("invalid duration \"\(text)\": expected a positive number and a unit, e.g. 30d, 12w, 6m or 1y")
        }
        // Bounded before any arithmetic, by the most of each unit that stays within maxDays days
        // (120 months or 10 years from any start are at most 3653 days).
        let most: Int =
            switch unit {
            case .days: Self.maxDays;
            case .weeks: Self.maxDays / 7;
            case .months: 120;
            case .years: 10
            }
        guard parsed <= most else {
            throw SimulationError(
                "invalid duration \"\(text)\": at most \(Self.maxDays) days (10 years): \(Self.maxDays)d, \(Self.maxDays / 7)w, 120m or 10y"
            )
        }
        self.count = parsed
        self.unit = unit
    }

    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// The number of days from `start` (months and years are calendar ones).
    package func days(from start: DayID) -> Int {
        switch unit {
        case .days: return count
        case .weeks: return count * 7
        case .months, .years:
            let months = unit == .months ? count : count * 12
            let total = start.year * 12 + (start.month - 1) + months
            let (year, month) = (total / 12, total % 12 + 1)
            // Past the last day there is (the run would end after it): a count that `check(from:)` refuses.
            guard year <= 9999 else { return start.days(to: Self.lastDayID) + 2 }
            let end = Self.day(year: year, month: month, day: start.day)
            return start.days(to: end)
        }
    }

    /// Throws unless a run of this duration from `start` ends by `lastSimulatedDay`.
    package func check(from start: DayID) throws(SimulationError) {
        let last = start.adding(days: days(from: start) - 1)
        guard let last, last <= Self.lastSimulatedDay else {
            let end = last.map { "on \($0.rawValue)" } ?? "after \(Self.lastDay.rawValue)"
            throw SimulationError(
                "--start \(start.rawValue) + \(self): the simulation would end \(end); it must end by "
                    + "\(Self.lastSimulatedDay.rawValue) (it goes on past its last day: the next day closes it, "
                    + "and a user's local day reaches into further days in UTC, up to \(Self.lastDay.rawValue))")
        }
    }

    /// The last day a DayID can be.
    static let lastDayID = try! DayID("9999-12-31")
    /// The last day of the times the engine takes (``Timestamp/engineRange``, up to 2997-12-31 UTC).
    static let lastDay = DayID(utcMillis: Timestamp.engineRange.upperBound - 1)
    /// The last day a simulation can simulate: the run goes on past it (the next day closes the
    /// run, and a user's local day reaches into the UTC day after), within the engine's days.
    package static let lastSimulatedDay = lastDay.adding(days: -3)!
    /// The first day a simulation can simulate: a user's local day starts up to 14 hours before
    /// it in UTC, within the engine's times (from 1971-01-01 UTC).
    package static let firstSimulatedDay = DayID(utcMillis: Timestamp.engineRange.lowerBound).adding(days: 1)!

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

    package var description: String { "\(count)\(unit.rawValue)" }
}

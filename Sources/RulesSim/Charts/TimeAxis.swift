import RulesModel

/// The time axis of a chart of a run's days: dates from the run's first day, a point per day, or
/// (for runs over ``weeklyAbove`` days) a point per ISO week (Monday to Sunday) holding the means
/// of its days. Positions are in days from the first day, each day centred in its own slot, so
/// that a day's weekend band and its point line up.
package struct TimeAxis: Sendable, Equatable {
    package let start: DayID
    package let days: Int
    /// The days of each point, in order: one day each, or the run's days in each ISO week.
    package let groups: [Range<Int>]

    /// Runs longer than this are drawn a week per point.
    package static let weeklyAbove = 60

    package init(start: DayID, days: Int, weekly: Bool? = nil) {
        self.start = start
        self.days = max(0, days)
        if weekly ?? (days > Self.weeklyAbove) {
            var groups: [Range<Int>] = []
            var first = 0
            for d in 0..<self.days where d > 0 && Self.day(start, d).isoWeekday == 1 {
                groups.append(first..<d)
                first = d
            }
            if self.days > 0 { groups.append(first..<self.days) }
            self.groups = groups
        } else {
            groups = (0..<self.days).map { $0..<($0 + 1) }
        }
    }

    package var isWeekly: Bool { groups.count < days }

    /// What a point is, for the chart's note.
    package var pointNote: String {
        isWeekly ? "weekly means (ISO weeks, Monday to Sunday; a partial first or last week is the mean of its days)" : "daily"
    }

    /// A point's values from a value per day: the day's, or the mean of the week's days.
    package func aggregate(_ daily: [Double]) -> [Double] {
        groups.map { group in
            let values = group.filter { $0 < daily.count }.map { daily[$0] }
            return values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
        }
    }

    /// A point's position, in days from the first day's slot start (the middle of its days).
    package func position(ofPoint k: Int) -> Double { Double(groups[k].lowerBound + groups[k].upperBound) / 2 }

    /// The date of day `d` (0-based).
    package func date(_ d: Int) -> DayID { Self.day(start, d) }

    private static func day(_ start: DayID, _ d: Int) -> DayID { start.adding(days: d) ?? start }

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The ticks of the axis: a day index and its label ("3 Mar", the year on the first tick and
    /// at each new year), at most about a dozen: every day, every Monday, every other Monday, the
    /// first of each month or quarter, or each 1 January, as the run's length asks.
    package func ticks() -> [(day: Int, label: String)] {
        guard days > 0 else { return [] }
        let chosen: [Int]
        let all = Array(0..<days)
        if days <= 14 {
            chosen = all
        } else if days <= 84 {
            let mondays = all.filter { date($0).isoWeekday == 1 }
            chosen = days <= 42 ? mondays : mondays.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        } else if days <= 365 * 3 {
            let firsts = all.filter { date($0).day == 1 }
            chosen = days <= 400 ? firsts : firsts.filter { (date($0).month - 1) % 3 == 0 }
        } else {
            chosen = all.filter { date($0).day == 1 && date($0).month == 1 }
        }
        var lastYear: Int?
        return chosen.map { d in
            let day = date(d)
            var label = "\(day.day) \(Self.monthNames[day.month - 1])"
            if days > 365 * 3 { label = String(day.year) } else if lastYear != day.year { label += " \(day.year)" }
            lastYear = day.year
            return (d, label)
        }
    }

    /// The weekends (Saturday and Sunday) as ranges of days, for a daily axis (none for a weekly one).
    package func weekends() -> [Range<Int>] {
        guard !isWeekly else { return [] }
        var out: [Range<Int>] = []
        for d in 0..<days where date(d).isoWeekday >= 6 {
            if let last = out.last, last.upperBound == d { out[out.count - 1] = last.lowerBound..<(d + 1) } else { out.append(d..<(d + 1)) }
        }
        return out
    }
}

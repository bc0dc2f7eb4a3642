/// Which days a habit task is due on (issue 17's frequencies; ``FrequencyType``).
extension HabitTask {
    /// Whether the task is due on `day`, for a task counted from `start` (its start date, else the
    /// day it was created):
    /// - daily and `timesInDays`: every day (an x-in-y task may be done on any day; the streak
    ///   rule decides the windows);
    /// - specific days: the weekdays of `scheduledDays`;
    /// - `everyNDays`: `start` and every `frequencyDays`-th day after it (none before it);
    /// - `daysOfMonth`: the days of `daysOfMonth`, a day past the end of a shorter month meaning
    ///   its last day (31 → 30 April, 28 or 29 February; 30 → February's last day too).
    public func isDue(on day: DayID, from start: DayID) -> Bool {
        switch frequencyType {
        case .daily, .timesInDays:
            return true
        case .specificDays:
            return scheduledDays.contains { $0.rawValue == day.isoWeekday }
        case .everyNDays:
            let offset = start.days(to: day)
            return offset >= 0 && offset % max(1, frequencyDays ?? 1) == 0
        case .daysOfMonth:
            let (year, month, date) = DayID.civilFromDays(day.ordinal)
            let last = DayID.daysIn(month: month, year: year)
            return daysOfMonth.contains { $0 == date || (date == last && $0 > last) }
        }
    }
}

import RulesModel

/// One measurement period of a habit task, as `habit.streak` sees it (docs/rules.md).
public struct HabitPeriod: Hashable, Sendable {
    /// The host's own reading of the period, which a rule may ignore.
    public enum Status: String, Hashable, Sendable, CaseIterable {
        /// The period meets the task's target.
        case done
        /// Some completions, not enough.
        case partial
        /// A skip covers it.
        case skipped
        /// A freeze was used on it.
        case frozen
        /// Past, with nothing (or not scheduled: then `scheduled` is false).
        case missed
        /// The running period, not yet done.
        case open
    }

    /// What a day mark (a skip, a freeze) says about a period; none yet.
    public enum Mark: Hashable, Sendable {
        case skipped
        case frozen
    }

    /// The local dates of its first and last day.
    public var start: DayID
    public var end: DayID
    /// Days only: passed as the ISO `weekday` (1 Monday … 7 Sunday); weeks and months have none.
    public var isDay: Bool
    /// False for a day a specific-days task is not scheduled on.
    public var scheduled: Bool
    public var completions: Int
    /// The sum of the completions' values (0 when none).
    public var value: Double
    public var status: Status
    public var freezesEquipped: Int

    public init(start: DayID, end: DayID, isDay: Bool, scheduled: Bool = true, completions: Int, value: Double = 0,
                status: Status, freezesEquipped: Int = 0) {
        self.start = start
        self.end = end
        self.isDay = isDay
        self.scheduled = scheduled
        self.completions = completions
        self.value = value
        self.status = status
        self.freezesEquipped = freezesEquipped
    }

    /// The host's status: `done` when the completions reach `needed` (or the value reaches the
    /// goal's target), else the period's mark, else `open` while it runs, `partial` with some
    /// completions, `missed` with none.
    public static func status(completions: Int, value: Double, needed: Int, goalTarget: Double?, running: Bool,
                              mark: Mark?) -> Status {
        if let goalTarget, completions > 0, value >= goalTarget { return .done }
        if goalTarget == nil, completions >= needed { return .done }
        switch mark {
        case .skipped: return .skipped
        case .frozen: return .frozen
        case nil: break
        }
        if running { return .open }
        return completions > 0 ? .partial : .missed
    }

    /// The ISO weekday of a day period.
    public var weekday: Int? { isDay ? start.isoWeekday : nil }
}

import RulesModel

/// One measurement period of a habit task, as `habit.streak` sees it (docs/rules.md).
package struct HabitPeriod: Hashable, Sendable {
    /// The host's own reading of the period, which a rule may ignore.
    package enum Status: String, Hashable, Sendable, CaseIterable {
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

    /// What the day marks (skips, used freezes) say about a period not done: `frozen` when a
    /// freeze was used on one of its days, else `skipped` when one of its days is skipped. (A week
    /// or a month with one skipped day is `skipped`: the rule sees the dates and decides.)
    package enum Mark: Hashable, Sendable {
        case skipped
        case frozen
    }

    /// The local dates of its first and last day.
    package var start: DayID
    package var end: DayID
    /// Days only: passed as the ISO `weekday` (1 Monday … 7 Sunday); weeks and months have none.
    package var isDay: Bool
    /// False for a day a specific-days task is not scheduled on.
    package var scheduled: Bool
    package var completions: Int
    /// The sum of the completions' values (0 when none).
    package var value: Double
    package var status: Status
    package var freezesEquipped: Int
    /// Whether the user opened the app on one of its days (had an event other than `tick`); nil
    /// unless the rule set sets `habit.track_app_opens`.
    package var opened: Bool?

    package init(
        start: DayID, end: DayID, isDay: Bool, scheduled: Bool = true, completions: Int, value: Double = 0,
        status: Status, freezesEquipped: Int = 0, opened: Bool? = nil
    ) {
        self.start = start
        self.end = end
        self.isDay = isDay
        self.scheduled = scheduled
        self.completions = completions
        self.value = value
        self.status = status
        self.freezesEquipped = freezesEquipped
        self.opened = opened
    }

    /// The host's status: `done` when the completions reach `needed` (or, with a goal target, the
    /// value reaches it — `at_least` — or stays within it with at least one completion — `at_most`),
    /// else the period's mark, else `missed` when an `at_most` ceiling is exceeded (it can no longer
    /// be met), `open` while it runs, `partial` with some completions, `missed` with none. An
    /// `at_most` period without completions is not entered (Loop's reading): `open` or `missed`
    /// like any other, which a rule may read as a value of 0.
    package static func status(
        completions: Int, value: Double, needed: Int, goalTarget: Double?, direction: GoalDirection = .atLeast,
        running: Bool, mark: Mark?
    ) -> Status {
        var exceeded = false
        if let goalTarget {
            if completions > 0 {
                if direction == .atMost {
                    if value <= goalTarget { return .done }
                    exceeded = true
                } else if value >= goalTarget {
                    return .done
                }
            }
        } else if completions >= needed {
            return .done
        }
        switch mark {
        case .skipped: return .skipped
        case .frozen: return .frozen
        case nil: break
        }
        if exceeded { return .missed }
        if running { return .open }
        return completions > 0 ? .partial : .missed
    }

    /// The ISO weekday of a day period.
    package var weekday: Int? { isDay ? start.isoWeekday : nil }
}

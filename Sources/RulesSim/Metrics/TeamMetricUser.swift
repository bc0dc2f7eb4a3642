import LuaHost
import RulesEngine
import RulesModel

/// One user's days for the team's metrics, as `simulate` counts a simulated user's and `analyze` a
/// logged one's: the day's record (``TeamMetricDay``: the events and decisions noted so far), and
/// whether each metric has had a value (other than 0) for the user yet.
struct TeamMetricUser {
    let metrics: TeamMetrics
    let clock: LocalClock
    private(set) var day: TeamMetricDay
    private var seen: [Bool]
    private var nonzero: [Bool]

    /// The user `name`, of `apps`, whose first day is `date`.
    init(_ metrics: TeamMetrics, user name: String, apps: [Metric.App], clock: LocalClock, date: DayID) {
        self.metrics = metrics
        self.clock = clock
        day = TeamMetricDay(index: 0, date: date.rawValue, user: name, apps: apps)
        seen = Array(repeating: false, count: metrics.metrics.count)
        nonzero = seen
    }

    /// Notes an event and what the engine decided on it (`decisions` nil: the engine refused it).
    mutating func note(_ event: EngineEvent, decided decisions: Decisions?) {
        day.note(event, refused: decisions == nil, clock: clock)
        if let decisions { day.note(decisions, at: event.at.millis, clock: clock) }
    }

    /// Counts each metric on the day noted (with the state at its end) into `totals`, then starts
    /// the record of day `next` (`index` + 1).
    mutating func endDay(state: TeamMetricDay.State, into totals: inout DayTotals, next: DayID?) throws {
        var table: LuaValue?
        for (i, metric) in metrics.metrics.enumerated() where metric.app == .cohort || day.apps.contains(metric.app) {
            if table == nil { table = day.lua(state: state) }
            guard let value = try metrics.value(of: i, on: table!, user: day.user, date: day.date) else { continue }
            let firstNonzero = value != 0 && !nonzero[i]
            totals.team[i].count(value, first: !seen[i], firstNonzero: firstNonzero, keepsValues: metric.aggregate.keepsValues)
            seen[i] = true
            if firstNonzero { nonzero[i] = true }
        }
        day = TeamMetricDay(index: day.index + 1, date: next?.rawValue ?? "", user: day.user, apps: day.apps)
    }
}

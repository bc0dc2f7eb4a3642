/// What happened on one simulated day, summed over users. Only integer counts, so that totals of
/// parts (workers, shards) add up exactly to the totals of the whole, whatever the order.
public struct DayTotals: Codable, Sendable, Equatable {
    /// Users on each tier (0…3) at the end of the day.
    public var tiers: [Int] = [0, 0, 0, 0]
    /// Reminders sent (logged notifications).
    public var reminders = 0
    /// The most reminders one user got that day.
    public var maxReminders = 0
    /// Commitments set.
    public var commitments = 0
    /// The day's results: YES and NO check-ins, and MISSED days (no check-in, or no commitment).
    public var yes = 0
    public var no = 0
    public var missed = 0
    /// Restart shields used.
    public var shields = 0
    /// Habit completions recorded, and the completions the users' tasks asked for.
    public var habitDone = 0
    public var habitPlanned = 0
    /// MIGA gateway events by kind.
    public var exits = 0
    public var deepens = 0
    public var proceeds = 0
    /// Events the engine refused (a late check-in, no shield left, …).
    public var refused = 0
    /// Events applied.
    public var events = 0
    /// Users by current streak at the end of the day: `streaks[n]` users have a streak of n.
    public var streaks: [Int] = []

    public init() {}

    enum CodingKeys: String, CodingKey {
        case tiers, reminders, maxReminders = "max_reminders", commitments, yes, no, missed, shields
        case habitDone = "habit_done", habitPlanned = "habit_planned", exits = "exits_to_focus", deepens = "deepen_pause"
        case proceeds = "proceed_to_app", refused = "refused_events", events, streaks = "streak_histogram"
    }

    /// Adds another part's counts.
    public mutating func add(_ other: DayTotals) {
        for i in tiers.indices { tiers[i] += other.tiers[i] }
        reminders += other.reminders
        maxReminders = max(maxReminders, other.maxReminders)
        commitments += other.commitments
        yes += other.yes
        no += other.no
        missed += other.missed
        shields += other.shields
        habitDone += other.habitDone
        habitPlanned += other.habitPlanned
        exits += other.exits
        deepens += other.deepens
        proceeds += other.proceeds
        refused += other.refused
        events += other.events
        if streaks.count < other.streaks.count { streaks += Array(repeating: 0, count: other.streaks.count - streaks.count) }
        for (i, n) in other.streaks.enumerated() { streaks[i] += n }
    }

    mutating func countStreak(_ streak: Int) {
        if streaks.count <= streak { streaks += Array(repeating: 0, count: streak + 1 - streaks.count) }
        streaks[streak] += 1
    }

    /// Users counted on the day.
    public var users: Int { tiers.reduce(0, +) }

    /// The smallest streak that at least `p` percent of the users have or are below (nearest rank).
    public func streakPercentile(_ p: Int) -> Int {
        let total = streaks.reduce(0, +)
        guard total > 0 else { return 0 }
        let rank = max(1, (total * p + 99) / 100)
        var cumulative = 0
        for (value, n) in streaks.enumerated() {
            cumulative += n
            if cumulative >= rank { return value }
        }
        return streaks.count - 1
    }
}

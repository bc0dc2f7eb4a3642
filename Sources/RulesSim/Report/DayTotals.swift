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
    /// Earned: the economy of the users who use it.
    public var earned = EconomyTotals()

    public init() {}

    enum CodingKeys: String, CodingKey {
        case tiers, reminders, maxReminders = "max_reminders", commitments, yes, no, missed, shields
        case habitDone = "habit_done", habitPlanned = "habit_planned", exits = "exits_to_focus", deepens = "deepen_pause"
        case proceeds = "proceed_to_app", refused = "refused_events", events, streaks = "streak_histogram", earned
    }

    /// Reads a day of a JSON report; a report written before Earned was simulated has no `earned`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        tiers = try c.decode([Int].self, forKey: .tiers)
        reminders = try c.decode(Int.self, forKey: .reminders)
        maxReminders = try c.decode(Int.self, forKey: .maxReminders)
        commitments = try c.decode(Int.self, forKey: .commitments)
        yes = try c.decode(Int.self, forKey: .yes)
        no = try c.decode(Int.self, forKey: .no)
        missed = try c.decode(Int.self, forKey: .missed)
        shields = try c.decode(Int.self, forKey: .shields)
        habitDone = try c.decode(Int.self, forKey: .habitDone)
        habitPlanned = try c.decode(Int.self, forKey: .habitPlanned)
        exits = try c.decode(Int.self, forKey: .exits)
        deepens = try c.decode(Int.self, forKey: .deepens)
        proceeds = try c.decode(Int.self, forKey: .proceeds)
        refused = try c.decode(Int.self, forKey: .refused)
        events = try c.decode(Int.self, forKey: .events)
        streaks = try c.decode([Int].self, forKey: .streaks)
        earned = try c.decodeIfPresent(EconomyTotals.self, forKey: .earned) ?? EconomyTotals()
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
        Histogram.add(other.streaks, to: &streaks)
        earned.add(other.earned)
    }

    mutating func countStreak(_ streak: Int) { Histogram.count(streak, into: &streaks) }

    /// Users counted on the day.
    public var users: Int { tiers.reduce(0, +) }

    /// The smallest streak that at least `p` percent of the users have or are below (nearest rank).
    public func streakPercentile(_ p: Int) -> Int { Histogram.percentile(p, of: streaks) }
}

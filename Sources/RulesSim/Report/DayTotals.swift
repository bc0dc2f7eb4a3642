import RulesEngine

/// What happened on one simulated day, summed over users. Only integer counts, so that totals of
/// parts (workers, shards) add up exactly to the totals of the whole, whatever the order.
package struct DayTotals: Codable, Sendable, Equatable {
    /// Users counted on the day, and those of them who use the habit tracker and MIGA (Pressure's
    /// are on its tiers, Earned's in `earned`).
    package var users = 0
    /// The users still active at the end of the day (those who have not left: `responses.leaving`);
    /// only they are counted in the apps' figures below.
    package var active = 0
    package var habitUsers = 0
    package var migaUsers = 0
    /// Pressure's users on each tier (0…3) at the end of the day.
    package var tiers: [Int] = [0, 0, 0, 0]
    /// Reminders sent (logged notifications).
    package var reminders = 0
    /// The most reminders one user got that day.
    package var maxReminders = 0
    /// Commitments set.
    package var commitments = 0
    /// The day's results: YES and NO check-ins, and MISSED days (no check-in, or no commitment).
    package var yes = 0
    package var no = 0
    package var missed = 0
    /// Restart shields used.
    package var shields = 0
    /// Habit completions recorded, and the completions the users' tasks asked for.
    package var habitDone = 0
    package var habitPlanned = 0
    /// MIGA gateway events by kind.
    package var exits = 0
    package var deepens = 0
    package var proceeds = 0
    /// Events the engine refused (a late check-in, no shield left, …).
    package var refused = 0
    /// Events applied.
    package var events = 0
    /// Pressure's users by current streak at the end of the day: `streaks[n]` users have a streak of n.
    package var streaks: [Int] = []
    /// Earned: the economy of the users who use it.
    package var earned = EconomyTotals()
    /// Habit days skipped (`habit_skip`), streak freezes equipped and used (`habit_freeze`), and
    /// completions of the day before (`for_day`) — by personas that set `skip`, `freeze`, `late`.
    package var habitSkips = 0
    package var freezesEquipped = 0
    package var freezesUsed = 0
    package var habitLate = 0
    /// When the rule set returns them: the users' habit tasks by their longest best streak at the
    /// end of the day (`bestStreaks[n]` tasks have a longest best streak of n), and by their score
    /// in whole percent (`scores[p]` tasks score p%, 0…100).
    package var bestStreaks: [Int] = []
    package var scores: [Int] = []
    /// The habit tracker's tasks by their current streak at the end of the day (`habitStreaks[n]`
    /// tasks of active users have a current streak of n), as the rule set computes it.
    package var habitStreaks: [Int] = []
    /// Earned's users by their qualifying-day streak when their day ended (`earnedStreaks[n]` users
    /// have a streak of n): the `streak_count` of the engine's rollover (`earned.day_ends`).
    package var earnedStreaks: [Int] = []
    /// The team's own metrics (`metrics.lua`), in the order the file declares them.
    package var team: [TeamMetricTotals] = []

    package init() {}

    /// A day with the team's metrics `ids`, each with nothing counted yet.
    package init(team ids: [String]) { team = ids.map(TeamMetricTotals.init(id:)) }

    /// The counts of the team's metric `id` (nil when the day has none: a report of a run without it).
    package func team(_ id: String) -> TeamMetricTotals? { team.first { $0.id == id } }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case users, active, habitUsers = "habit_users", migaUsers = "miga_users", tiers, reminders, maxReminders = "max_reminders",
            commitments, yes, no, missed, shields
        case habitDone = "habit_done", habitPlanned = "habit_planned", exits = "exits_to_focus", deepens = "deepen_pause"
        case proceeds = "proceed_to_app", refused = "refused_events", events, streaks = "streak_histogram", earned
        case habitSkips = "habit_skips", freezesEquipped = "freezes_equipped", freezesUsed = "freezes_used", habitLate = "habit_late"
        case bestStreaks = "best_streak_histogram", scores = "score_histogram", habitStreaks = "habit_streak_histogram"
        case earnedStreaks = "earned_streak_histogram"
        case team = "team_metrics"
    }

    /// Reads a day of a JSON report; a report written before Earned was simulated has no `earned`,
    /// one of a run without skips, freezes, late completions, best streaks or scores has none
    /// of these keys (they are zero, or empty), and one written before personas declared their
    /// apps has no `users`, `habit_users` nor `miga_users` (every user used every app: those on
    /// the tiers).
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        tiers = try c.decode([Int].self, forKey: .tiers)
        users = try c.decodeIfPresent(Int.self, forKey: .users) ?? tiers.reduce(0, +)
        active = try c.decodeIfPresent(Int.self, forKey: .active) ?? users
        habitUsers = try c.decodeIfPresent(Int.self, forKey: .habitUsers) ?? users
        migaUsers = try c.decodeIfPresent(Int.self, forKey: .migaUsers) ?? users
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
        habitSkips = try c.decodeIfPresent(Int.self, forKey: .habitSkips) ?? 0
        freezesEquipped = try c.decodeIfPresent(Int.self, forKey: .freezesEquipped) ?? 0
        freezesUsed = try c.decodeIfPresent(Int.self, forKey: .freezesUsed) ?? 0
        habitLate = try c.decodeIfPresent(Int.self, forKey: .habitLate) ?? 0
        bestStreaks = try c.decodeIfPresent([Int].self, forKey: .bestStreaks) ?? []
        scores = try c.decodeIfPresent([Int].self, forKey: .scores) ?? []
        habitStreaks = try c.decodeIfPresent([Int].self, forKey: .habitStreaks) ?? []
        earnedStreaks = try c.decodeIfPresent([Int].self, forKey: .earnedStreaks) ?? []
        // By id (the report's `team_metrics` list gives their order: `SimulationReport.init(json:)`).
        team = (try c.decodeIfPresent([String: TeamMetricTotals].self, forKey: .team) ?? [:]).sorted { $0.key < $1.key }.map {
            var totals = $0.value
            totals.id = $0.key
            return totals
        }
    }

    /// Adds `days` to `sums` day by day (`sums` grown as needed).
    package static func add(_ days: [DayTotals], into sums: inout [DayTotals]) {
        if sums.count < days.count { sums += Array(repeating: DayTotals(), count: days.count - sums.count) }
        for d in days.indices { sums[d].add(days[d]) }
    }

    /// Adds another part's counts.
    package mutating func add(_ other: DayTotals) {
        users += other.users
        active += other.active
        habitUsers += other.habitUsers
        migaUsers += other.migaUsers
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
        habitSkips += other.habitSkips
        freezesEquipped += other.freezesEquipped
        freezesUsed += other.freezesUsed
        habitLate += other.habitLate
        Histogram.add(other.bestStreaks, to: &bestStreaks)
        Histogram.add(other.scores, to: &scores)
        Histogram.add(other.habitStreaks, to: &habitStreaks)
        Histogram.add(other.earnedStreaks, to: &earnedStreaks)
        if team.isEmpty {
            team = other.team
        } else {
            for metric in other.team {
                if let i = team.firstIndex(where: { $0.id == metric.id }) { team[i].add(metric) } else { team.append(metric) }
            }
        }
    }

    /// Whether the day has any skip, freeze or late completion.
    var hasHabitMarks: Bool { habitSkips + freezesEquipped + freezesUsed + habitLate > 0 }

    /// The mean of a histogram's values (0 when it is empty).
    static func mean(of counts: [Int]) -> Double {
        let total = counts.reduce(0, +)
        return total == 0 ? 0 : Double(counts.enumerated().reduce(0) { $0 + $1.offset * $1.element }) / Double(total)
    }

    mutating func countStreak(_ streak: Int) { Histogram.count(streak, into: &streaks) }

    /// Counts a Pressure user's state at the end of the day: its tier and its current streak.
    mutating func countPressure(_ view: UserSummary) {
        tiers[min(view.tier, tiers.count - 1)] += 1
        countStreak(view.currentStreak)
    }

    /// Counts a user's habit tasks at the end of the day: by their current streak, and by their
    /// longest best streak and their score when the rule set returns them; whether it returned any.
    @discardableResult
    mutating func countHabitStreaks(_ streaks: [(String, HabitStreak)]) -> Bool {
        var any = false
        for (_, streak) in streaks {
            Histogram.count(streak.current, into: &habitStreaks)
            if let longest = streak.longestBest { Histogram.count(longest, into: &bestStreaks) }
            if let score = streak.score { Histogram.count(Int((score * 100).rounded()), into: &scores) }
            any = any || streak.best != nil || streak.score != nil
        }
        return any
    }

    /// Counts a user of `persona` on the day; when it is still active (has not left), also among the
    /// active users and in the apps it uses but Pressure (counted on its tier) and Earned (in
    /// `earned`, by the user's own draw of `earned.share`).
    mutating func countUser(of persona: PersonaSpec, active isActive: Bool) {
        users += 1
        guard isActive else { return }
        active += 1
        if persona.uses(.habits) { habitUsers += 1 }
        if persona.uses(.miga) { migaUsers += 1 }
    }

    /// Why these counts cannot be a day of `users` users (a message naming the field at `path`,
    /// e.g. `days[3].yes`, and what was expected), nil when they can: each user is counted once on
    /// a tier, in the streak histogram and by one result; a part is at most its whole; and each
    /// count of events is at most the events applied. (What every real run's days satisfy.)
    func problem(users n: Int, at path: String) -> String? {
        var problem: String?
        func require(_ ok: Bool, _ key: CodingKeys, _ message: @autoclosure () -> String) {
            if problem == nil, !ok { problem = "\(path).\(key.rawValue): \(message())" }
        }
        let most = PressureLimits.maxRemindersPerDay
        let counted = [
            commitments, habitDone, exits, deepens, proceeds, shields, earned.habitsDone, earned.choices, earned.gateOpens,
            earned.unblockedOpens, earned.gaveUp, habitSkips, freezesEquipped, freezesUsed, habitLate,
        ].reduce(0, +)
        let pressure = pressureUsers
        require(users == n, .users, "\(users), but the report covers \(n) users")
        require(tiers.count == 4, .tiers, "expected 4 counts (tiers 0 to 3), found \(tiers.count)")
        require(pressure <= n, .tiers, "counts \(pressure) users, but the report covers \(n)")
        require(active <= n, .active, "\(active), expected at most the report's \(n) users")
        require(habitUsers <= n, .habitUsers, "\(habitUsers), expected at most the report's \(n) users")
        require(migaUsers <= n, .migaUsers, "\(migaUsers), expected at most the report's \(n) users")
        require(
            streaks.reduce(0, +) == pressure, .streaks,
            "counts \(streaks.reduce(0, +)) users, but the tiers count \(pressure) (each Pressure user once)")
        // One result for each user, or none for a user whose zone skips the date (Pacific/Apia, 2011-12-30).
        require(
            yes + no + missed <= pressure, .yes,
            "YES \(yes) + NO \(no) + MISSED \(missed) = \(yes + no + missed) results, "
                + "expected at most one for each of the day's \(pressure) Pressure users")
        require(
            commitments <= pressure, .commitments, "\(commitments), expected at most one for each of the day's \(pressure) Pressure users")
        require(yes + no <= commitments, .yes, "YES \(yes) + NO \(no) check-ins, expected at most the \(commitments) commitments")
        require(shields <= no + missed, .shields, "\(shields), expected at most the day's NO \(no) + MISSED \(missed)")
        require(habitDone <= habitPlanned, .habitDone, "\(habitDone), expected at most habit_planned \(habitPlanned)")
        require(
            maxReminders <= most, .maxReminders,
            "\(maxReminders), expected at most \(most) (the escalation document's most reminders a day)")
        require(maxReminders <= reminders, .maxReminders, "\(maxReminders), expected at most the day's \(reminders) reminders")
        require(
            reminders <= maxReminders * pressure, .reminders,
            "\(reminders), expected at most max_reminders \(maxReminders) × \(pressure) Pressure users")
        require(refused <= events, .refused, "\(refused), expected at most the \(events) events")
        require(
            events >= counted + max(active, refused), .events,
            "\(events), expected at least \(counted + max(active, refused)): "
                + "one end-of-day tick for each of the \(active) active users (or the \(refused) refused events), plus the events counted apart "
                + "(commitments, habit_done, exits_to_focus, deepen_pause, proceed_to_app, shields, habit_skips, freezes_equipped, "
                + "freezes_used, habit_late, and earned's habits_done, choices, gate_opens, unblocked_opens, gave_up)")
        require(scores.count <= 101, .scores, "\(scores.count) counts, expected at most 101 (scores 0% to 100%)")
        let streaked = earnedStreaks.reduce(0, +)
        require(
            streaked <= active, .earnedStreaks,
            "counts \(streaked) users, expected at most one for each of the day's \(active) active users")
        for metric in team where problem == nil {
            problem = metric.problem(users: n, at: "\(path).\(CodingKeys.team.rawValue).\(metric.id)")
        }
        if problem == nil, n == 0 {
            var rest = self
            (rest.streaks, rest.earned.balances) = ([], [])
            rest.team = rest.team.filter { $0 != TeamMetricTotals(id: $0.id) }
            if rest != DayTotals() { problem = "\(path): has counts, but the report covers no user (expected every count 0)" }
        }
        return problem ?? earned.problem(users: n, at: "\(path).\(CodingKeys.earned.rawValue)")
    }

    /// Pressure's users on the day (each on one tier).
    package var pressureUsers: Int { tiers.reduce(0, +) }

    /// The smallest current streak that at least `p` percent of the habit tasks have or are below.
    package func habitStreakPercentile(_ p: Int) -> Int { Histogram.percentile(p, of: habitStreaks) }

    /// The smallest qualifying-day streak that at least `p` percent of Earned's users have or are below.
    package func earnedStreakPercentile(_ p: Int) -> Int { Histogram.percentile(p, of: earnedStreaks) }

    /// The smallest streak that at least `p` percent of Pressure's users have or are below (nearest rank).
    package func streakPercentile(_ p: Int) -> Int { Histogram.percentile(p, of: streaks) }
}

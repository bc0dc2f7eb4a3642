/// The whole run at a glance, computed from the per-day totals.
package struct ReportSummary: Sendable, Equatable {
    package var users: Int
    package var days: Int
    package var userDays: Int
    /// The user-days of the users of Pressure, the habit tracker and MIGA (Earned's: `earnedUserDays`).
    package var pressureUserDays: Int
    package var habitUserDays: Int
    package var migaUserDays: Int
    /// The users still active at the end of each day (who have not left).
    package var activeByDay: [Int]
    package var events: Int
    package var refused: Int
    package var commitments: Int
    package var yes: Int
    package var no: Int
    package var missed: Int
    package var reminders: Int
    package var maxRemindersPerUserDay: Int
    /// User-days spent on each tier (0…3).
    package var userDaysAtTier: [Int]
    package var shields: Int
    package var habitDone: Int
    package var habitPlanned: Int
    package var exits: Int
    package var deepens: Int
    package var proceeds: Int
    /// The current streaks at the end of the last day.
    package var finalStreaks: DayTotals
    /// Earned over the whole run (its balance histogram counts user-days), and on the last day.
    package var earned: EconomyTotals
    package var finalEarned: EconomyTotals
    /// The run's totals (for the habit skips, freezes and late completions).
    package var habitTotals: DayTotals

    package init(_ report: SimulationReport) {
        var total = DayTotals()
        var atTier = [0, 0, 0, 0]
        for day in report.days {
            total.add(day)
            for t in atTier.indices { atTier[t] += day.tiers[t] }
        }
        users = report.userCount
        days = report.days.count
        userDays = users * days
        pressureUserDays = atTier.reduce(0, +)
        habitUserDays = total.habitUsers
        migaUserDays = total.migaUsers
        activeByDay = report.days.map(\.active)
        events = total.events
        refused = total.refused
        commitments = total.commitments
        yes = total.yes
        no = total.no
        missed = total.missed
        reminders = total.reminders
        maxRemindersPerUserDay = total.maxReminders
        userDaysAtTier = atTier
        shields = total.shields
        habitDone = total.habitDone
        habitPlanned = total.habitPlanned
        exits = total.exits
        deepens = total.deepens
        proceeds = total.proceeds
        finalStreaks = report.days.last ?? DayTotals()
        earned = total.earned
        finalEarned = finalStreaks.earned
        habitTotals = total
    }

    /// Users of Earned (counted on the last day), and their user-days.
    package var earnedUsers: Int { finalEarned.users }
    package var earnedUserDays: Int { earned.users }

    /// `n` per Earned user-day.
    package func perEarnedUserDay(_ n: Int) -> Double { earnedUserDays == 0 ? 0 : Double(n) / Double(earnedUserDays) }

    /// Credits spent per credit unlock (the average price paid).
    package var creditsPerCreditUnlock: Double {
        earned.unlocks[.credits] == 0 ? 0 : Double(earned.creditsSpent) / Double(earned.unlocks[.credits])
    }

    /// The share of the users still active at the end of day `day` (1-based; of the last day in a
    /// shorter run).
    package func retained(onDay day: Int) -> Double {
        guard users > 0, let last = activeByDay.indices.last else { return 0 }
        return Double(activeByDay[min(day - 1, last)]) / Double(users)
    }

    /// Whether any user left.
    package var anyLeft: Bool { activeByDay.contains { $0 < users } }

    /// `n` per Pressure user-day.
    package func perPressureUserDay(_ n: Int) -> Double { pressureUserDays == 0 ? 0 : Double(n) / Double(pressureUserDays) }

    package var remindersPerUserDay: Double { perPressureUserDay(reminders) }
    package var habitRate: Double { habitPlanned == 0 ? 0 : Double(habitDone) / Double(habitPlanned) }
    package var yesRate: Double { yes + no + missed == 0 ? 0 : Double(yes) / Double(yes + no + missed) }

    /// The final streaks in buckets: 0, 1–2, 3–6, 7–13, 14–29, 30 and more.
    package var streakBuckets: [(String, Int)] { Self.streakBuckets(finalStreaks.streaks) }

    /// The users of a histogram of streaks (`counts[v]` users have a streak of v days) in buckets.
    package static func streakBuckets(_ counts: [Int]) -> [(String, Int)] {
        let bounds = [(0, 0, "0"), (1, 2, "1-2"), (3, 6, "3-6"), (7, 13, "7-13"), (14, 29, "14-29"), (30, Int.max, "30+")]
        return bounds.map { low, high, name in
            (name, counts.enumerated().filter { $0.offset >= low && $0.offset <= high }.reduce(0) { $0 + $1.element })
        }
    }
}

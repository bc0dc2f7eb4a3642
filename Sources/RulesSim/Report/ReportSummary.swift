/// The whole run at a glance, computed from the per-day totals.
public struct ReportSummary: Sendable, Equatable {
    public var users: Int
    public var days: Int
    public var userDays: Int
    public var events: Int
    public var refused: Int
    public var commitments: Int
    public var yes: Int
    public var no: Int
    public var missed: Int
    public var reminders: Int
    public var maxRemindersPerUserDay: Int
    /// User-days spent on each tier (0…3).
    public var userDaysAtTier: [Int]
    public var shields: Int
    public var habitDone: Int
    public var habitPlanned: Int
    public var exits: Int
    public var deepens: Int
    public var proceeds: Int
    /// The current streaks at the end of the last day.
    public var finalStreaks: DayTotals
    /// Earned over the whole run (its balance histogram counts user-days), and on the last day.
    public var earned: EconomyTotals
    public var finalEarned: EconomyTotals
    /// The run's totals (for the habit skips, freezes and late completions).
    public var habitTotals: DayTotals

    public init(_ report: SimulationReport) {
        var total = DayTotals()
        var atTier = [0, 0, 0, 0]
        for day in report.days {
            total.add(day)
            for t in atTier.indices { atTier[t] += day.tiers[t] }
        }
        users = report.userCount
        days = report.days.count
        userDays = users * days
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
    public var earnedUsers: Int { finalEarned.users }
    public var earnedUserDays: Int { earned.users }

    /// `n` per Earned user-day.
    public func perEarnedUserDay(_ n: Int) -> Double { earnedUserDays == 0 ? 0 : Double(n) / Double(earnedUserDays) }

    /// Credits spent per credit unlock (the average price paid).
    public var creditsPerCreditUnlock: Double {
        earned.unlocks[.credits] == 0 ? 0 : Double(earned.creditsSpent) / Double(earned.unlocks[.credits])
    }

    public var remindersPerUserDay: Double { userDays == 0 ? 0 : Double(reminders) / Double(userDays) }
    public var habitRate: Double { habitPlanned == 0 ? 0 : Double(habitDone) / Double(habitPlanned) }
    public var yesRate: Double { yes + no + missed == 0 ? 0 : Double(yes) / Double(yes + no + missed) }

    /// The final streaks in buckets: 0, 1–2, 3–6, 7–13, 14–29, 30 and more.
    public var streakBuckets: [(String, Int)] {
        let bounds = [(0, 0, "0"), (1, 2, "1-2"), (3, 6, "3-6"), (7, 13, "7-13"), (14, 29, "14-29"), (30, Int.max, "30+")]
        return bounds.map { low, high, name in
            (name, finalStreaks.streaks.enumerated().filter { $0.offset >= low && $0.offset <= high }.reduce(0) { $0 + $1.element })
        }
    }
}

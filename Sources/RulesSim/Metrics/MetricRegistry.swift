/// Every metric, declared once (``Metric``), and the lists the reports print, in their order:
/// ``summary`` (`compare`'s population half, `simulate --replicas`' summary, `simulate --html`'s
/// figures, `sweep`), ``perDay`` (the day-by-day series of `simulate --replicas` and `compare`, and
/// their charts), ``watch`` (`watch --simulate`) and ``sweepDefaults``. A metric is in the lists it
/// is named in; `sweep --metric` takes any metric with a whole-run value (``all``).
package enum MetricRegistry {
    /// The whole run's figures, in the order reports list them: Pressure's and the habit tracker's
    /// and MIGA's, then Earned's.
    package static let summary: [Metric] =
        [.refusedEvents, .retainedDay7, .retainedDay30, .yesRate, .missedPerUserDay] + Metric.userDaysAtTier
        + [
            .remindersPerUserDay, .maxRemindersPerUserDay, .shieldsUsed, .finalStreakP50, .finalStreakP90, .habitCompletionRate,
            .habitStreakP50, .habitStreakP90, .exitsToFocus,
        ]
        + [
            .creditsEarnedPerUserDay, .creditsSpentPerUserDay, .creditsForfeitedPerUserDay, .creditsPerCreditUnlock,
            .unlocksPerUserDay, .creditUnlocksPerUserDay, .questUnlocksPerUserDay, .emergencyUnlocksPerUserDay, .denialShare,
            .gaveUpPerUserDay, .balanceP50, .balanceP90, .earnedStreakP50, .earnedStreakP90,
        ]

    /// The per-day series, in the order reports list them: users on each tier, the day's YES rate,
    /// reminders, the current streak's p50 and p90, then Earned's credits, unlocks and qualifying-day streak.
    package static let perDay: [Metric] =
        [.activeShare] + Metric.userDaysAtTier + [.yesRate, .remindersPerUserDay, .streakP50, .streakP90]
        + [.creditsEarnedPerUserDay, .creditsSpentPerUserDay, .creditsForfeitedPerUserDay, .unlocksPerUserDay]
        + [.earnedStreakP50, .earnedStreakP90]

    /// What `watch --simulate` prints at each cycle, with its change since the last good version.
    package static let watch: [Metric] = [
        .events, .refusedEvents, .retainedDay30, .yesRate, .no, .missed, .userDaysAtTier3Count, .remindersPerUserDay, .shieldsUsed,
        .habitCompletionRate, .finalStreakP50, .finalStreakP90, .exitsToFocus, .creditsEarned, .creditsSpent, .creditsForfeited,
        .unlocks, .denials,
    ]

    /// What `sweep` reports without `--metric` (it takes any metric with a whole-run value).
    package static let sweepDefaults: [Metric] = [
        .yesRate, Metric.userDaysAtTier[3], .remindersPerUserDay, .finalStreakP50, .habitCompletionRate, .habitStreakP50,
        .creditsSpentPerUserDay, .retainedDay30,
    ]

    /// Every metric named in a list above, once, in their order.
    package static let all: [Metric] = {
        var seen = Set<String>()
        return (summary + perDay + watch + sweepDefaults).filter { seen.insert($0.id).inserted }
    }()

    /// `metrics`, then the `team`'s own, without those of apps not in `apps`, nor those a run of
    /// `days` days is too short for.
    package static func only(_ metrics: [Metric], team: [TeamMetric] = [], apps: Set<Metric.App>, days: Int = .max) -> [Metric] {
        (metrics + team.map(\.metric)).filter { apps.contains($0.app) && $0.minimumDays <= days }
    }

    /// The team's metrics (`metrics.lua`) that every one of `reports` computed, in the first's order.
    package static func team(of reports: [SimulationReport]) -> [TeamMetric] {
        guard let first = reports.first else { return [] }
        return first.teamMetrics.filter { m in reports.allSatisfy { $0.teamMetrics.contains(m) } }
    }

    /// The metric whose id or label is `name`.
    package static func metric(named name: String) -> Metric? {
        all.first { $0.id == name || $0.label == name } ?? all.first { $0.formerLabel == name }
    }
}

// MARK: - The metrics

extension Metric.Ratio {
    /// `n` per Pressure user-day.
    static func perPressureUserDay(_ n: @escaping @Sendable (ReportSummary) -> Int) -> Self {
        .init({ Double(n($0)) }, per: { Double($0.pressureUserDays) })
    }

    /// Whether each user is still active at the end of day `day`, per user followed that long
    /// (a user followed fewer days counts in neither sum: `analyze` leaves out users too new).
    static func retained(onDay day: Int) -> Self {
        .init(perUser: { s in s.days >= day ? Double(s.activeByDay[day - 1]) : 0 }, followed: { s in s.days >= day ? Double(s.users) : 0 })
    }
}

private func share(_ n: Int, _ of: Int) -> Double { of == 0 ? 0 : Double(n) / Double(of) }

extension Metric {
    // The cohort: who is still active (the leaving response).

    /// Users still active at the end of the day (who have not left), of the cohort's.
    package static let activeShare = Metric(
        "active_share", "active users", unit: .share, app: .cohort, ratio: .init(perUser: { Double($0.activeByDay.last ?? 0) }),
        summary: { $0.retained(onDay: $0.days) },
        day: { share($0.active, $0.users) })
    package static let retainedDay7 = Metric(
        "retained_day_7", "retained on day 7", unit: .share, app: .cohort, minimumDays: 7, ratio: .retained(onDay: 7), summary: { $0.retained(onDay: 7) })
    package static let retainedDay30 = Metric(
        "retained_day_30", "retained on day 30", unit: .share, app: .cohort, minimumDays: 30, ratio: .retained(onDay: 30), summary: { $0.retained(onDay: 30) })

    // Pressure: events, check-ins, tiers, reminders, shields, streaks.

    /// Events applied (every app's, the end-of-day ticks among them).
    package static let events = Metric(
        "events", "events applied", unit: .count, app: .pressure, kind: .total, summary: { Double($0.events) })
    /// Events the engine refused (rule errors among them: a rule that fails refuses the event).
    package static let refusedEvents = Metric(
        "refused_events", "refused events", unit: .count, app: .pressure, kind: .total, summary: { Double($0.refused) })
    /// YES check-ins among the results (YES, NO, MISSED).
    package static let yesRate = Metric(
        "yes_rate", "YES rate", unit: .share, app: .pressure,
        ratio: .init({ Double($0.yes) }, per: { Double($0.yes + $0.no + $0.missed) }), summary: { $0.yesRate },
        day: { share($0.yes, $0.yes + $0.no + $0.missed) })
    package static let no = Metric("no", "NO", unit: .count, app: .pressure, kind: .total, summary: { Double($0.no) })
    package static let missed = Metric(
        "missed", "MISSED", unit: .count, app: .pressure, kind: .total, summary: { Double($0.missed) })
    package static let missedPerUserDay = Metric(
        "missed_per_user_day", "MISSED per user-day", unit: .share, app: .pressure, ratio: .perPressureUserDay { $0.missed }, summary: { $0.perPressureUserDay($0.missed) })
    /// The share of user-days on each tier (0…3); a day's: the users on it at the end of the day.
    package static let userDaysAtTier: [Metric] = (0...3).map { tier in
        Metric(
            "user_days_at_tier_\(tier)", "user-days at tier \(tier)", unit: .share, app: .pressure, seriesKey: "tier \(tier)",
            ratio: .perPressureUserDay { $0.userDaysAtTier[tier] },
            summary: { $0.perPressureUserDay($0.userDaysAtTier[tier]) }, day: { share($0.tiers[tier], $0.pressureUsers) })
    }
    package static let userDaysAtTier3Count = Metric(
        "user_days_at_tier_3_count", "user-days at tier 3 (count)", unit: .count, app: .pressure, kind: .total,
        summary: { Double($0.userDaysAtTier[3]) })
    package static let remindersPerUserDay = Metric(
        "reminders_per_user_day", "reminders per user-day", unit: .perUserDay, app: .pressure, seriesKey: "reminders per user",
        ratio: .perPressureUserDay { $0.reminders },
        summary: { $0.remindersPerUserDay }, day: { share($0.reminders, $0.pressureUsers) })
    package static let maxRemindersPerUserDay = Metric(
        "max_reminders_per_user_day", "most reminders in a user-day", unit: .count, app: .pressure, kind: .extreme,
        summary: { Double($0.maxRemindersPerUserDay) }, day: { Double($0.maxReminders) })
    package static let shieldsUsed = Metric(
        "shields_used", "restart shields used", unit: .count, app: .pressure, kind: .total, summary: { Double($0.shields) })
    /// The current streaks at the end of the run (the last day's).
    package static let finalStreakP50 = Metric(
        "final_streak_p50", "Pressure final streak p50", unit: .days, app: .pressure, formerLabel: "final streak p50",
        quantile: .init(percentile: 50) { $0.finalStreaks.streaks }, summary: { Double($0.finalStreaks.streakPercentile(50)) })
    package static let finalStreakP90 = Metric(
        "final_streak_p90", "Pressure final streak p90", unit: .days, app: .pressure, formerLabel: "final streak p90",
        quantile: .init(percentile: 90) { $0.finalStreaks.streaks }, summary: { Double($0.finalStreaks.streakPercentile(90)) })
    /// The current streaks at the end of each day (no whole-run value: the run's is the final streak).
    package static let streakP50 = Metric(
        "streak_p50", "Pressure streak p50", unit: .days, app: .pressure, seriesKey: "streak p50", day: { Double($0.streakPercentile(50)) })
    package static let streakP90 = Metric(
        "streak_p90", "Pressure streak p90", unit: .days, app: .pressure, seriesKey: "streak p90", day: { Double($0.streakPercentile(90)) })

    // The habit tracker and MIGA.

    /// The habit tasks' current streaks (the rule set's) at the end of the run, and of each day.
    package static let habitStreakP50 = Metric(
        "habit_streak_p50", "habit streak p50", unit: .days, app: .habits,
        summary: { Double($0.finalStreaks.habitStreakPercentile(50)) }, day: { Double($0.habitStreakPercentile(50)) })
    package static let habitStreakP90 = Metric(
        "habit_streak_p90", "habit streak p90", unit: .days, app: .habits,
        summary: { Double($0.finalStreaks.habitStreakPercentile(90)) }, day: { Double($0.habitStreakPercentile(90)) })

    package static let habitCompletionRate = Metric(
        "habit_completion_rate", "habit completion rate", unit: .share, app: .habits,
        ratio: .init({ Double($0.habitDone) }, per: { Double($0.habitPlanned) }), summary: { $0.habitRate },
        day: { share($0.habitDone, $0.habitPlanned) })
    package static let exitsToFocus = Metric(
        "exits_to_focus", "MIGA exits to focus", unit: .count, app: .miga, kind: .total, formerLabel: "exits to focus",
        summary: { Double($0.exits) })

    // Earned, per Earned user-day (the users whose persona uses Earned), or in all.

    private static func perEarnedUserDay(
        _ id: String, _ label: String, seriesKey: String? = nil, _ count: @escaping @Sendable (EconomyTotals) -> Int
    ) -> Metric {
        Metric(
            id, label, unit: .perUserDay, app: .earned, seriesKey: seriesKey,
            ratio: .init({ Double(count($0.earned)) }, per: { Double($0.earnedUserDays) }), summary: { $0.perEarnedUserDay(count($0.earned)) },
            day: { share(count($0.earned), $0.earned.users) })
    }
    private static func earnedTotal(
        _ id: String, _ label: String, unit: Unit, _ count: @escaping @Sendable (EconomyTotals) -> Int
    ) -> Metric {
        Metric(id, label, unit: unit, app: .earned, kind: .total, summary: { Double(count($0.earned)) })
    }

    package static let creditsEarnedPerUserDay = perEarnedUserDay(
        "credits_earned_per_user_day", "credits earned per user-day", seriesKey: "credits earned per user"
    ) { $0.creditsEarned }
    package static let creditsSpentPerUserDay = perEarnedUserDay(
        "credits_spent_per_user_day", "credits spent per user-day", seriesKey: "credits spent per user"
    ) { $0.creditsSpent }
    package static let creditsForfeitedPerUserDay = perEarnedUserDay(
        "credits_forfeited_per_user_day", "credits forfeited per user-day", seriesKey: "credits forfeited per user"
    ) { $0.creditsForfeited }
    package static let creditsPerCreditUnlock = Metric(
        "credits_per_credit_unlock", "credits per credit unlock", unit: .creditsPerUnlock, app: .earned,
        ratio: .init({ Double($0.earned.creditsSpent) }, per: { Double($0.earned.unlocks[.credits]) }),
        summary: { $0.creditsPerCreditUnlock })
    package static let unlocksPerUserDay = perEarnedUserDay(
        "unlocks_per_user_day", "unlocks per user-day", seriesKey: "unlocks per user"
    ) { $0.unlocks.total }
    package static let creditUnlocksPerUserDay = perEarnedUserDay("credit_unlocks_per_user_day", "credit unlocks per user-day") {
        $0.unlocks[.credits]
    }
    package static let questUnlocksPerUserDay = perEarnedUserDay("quest_unlocks_per_user_day", "quest unlocks per user-day") {
        $0.unlocks[.quest]
    }
    package static let emergencyUnlocksPerUserDay = perEarnedUserDay(
        "emergency_unlocks_per_user_day", "emergency unlocks per user-day"
    ) { $0.unlocks[.emergency] }
    /// Denied choices among the choices made at the gate.
    package static let denialShare = Metric(
        "denial_share", "denied choices at the gate", unit: .share, app: .earned,
        ratio: .init({ Double($0.earned.denials.total) }, per: { Double($0.earned.choices) }), summary: { $0.earned.denialShare })
    package static let gaveUpPerUserDay = perEarnedUserDay("gave_up_per_user_day", "gave up at the gate per user-day") {
        $0.gaveUp
    }
    /// Earned users' balances at the end of each day (before the rollover), over every user-day.
    package static let balanceP50 = Metric(
        "balance_p50", "end-of-day balance p50", unit: .credits, app: .earned,
        summary: { Double($0.earned.balancePercentile(50)) },
        day: { Double($0.earned.balancePercentile(50)) })
    package static let balanceP90 = Metric(
        "balance_p90", "end-of-day balance p90", unit: .credits, app: .earned,
        summary: { Double($0.earned.balancePercentile(90)) },
        day: { Double($0.earned.balancePercentile(90)) })
    /// Earned's qualifying-day streak (days in a row that qualified, as `earned.day_ends` carries it:
    /// freezes included) of each Earned user when its day ends; the run's: the last day's.
    package static let earnedStreakP50 = Metric(
        "earned_streak_p50", "Earned qualifying-day streak p50", unit: .days, app: .earned,
        quantile: .init(percentile: 50) { $0.finalStreaks.earnedStreaks },
        summary: { Double($0.finalStreaks.earnedStreakPercentile(50)) }, day: { Double($0.earnedStreakPercentile(50)) })
    package static let earnedStreakP90 = Metric(
        "earned_streak_p90", "Earned qualifying-day streak p90", unit: .days, app: .earned,
        quantile: .init(percentile: 90) { $0.finalStreaks.earnedStreaks },
        summary: { Double($0.finalStreaks.earnedStreakPercentile(90)) }, day: { Double($0.earnedStreakPercentile(90)) })
    package static let creditsEarned = earnedTotal("credits_earned", "credits earned", unit: .credits) { $0.creditsEarned }
    package static let creditsSpent = earnedTotal("credits_spent", "credits spent", unit: .credits) { $0.creditsSpent }
    package static let creditsForfeited = earnedTotal("credits_forfeited", "credits forfeited", unit: .credits) {
        $0.creditsForfeited
    }
    package static let unlocks = earnedTotal("unlocks", "unlocks", unit: .count) { $0.unlocks.total }
    package static let denials = earnedTotal("denials", "denials", unit: .count) { $0.denials.total }
}

import Foundation
import RulesModel

/// The charts of a simulation report, as the HTML page (`simulate --html`) and the SVG file
/// (`--chart`) draw them: Pressure (tier shares, check-ins, reminders per user, current-streak
/// percentiles, and the final streaks as bars) and Earned (credits per Earned user, balance
/// percentiles, and per Earned user unlocks by method, denials by reason, quests by outcome; the
/// qualifying-day streak's percentiles: the units of `simulate --replicas`' charts). Each series is
/// computed per day from the report's counts, then taken to the axis's points (a mean per ISO
/// week for runs over 60 days). A series' key names the day's JSON it comes from. A series that is a
/// registry metric's per-day value (``MetricRegistry``: reminders, streaks, credits, balances) is
/// read through it; the shares are computed here in percent (× 100 before the division, as drawn
/// since the first version).
package struct ReportCharts: Sendable {
    package let report: SimulationReport
    package let axis: TimeAxis

    package init(_ report: SimulationReport, weekly: Bool? = nil) {
        self.report = report
        let start = (try? DayID(report.run.start)) ?? SimulationConfig.defaultStart
        axis = TimeAxis(start: start, days: report.days.count, weekly: weekly)
    }

    static let tierColors = ["#2e7d32", "#1e88e5", "#fb8c00", "#c62828"]

    /// Whether any day counts an Earned user.
    package var hasEarned: Bool { report.days.contains { $0.earned.users > 0 } }

    private func line(_ key: String, _ name: String, _ color: String, _ daily: (DayTotals) -> Double) -> ChartSeries {
        ChartSeries(key: key, name: name, color: color, values: axis.aggregate(report.days.map(daily)))
    }

    /// A registry metric's per-day values.
    private func line(_ key: String, _ name: String, _ color: String, _ metric: Metric) -> ChartSeries {
        line(key, name, color) { metric.value($0) }
    }

    private static func ratio(_ part: Int, _ whole: Int, scale: Double = 1) -> Double {
        whole == 0 ? 0 : scale * Double(part) / Double(whole)
    }

    /// The users still active (who have not left).
    package var active: LineChart {
        LineChart(
            title: "Users still active (who have not left)", unit: "% of users", axis: axis,
            series: [line("active", "active", "#455a64") { Self.ratio($0.active, $0.users, scale: 100) }], maxValue: 100)
    }

    /// One chart per team metric (`metrics.lua`): its value on each day.
    package var team: [LineChart] {
        report.teamMetrics.map { m in
            let metric = m.metric
            let scale = metric.isShare ? 100.0 : 1
            return LineChart(
                title: "\(m.label) (the team's metric \(m.id), \(m.aggregate.name))", unit: metric.isShare ? "% of users" : m.unitName,
                axis: axis, series: [line("team_metrics.\(m.id)", m.label, "#6a1b9a") { scale * metric.value($0) }])
        }
    }

    package var tiers: LineChart {
        LineChart(
            title: "Users on each escalation tier", unit: "% of users", axis: axis,
            series: (0..<4).map { t in line("tiers.\(t)", "tier \(t)", Self.tierColors[t]) { Self.ratio($0.tiers[t], $0.pressureUsers, scale: 100) }
            },
            maxValue: 100)
    }

    package var checkIns: LineChart {
        let results: (DayTotals) -> Int = { $0.yes + $0.no + $0.missed }
        return LineChart(
            title: "The day's results: YES and NO check-ins, MISSED days", unit: "% of the day's results", axis: axis,
            series: [
                line("yes", "YES", "#2e7d32") { Self.ratio($0.yes, results($0), scale: 100) },
                line("no", "NO", "#c62828") { Self.ratio($0.no, results($0), scale: 100) },
                line("missed", "MISSED", "#757575") { Self.ratio($0.missed, results($0), scale: 100) },
            ], maxValue: 100)
    }

    package var reminders: LineChart {
        LineChart(
            title: "Reminders sent", unit: "reminders per user per day", axis: axis,
            series: [
                line("reminders", "reminders / user", "#00838f", .remindersPerUserDay),
                line("max_reminders", "most to one user", "#80cbc4", .maxRemindersPerUserDay),
            ])
    }

    package var streaks: LineChart {
        LineChart(
            title: "Current streak at the end of the day", unit: "days", axis: axis,
            series: [
                line("streak_p50", "median (p50)", "#6a1b9a", .streakP50),
                line("streak_p90", "90th percentile", "#ce93d8", .streakP90),
            ])
    }

    /// The users by current streak at the end of the last day, in the summary's buckets.
    package var finalStreaks: BarChart {
        let buckets = ReportSummary(report).streakBuckets
        return BarChart(
            title: "Current streak at the end of the last day", note: report.run.days == 0 ? "" : "\(axis.date(max(0, axis.days - 1)))",
            unit: "users", categoryUnit: "current streak (days)", categories: buckets.map(\.0),
            series: ChartSeries(key: "final_streak", name: "users", color: "#6a1b9a", values: buckets.map { Double($0.1) }))
    }

    package var credits: LineChart {
        LineChart(
            title: "Earned credits", unit: "credits per Earned user per day", axis: axis,
            series: [
                line("earned.credits_earned", "earned", "#2e7d32", .creditsEarnedPerUserDay),
                line("earned.credits_spent", "spent", "#1e88e5", .creditsSpentPerUserDay),
                line("earned.credits_forfeited", "forfeited at rollover", "#c62828", .creditsForfeitedPerUserDay),
            ])
    }

    package var balances: LineChart {
        LineChart(
            title: "Credit balance at the end of the day (Earned users)", unit: "credits", axis: axis,
            series: [
                line("earned.balance_p50", "median (p50)", "#ef6c00", .balanceP50),
                line("earned.balance_p90", "90th percentile", "#ffb74d", .balanceP90),
            ])
    }

    /// Earned's qualifying-day streak when each user's day ends (the rollover's `streak_count`).
    package var earnedStreaks: LineChart {
        LineChart(
            title: "Earned qualifying-day streak when the day ends", unit: "days", axis: axis,
            series: [
                line("earned_streak_p50", "median (p50)", "#ef6c00", .earnedStreakP50),
                line("earned_streak_p90", "90th percentile", "#ffb74d", .earnedStreakP90),
            ])
    }

    private static let caseColors = ["#1e88e5", "#2e7d32", "#c62828", "#8e24aa", "#f9a825", "#6d4c41"]

    private func counts<K: CaseIterable & RawRepresentable & Sendable>(
        _ title: String, _ unit: String, _ group: String, _ get: @escaping (EconomyTotals) -> CaseCounts<K>
    ) -> LineChart
    where K.RawValue == String {
        LineChart(
            title: title, unit: unit, axis: axis,
            series: K.allCases.enumerated().map { i, k in
                line(
                    "earned.\(group).\(k.rawValue)", k.rawValue.lowercased().replacingOccurrences(of: "_", with: " "),
                    Self.caseColors[i % Self.caseColors.count]
                ) { Self.ratio(get($0.earned)[k], $0.earned.users) }
            })
    }

    package var unlocks: LineChart { counts("Unlocks granted, by method", "unlocks per Earned user per day", "unlocks") { $0.unlocks } }
    package var denials: LineChart { counts("Unlocks denied, by reason", "denials per Earned user per day", "denials") { $0.denials } }
    package var quests: LineChart { counts("Quests ended, by outcome", "quests per Earned user per day", "quests") { $0.quests } }

    package var pressure: [LineChart] { [tiers, checkIns, reminders, streaks] }
    package var earned: [LineChart] { [credits, balances, unlocks, denials, quests, earnedStreaks] }
}

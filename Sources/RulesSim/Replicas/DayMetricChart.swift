/// A chart of per-day series (``MetricRegistry/perDay``) that share a unit: how `simulate
/// --replicas --html` (each series' mean with its interval band) and `compare --html` (A and B
/// overlaid) draw the days. Shares are drawn in percent.
package struct DayMetricChart: Sendable {
    /// One line: the ``Metric`` it draws, its name in the legend and its colour.
    package struct Line: Sendable {
        package var metric: Metric
        package var label: String
        package var color: String
    }

    package var title: String
    package var unit: String
    package var lines: [Line]
    /// Whether the series are shares (drawn × 100, on an axis up to 100 %).
    package var isShare: Bool { lines.allSatisfy(\.metric.isShare) }
    /// The app of the series (a chart is drawn only when the run has it).
    package var app: Metric.App { lines.first?.metric.app ?? .pressure }

    init(_ title: String, _ unit: String, _ lines: [(Metric, String, String)]) {
        self.title = title
        self.unit = unit
        self.lines = lines.map { Line(metric: $0.0, label: $0.1, color: $0.2) }
    }

    /// Every per-day series in a chart: the cohort's active users, Pressure's four charts, then Earned's three.
    package static let all: [DayMetricChart] = [
        DayMetricChart("Users still active (who have not left)", "% of users", [(.activeShare, "active", "#455a64")]),
        DayMetricChart(
            "Users on each escalation tier", "% of users",
            (0...3).map { (Metric.userDaysAtTier[$0], "tier \($0)", ReportCharts.tierColors[$0]) }),
        DayMetricChart("YES check-ins among the day's results", "% of the day's results", [(.yesRate, "YES", "#2e7d32")]),
        DayMetricChart("Reminders sent", "reminders per user per day", [(.remindersPerUserDay, "reminders / user", "#00838f")]),
        DayMetricChart(
            "Current streak at the end of the day", "days",
            [(.streakP50, "median (p50)", "#6a1b9a"), (.streakP90, "90th percentile", "#ce93d8")]),
        DayMetricChart(
            "Earned credits", "credits per Earned user per day",
            [
                (.creditsEarnedPerUserDay, "earned", "#2e7d32"), (.creditsSpentPerUserDay, "spent", "#1e88e5"),
                (.creditsForfeitedPerUserDay, "forfeited at rollover", "#c62828"),
            ]),
        DayMetricChart("Unlocks granted", "unlocks per Earned user per day", [(.unlocksPerUserDay, "unlocks / user", "#8e24aa")]),
        DayMetricChart(
            "Earned qualifying-day streak when the day ends", "days",
            [(.earnedStreakP50, "median (p50)", "#ef6c00"), (.earnedStreakP90, "90th percentile", "#ffb74d")]),
    ]

    /// The charts of a run whose apps are `apps`.
    package static func charts(apps: Set<Metric.App>) -> [DayMetricChart] { all.filter { apps.contains($0.app) } }

    /// The chart over `axis`, with the series `lines` makes of each line (values per day, in the
    /// metric's unit: shares as fractions), scaled and taken to the axis's points.
    package func chart(axis: TimeAxis, _ lines: (Line) -> [ChartSeries]) -> LineChart {
        let scale = isShare ? 100.0 : 1
        let series = self.lines.flatMap(lines).map { s in s.mapped { axis.aggregate($0.map { $0 * scale }) } }
        return LineChart(title: title, unit: unit, axis: axis, series: series, maxValue: isShare ? 100 : nil)
    }
}

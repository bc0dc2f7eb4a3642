/// An SVG file of a report's charts over the run's dates (``ReportCharts``): the users still
/// active, then, when the run has Pressure users, Pressure's tier shares, check-ins, reminders per user and current-streak
/// percentiles, then, when it has Earned users, credits per Earned user, balance percentiles, unlocks, denials and quests.
/// Plain SVG 1.1 that any browser renders; the same charts as `simulate --html`.
package struct SVGChart {
    package let report: SimulationReport

    package init(_ report: SimulationReport) { self.report = report }

    package func svg() -> String {
        let charts = ReportCharts(report)
        let apps = Metric.apps(of: ReportSummary(report))
        let drawn = [charts.active] + (apps.contains(.pressure) ? charts.pressure : []) + (charts.hasEarned ? charts.earned : [])
        let header = 64.0, width = drawn.first?.width ?? 1100
        var body = """
            <text x="20" y="26" font-size="18" font-weight="bold">\(SVGText.escape("rulesrun simulate \(report.run.duration): \(report.userCount) users, rule set “\(report.run.rules)” (\(report.run.engine))"))</text>
            <text x="20" y="46" fill="#555">\(SVGText.escape("personas \(report.run.personas), seed \(report.run.seed), from \(report.run.start)\(charts.hasEarned ? "" : "; no Earned user in this run"))"))</text>

            """
        var y = header
        for chart in drawn {
            body += chart.group(x: 0, y: y)
            y += chart.height + 10
        }
        return ChartFrame.document(body, width: width, height: y, declaration: true, label: "rulesrun simulate \(report.run.duration)")
    }
}

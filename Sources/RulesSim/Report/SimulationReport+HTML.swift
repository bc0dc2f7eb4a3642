import RulesEngine
import RulesModel

extension SimulationReport {
    /// The report as one self-contained HTML page (`simulate --html`): the run's parameters, the
    /// summary metrics (``MetricRegistry/summary``, as `simulate --replicas --html` lists them, in the same
    /// units), then Pressure's and Earned's charts over the run's dates (``ReportCharts``), and
    /// the JSON report (`--format json`) embedded once as `<script type="application/json"
    /// id="report">`, so that tools and tests read the numbers the charts were drawn from.
    package func html() -> String {
        let charts = ReportCharts(self)
        let s = ReportSummary(self)
        var page = HTMLPage(title: "rulesrun simulate \(run.duration): \(userCount) users, rule set “\(run.rules)”")
        let first = charts.axis.date(0), last = charts.axis.date(max(0, days.count - 1))
        page.paragraph(
            "What \(userCount) simulated users did under the rule set “\(run.rules)” from \(first) to \(last) (\(days.count) days). "
                + "Each chart's note says whether a point is a day or the mean of an ISO week (runs over \(TimeAxis.weeklyAbove) days).",
            className: "note")
        page.heading("The run")
        page.table(
            [
                ("rules", "\(run.rules) (\(run.engine == "lua" ? "Lua rule set" : "native reference rules"))"),
                (
                    "users",
                    userCount == run.users ? "\(run.users)" : "\(userCount) of \(run.users) (\(UserRange(run.usersFrom..<run.usersTo)))"
                ),
                (
                    "days",
                    "\(run.duration): \(days.count) days, \(first) (\(Self.weekdayName(first))) to \(last) (\(Self.weekdayName(last)))"
                ),
                ("personas", run.personas), ("seed", "\(run.seed)"), ("inputs digest", run.inputsDigest),
            ] + [("apps", Self.appUsers(s, Metric.apps(of: s)))]
                + (s.earnedUserDays > 0 ? [("Earned users", "\(s.earnedUsers) (\(s.earnedUserDays) user-days)")] : []))
        page.heading(Self.glanceHeading)
        page.paragraph(
            "The run's figures, as simulate --replicas lists them with their intervals. Shares in percent; per user-day: divided "
                + "by the users simulated each day (Earned's: by the users who use Earned)."
                + (failures.isEmpty ? "" : " Rule failures: \(failures.countsText)."),
            className: "note")
        page.grid(
            ["metric", "value"],
            MetricRegistry.only(MetricRegistry.summary, team: teamMetrics, apps: Metric.apps(of: s), days: s.days).map { m in
                [m.label, ReplicaReport.format(m.value(s), share: m.isShare)]
            })
        page.heading("Users")
        page.paragraph(Self.sectionNotes.cohort, className: "note")
        page.figure(charts.active.svg())
        if Metric.apps(of: s).contains(.pressure) {
            page.heading("Pressure")
            page.paragraph(Self.sectionNotes.pressure, className: "note")
            for chart in charts.pressure { page.figure(chart.svg()) }
            page.figure(charts.finalStreaks.svg())
        }
        page.heading("Earned")
        page.paragraph(Self.sectionNotes.earned, className: "note")
        if charts.hasEarned {
            for chart in charts.earned { page.figure(chart.svg()) }
        } else {
            page.paragraph(Self.sectionNotes.noEarned, className: "note")
        }
        if !teamMetrics.isEmpty {
            page.heading("The team's metrics")
            page.paragraph(
                "The metrics of \(RuleSet.metricsFileName) (or --metrics): each day's value, aggregated over that day's users as the "
                    + "metric's aggregate says.",
                className: "note")
            for chart in charts.team { page.figure(chart.svg()) }
        }
        breakdown?.html(&page)
        armBreakdown?.html(&page)
        page.heading("Data")
        page.paragraph(
            "The numbers of this page, as rulesrun simulate --format json prints them, are embedded in it: "
                + "the element <script type=\"application/json\" id=\"report\">. Each chart's line carries its values "
                + "(data-series, data-values).",
            className: "note")
        page.data(id: "report", json: json())
        return page.html()
    }

    /// The sections of a run's page, in order: this page's and `simulate --replicas --html`'s.
    static let glanceHeading = "At a glance"
    static let sectionNotes = (
        cohort: "The share of the users still active at the end of each day: a persona's leaving response makes a user leave "
            + "for good (it sends no more events); the apps' figures are over the active users.",
        pressure: "Each day a user sets (or not) a commitment and checks in YES or NO; a day without a check-in is MISSED. "
            + "The rule set moves each user between escalation tiers, from 0 (the least pressure) to 3 (the most), "
            + "and sends reminders by tier. Shares are of the users simulated that day.",
        earned: "Users whose persona uses Earned earn credits (focus sessions, habit completions, streak bonuses) and, when a "
            + "distracting app is blocked, unlock it with credits, a quest or an emergency unlock, or are denied; "
            + "credits above what the rules carry over are forfeited at the day's rollover. Per Earned user: "
            + "divided by the users who use Earned that day.",
        noEarned: "No simulated user used Earned in this run (its personas have no earned section)."
    )

    static func weekdayName(_ day: DayID) -> String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][day.isoWeekday - 1]
    }
}

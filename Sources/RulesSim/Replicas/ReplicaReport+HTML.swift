import RulesModel

extension ReplicaReport {
    /// The per-day charts (``DayMetricChart``): each series' mean over the replicas, with its 95 %
    /// interval as a band. Values with 4 decimals, as the JSON report holds them.
    var charts: [LineChart] { drawn.map(\.chart) }

    /// Each chart with its app.
    private var drawn: [(app: Metric.App, chart: LineChart)] {
        let axis = TimeAxis(start: (try? DayID(first.run.start)) ?? SimulationConfig.defaultStart, days: first.days.count)
        let byID = Dictionary(series.map { ($0.metric.id, $0.days) }, uniquingKeysWith: { first, _ in first })
        return DayMetricChart.charts(apps: apps).map { chart in
            (chart.app, chart.chart(axis: axis) { line in
                guard let days = byID[line.metric.id] else { return [] }
                return [
                    ChartSeries(
                        key: line.metric.seriesKey, name: line.label, color: line.color,
                        values: days.map { SimulationReport.round4($0.mean) },
                        low: days.map { SimulationReport.round4($0.low) }, high: days.map { SimulationReport.round4($0.high) })
                ]
            })
        }
    }

    /// The title of the page and the SVG.
    var title: String {
        "rulesrun simulate \(first.run.duration) --replicas \(reports.count): \(first.userCount) users each, rule set “\(first.run.rules)”"
    }

    /// The report as one self-contained HTML page (`simulate --replicas K --html`), in the sections
    /// and units of a single run's page: the run's parameters, each summary metric's mean with its
    /// 95 % interval, Pressure's and Earned's per-day series as means with interval bands, and the
    /// JSON report (`--format json`) embedded once as `<script type="application/json" id="report">`.
    package func html() -> String {
        let r = first.run
        let axis = TimeAxis(start: (try? DayID(r.start)) ?? SimulationConfig.defaultStart, days: first.days.count)
        let firstDay = axis.date(0), lastDay = axis.date(max(0, first.days.count - 1))
        var page = HTMLPage(title: title)
        page.paragraph(
            "\(reports.count) independent cohorts of \(first.userCount) simulated users (replicas: the same run with \(reports.count) "
                + "seeds) under the rule set “\(r.rules)” from \(firstDay) to \(lastDay) (\(first.days.count) days). Every figure is the mean "
                + "over the replicas with its 95% interval: a range that, 95 times in 100, holds the mean over endless cohorts.",
            className: "note")
        page.heading("The run")
        page.table(
            [
                ("rules", "\(r.rules) (\(r.engine == "lua" ? "Lua rule set" : "native reference rules"))"),
                ("users", "\(first.userCount) per replica"),
                ("replicas", "\(reports.count): seeds " + reports.map { String($0.run.seed) }.joined(separator: ", ")),
                (
                    "days",
                    "\(r.duration): \(first.days.count) days, \(firstDay) (\(SimulationReport.weekdayName(firstDay))) to \(lastDay) (\(SimulationReport.weekdayName(lastDay)))"
                ),
                ("personas", r.personas), ("inputs digest", r.inputsDigest), ("intervals", intervalNote),
            ])
        page.heading(SimulationReport.glanceHeading)
        page.paragraph(
            "Each figure's mean over the replicas with its 95% interval. Shares in percent; per user-day: divided by the users "
                + "simulated each day (Earned's: by the users who use Earned).",
            className: "note")
        page.grid(
            ["metric", "mean", "95% interval", "half-width"],
            summary.map { m, e, _ in
                [
                    m.label, Self.format(e.mean, share: m.isShare), Self.interval(e, share: m.isShare),
                    "±" + Self.format(e.halfWidth, share: m.isShare),
                ]
            })
        let bands =
            " Each line is the mean over the \(reports.count) replicas, its band the 95% interval of that day's mean."
        let drawn = self.drawn
        let apps = self.apps
        page.heading("Users")
        page.paragraph(SimulationReport.sectionNotes.cohort + bands, className: "note")
        for chart in drawn where chart.app == .cohort { page.figure(chart.chart.svg()) }
        if apps.contains(.pressure) {
            page.heading("Pressure")
            page.paragraph(SimulationReport.sectionNotes.pressure + bands, className: "note")
            for chart in drawn where chart.app == .pressure { page.figure(chart.chart.svg()) }
        }
        page.heading("Earned")
        page.paragraph(SimulationReport.sectionNotes.earned + bands, className: "note")
        if apps.contains(.earned) {
            for chart in drawn where chart.app == .earned { page.figure(chart.chart.svg()) }
        } else {
            page.paragraph(SimulationReport.sectionNotes.noEarned, className: "note")
        }
        breakdown?.html(&page)
        page.heading("Data")
        page.paragraph(
            "The numbers of this page, as rulesrun simulate --replicas \(reports.count) --format json prints them, are embedded in it: "
                + "the element <script type=\"application/json\" id=\"report\">. Each chart's line carries its means (data-series, "
                + "data-values), each band its bounds (data-band, data-low, data-high).",
            className: "note")
        page.data(id: "report", json: json())
        return page.html()
    }

    /// The same charts stacked in one SVG file under a title line (`simulate --replicas K --chart`).
    package func svg() -> String {
        let drawn = charts
        let width = drawn.first?.width ?? 1100
        var body = """
            <text x="20" y="26" font-size="18" font-weight="bold">\(SVGText.escape(title))</text>
            <text x="20" y="46" fill="#555">\(SVGText.escape("personas \(first.run.personas), \(intervalNote); bands: 95% intervals"))</text>

            """
        var y = 64.0
        for chart in drawn {
            body += chart.group(x: 0, y: y)
            y += chart.height + 10
        }
        return ChartFrame.document(body, width: width, height: y, declaration: true, label: title)
    }
}

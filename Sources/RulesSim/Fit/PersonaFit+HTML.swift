import Foundation
import RulesModel

extension PersonaFit {
    /// The fit as one self-contained HTML page (`fit --html`): the log and what it could not give;
    /// the numbers of segments tried; each segment's responses (or the one segment's), a table of
    /// parameters each; the unlock gate's choice; with `--check`, each metric of the held-out users
    /// against the simulated users' (a forest plot of the difference relative to the observed
    /// value, on one scale) and each per-day metric's two curves; and `json(log:rules:)` embedded
    /// once as `<script type="application/json" id="fit">`. The same fit gives the same bytes.
    package func html(log: String, rules: String) -> String {
        var page = HTMLPage(title: "rulesrun fit \(log)")
        page.paragraph(
            "A persona's responses estimated from the apps' event log \(log): each user replayed through the rules it ran under "
                + "(\(rules)), each response's parameters by maximum likelihood of the users' choices, with 95% Wald intervals; a "
                + "parameter the log cannot inform is said so, and the persona's value kept (docs/fit.md).",
            className: "note")
        logSection(&page, log: log)
        segmentsSection(&page)
        if segments.isEmpty {
            page.heading("Responses")
            for response in responses { responseSection(&page, response) }
        }
        for (s, segment) in segments.enumerated() {
            page.heading(
                "Segment \(s + 1) of \(segments.count): share \(String(format: "%.3f", segment.share)) "
                    + "[\(String(format: "%.3f", segment.low)), \(String(format: "%.3f", segment.high))]")
            for response in segment.responses { responseSection(&page, response) }
        }
        if let gate { gateSection(&page, gate) }
        if let answers {
            page.heading("Pressure's check-ins (answer, reminder_response, fatigue; the users as one segment)")
            responseSection(&page, answers)
        }
        if let check { checkSection(&page, check) }
        if let later { laterSection(&page, later) }
        if let prediction { predictionSection(&page, prediction) }
        page.heading("Data")
        page.paragraph(
            "The numbers of this page, as rulesrun fit --format json prints them, are embedded in it: the element "
                + "<script type=\"application/json\" id=\"fit\">.",
            className: "note")
        page.data(id: "fit", json: json(log: log, rules: rules))
        return page.html()
    }

    private func logSection(_ page: inout HTMLPage, log: String) {
        page.heading("The log and its users")
        var rows = [("events", log), ("users fitted", "\(users)")]
        if let firstDay { rows.append(("days", "\(days), each user's own from its first (the earliest \(firstDay.rawValue))")) }
        if refusals.total > 0 {
            rows.append(
                (
                    "events the rules refused",
                    "\(refusals.total): " + refusals.codes.map { "\($0) \(refusals.counts[$0]!)" }.joined(separator: ", ")
                ))
        }
        if !failures.isEmpty { rows.append(("rule failures while replaying", failures.countsText)) }
        page.table(rows)
        let lines = problems.lines
        if !lines.isEmpty {
            page.paragraph("What the log could not give (left out, counted): " + lines.joined(separator: "; "), className: "note")
        }
    }

    private func segmentsSection(_ page: inout HTMLPage) {
        guard !candidates.isEmpty else { return }
        let chosen = max(1, segments.count)
        page.heading("Segments: \(chosen)")
        page.paragraph(
            "Latent segments: each its own base chances (leaving's base, the tasks' and Earned habits' rates, commit) and share, the effects shared; "
                + (candidates.count > 1 ? "the number with the least BIC = −2 log L + parameters × ln users." : "the number asked for."),
            className: "note")
        page.grid(
            ["segments", "log-likelihood", "parameters", "BIC", ""],
            candidates.map { c in
                guard let ll = c.logLikelihood, let p = c.parameters, let bic = c.bic else {
                    return ["\(c.segments)", "–", "–", "–", "not fitted: \(c.failure ?? "")"]
                }
                return [
                    "\(c.segments)", String(format: "%.3f", ll), "\(p)", String(format: "%.3f", bic), c.segments == chosen ? "chosen" : "",
                ]
            }, marked: candidates.map { $0.segments == chosen && $0.bic != nil })
    }

    private func responseSection(_ page: inout HTMLPage, _ response: FittedResponse) {
        page.heading(response.name, level: 3)
        page.paragraph("\(response.observed). Model: \(response.model)", className: "note")
        page.grid(FittedResponse.header, FittedResponse.rows(response.parameters) { p, x in p.shown(x) })
    }

    private func gateSection(_ page: inout HTMLPage, _ gate: GateFit) {
        page.heading("The unlock gate's choice (earned.gate, responses.price)")
        page.paragraph(gate.openingsText.replacingOccurrences(of: "\n", with: " "), className: "note")
        page.grid(FittedResponse.header, gate.tableRows)
    }

    private func checkSection(_ page: inout HTMLPage, _ check: PredictiveCheck) {
        page.heading("Check on users the fit did not see")
        page.paragraph(
            "\(check.heldOut.percent)% of the users (\(check.observedUsers)) were held out of the fit; \(check.simulatedUsers) users "
                + "were simulated from the fitted personas under the same rules from \(check.start.rawValue) over \(check.days) days, "
                + "their events replayed and counted as the log's. Each metric: the simulated value against the held-out users', "
                + "as a % of the latter, with its 95% interval (Welch's, or the delta method for a ratio); a whisker that does not "
                + "cross 0 is a difference the fitted personas do not reproduce (bold, blue).",
            className: "note")
        let rows = check.rows.map { row -> IntervalChart.Row in
            guard let c = row.comparison, c.control.value != 0 else {
                return IntervalChart.Row(
                    name: row.metric.label, value: nil, low: nil, high: nil, isSignificant: false,
                    text: row.reason ?? "no relative difference: the observed value is 0", data: [("id", row.metric.id)])
            }
            let d = c.difference, scale = 100 / c.control.value, ends = [d.low * scale, d.high * scale]
            return IntervalChart.Row(
                name: row.metric.label, value: d.point * scale, low: ends.min()!, high: ends.max()!, isSignificant: d.isSignificant,
                text: "observed \(row.metric.format(c.control.value)), simulated \(row.metric.format(c.treatment.value)): "
                    + (d.isSignificant ? "differs" : "agrees"),
                data: [("id", row.metric.id)])
        }
        var chart = IntervalChart(
            title: "Simulated against observed: the difference of each metric, with its 95% interval",
            note: "(simulated − observed) / observed; a whisker that does not cross the 0 line is a difference (bold, blue).",
            heading: "difference", suffix: "%", rows: rows)
        chart.sides = (lower: "← simulated lower", higher: "simulated higher →")
        page.figure(chart.svg())
        let distributions = [
            (check.finalStreaks, "Pressure streak at the log's end (the users still there)", "% of users", "streak (days)"),
            (check.unlockHours, "Unlocks by hour (local, of the event that granted them)", "% of unlocks", "hour"),
        ]
        for case (let buckets?, let title, let unit, let axis) in distributions {
            let share = { (counts: [Int]) in counts.map { 100 * Double($0) / Double(max(1, counts.reduce(0, +))) } }
            var simulated = ChartSeries(key: "simulated", name: "simulated", color: "#e65100", values: share(buckets.simulated))
            simulated.dashed = true
            let chart = LineChart(
                title: title, unit: unit,
                categories: CategoryAxis(
                    name: axis, labels: buckets.buckets,
                    note: "chi-square \(String(format: "%.2f", buckets.chiSquare)), \(buckets.degreesOfFreedom) df, "
                        + "p = \(String(format: "%.3g", buckets.pValue)): \(buckets.differs ? "differs" : "agrees")"),
                series: [
                    ChartSeries(key: "observed", name: "held-out users", color: "#0d47a1", values: share(buckets.observed)), simulated,
                ])
            page.figure(chart.svg())
        }
        let curves = check.curves
        guard !curves.isEmpty else { return }
        page.heading("Day by day", level: 3)
        page.paragraph(
            "Each per-day metric on each of the users' own days (from each user's first), the held-out users' (solid) and the "
                + "simulated users' (dashed), over the days both have users of the metric's app.",
            className: "note")
        for curve in curves {
            let days = zip(curve.observed, curve.simulated).prefix { $0.0 != nil && $0.1 != nil }.count
            guard days > 0 else { continue }
            let scale = curve.metric.isShare ? 100.0 : 1
            let chart = Self.observedBeside(
                title: curve.metric.label, unit: Self.unitName(curve.metric), axis: TimeAxis(start: check.start, days: days),
                observed: ("held-out users", curve.observed.prefix(days).map { scale * $0! }),
                beside: ChartSeries(
                    key: "simulated", name: "simulated", color: "", values: curve.simulated.prefix(days).map { scale * $0! }))
            page.figure(chart.svg())
        }
    }

    private func laterSection(_ page: inout HTMLPage, _ later: LaterDaysCheck) {
        page.heading("Check on days the fit did not see")
        page.paragraph(
            "The log's last \(later.days) day(s) of each user were held out of the fit; each user was still replayed through them, "
                + "and each choice on them predicted from the fitted parameters and the user's state then. Each response: the events "
                + "observed against those expected, with the 95% interval of the difference (the choices' chance and the parameters' "
                + "uncertainty); day by day, the observed share (solid) against the expected one (dashed, its band the interval).",
            className: "note")
        page.grid(LaterDaysCheck.header, later.tableRows, marked: later.rows.map { $0.reason == nil && $0.total.differs })
        let start = firstDay.flatMap { $0.adding(days: max(0, days - later.days)) } ?? SimulationConfig.defaultStart
        for row in later.rows where row.reason == nil {
            let days = row.byDay.prefix { $0.choices > 0 }
            guard !days.isEmpty else { continue }
            let share = { (x: Double, d: LaterDaysCheck.Day) in 100 * x / d.choices }
            let chart = Self.observedBeside(
                title: "\(row.response): the share of choices with the outcome", unit: "%", axis: TimeAxis(start: start, days: days.count),
                observed: ("observed", days.map { share($0.observed, $0) }),
                beside: ChartSeries(
                    key: "expected", name: "expected", color: "", values: days.map { share($0.expected, $0) },
                    low: days.map { share($0.expected - ($0.high - $0.low) / 2, $0) },
                    high: days.map { share($0.expected + ($0.high - $0.low) / 2, $0) }))
            page.figure(chart.svg())
        }
    }

    private func predictionSection(_ page: inout HTMLPage, _ prediction: FitPrediction) {
        page.heading("Prediction under \(prediction.rules)")
        page.paragraph(
            "\(prediction.users) users simulated from the fitted personas from \(prediction.start.rawValue) over \(prediction.days) "
                + "days, once per draw of their parameters (\(prediction.draws) draws)"
                + (prediction.baseline.map {
                    ", under \(prediction.rules) (B) and under the log's rules \($0) (A) with the same draws and seeds"
                }
                    ?? "")
                + ". Each: the draws' mean, and mean ± t × sd × √(1 + 1/draws), the 95% interval of a new cohort's value.",
            className: "note")
        let ab = prediction.baseline != nil
        page.grid(prediction.header, prediction.tableRows)
        guard ab else { return }
        let rows = prediction.rows.map { row -> IntervalChart.Row in
            guard let d = row.difference, let a = row.baseline, a.mean != 0 else {
                return IntervalChart.Row(
                    name: row.metric.label, value: nil, low: nil, high: nil, isSignificant: false,
                    text: "no relative difference: A's value is 0 or not predicted", data: [("id", row.metric.id)])
            }
            let scale = 100 / a.mean, ends = [d.low * scale, d.high * scale]
            let significant = d.low > 0 || d.high < 0
            return IntervalChart.Row(
                name: row.metric.label, value: d.mean * scale, low: ends.min()!, high: ends.max()!, isSignificant: significant,
                text: "A \(row.metric.format(a.mean)), B \(row.metric.format(row.predicted?.mean ?? .nan))"
                    + (significant ? ": B differs" : ""),
                data: [("id", row.metric.id)])
        }
        var chart = IntervalChart(
            title: "B against A: the predicted difference of each metric, with its 95% interval",
            note: "(B − A) / A, both predicted from the same draws; a whisker that does not cross 0 is a predicted change (bold, blue).",
            heading: "B − A", suffix: "%", rows: rows)
        chart.sides = (lower: "← B lower", higher: "B higher →")
        page.figure(chart.svg())
    }

    /// A chart of an observed series (solid, blue) and what the fit gives beside it (dashed, orange).
    private static func observedBeside(
        title: String, unit: String, axis: TimeAxis, observed: (name: String, values: [Double]), beside: ChartSeries
    ) -> LineChart {
        var beside = beside
        beside.color = "#e65100"
        beside.dashed = true
        return LineChart(
            title: title, unit: unit, axis: axis,
            series: [ChartSeries(key: "observed", name: observed.name, color: "#0d47a1", values: observed.values), beside])
    }

    /// The y axis's unit of a metric's chart.
    private static func unitName(_ metric: Metric) -> String {
        switch metric.unit {
        case .share: "%"
        case .count: "count"
        case .perUserDay: "per user-day"
        case .days: "days"
        case .credits: "credits"
        case .creditsPerUnlock: "credits per unlock"
        }
    }
}

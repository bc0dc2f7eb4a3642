import Foundation
import LuaHost

/// The response curves of a sweep: one chart per metric (``LineChart`` over a ``CategoryAxis``),
/// the metric's mean against the first knob's values (by value when they are numbers, the base's
/// value marked) with its 95 % interval as a band; with a second knob, a line per value of it. A
/// refused variant leaves a gap. As one SVG file (`--chart`: the charts one under the other) or an
/// HTML page (`--html`: the charts and the report's JSON). Sweeps of more knobs, and one-at-a-time
/// sweeps of several knobs, have no chart (``SweepChart/unsupported(_:)`` says why).
package struct SweepChart {
    package let report: SweepReport

    package init(_ report: SweepReport) { self.report = report }

    static let colors = ["#1565c0", "#c62828", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f", "#ad1457", "#5d4037"]
    static let chartHeight = 280.0

    /// Why the plan has no chart, or nil when it has one.
    package static func unsupported(_ plan: SweepPlan) -> String? {
        if plan.knobs.count > 2 { return "--chart draws sweeps of one or two knobs (this one moves \(plan.knobs.count))" }
        if plan.mode == .oneAtATime, plan.knobs.count > 1 {
            return "--chart draws one-at-a-time sweeps of one knob; for several, read the sensitivity the table ends with"
        }
        return nil
    }

    /// One chart per metric, in the report's order.
    package func charts() -> [LineChart] {
        let plan = report.plan
        let first = plan.knobs[0]
        // The first knob's values, in the order of the variants, by value if numbers.
        var xs: [LuaValue] = []
        for variant in plan.variants where !xs.contains(variant.values[0]) { xs.append(variant.values[0]) }
        if xs.allSatisfy({ $0.doubleValue != nil }) { xs.sort { $0.doubleValue! < $1.doubleValue! } }
        var seconds: [LuaValue] = []
        for variant in plan.variants where plan.knobs.count == 2 && !seconds.contains(variant.values[1]) {
            seconds.append(variant.values[1])
        }
        let lines: [(name: String, value: LuaValue?)] =
            seconds.isEmpty ? [("", nil)] : seconds.map { ("\(plan.knobs[1].path) = \(SweepKnob.label($0))", $0) }
        let axis = CategoryAxis(
            name: first.path,
            labels: xs.map { SweepKnob.label($0) + ($0 == plan.baseValues[0] ? " (base)" : "") },
            marked: xs.firstIndex(of: plan.baseValues[0]),
            note:
                "each variant's mean, the band its 95% interval (\(report.sweep.replicas > 1 ? "\(report.sweep.replicas) replicas" : "groups of users")); a gap: not run"
        )
        return report.metrics.enumerated().map { m, metric in
            let scale = metric.isShare ? 100.0 : 1
            let series = lines.enumerated().map { l, line -> ChartSeries in
                // The estimate at each x (nil: refused or not run).
                let points: [Estimate?] = xs.map { x in
                    report.rows.first { row in
                        row.variant.values[0] == x && (line.value.map { row.variant.values[1] == $0 } ?? true)
                    }?.estimates?[m]
                }
                return ChartSeries(
                    key: line.value == nil ? metric.label : "\(metric.label) @ \(line.name)",
                    name: line.value == nil ? metric.label : line.name, color: Self.colors[l % Self.colors.count],
                    values: points.map { ($0?.mean ?? .nan) * scale }, low: points.map { ($0?.low ?? .nan) * scale },
                    high: points.map { ($0?.high ?? .nan) * scale })
            }
            var chart = LineChart(
                title: metric.label, unit: metric.isShare ? "%" : metric.label, categories: axis, series: series)
            chart.height = Self.chartHeight
            return chart
        }
    }

    /// The charts one under the other, as an SVG file.
    package func svg() -> String {
        let charts = charts()
        let width = charts.first?.width ?? 1100
        let head = """
            <text x="20" y="24" font-size="17" font-weight="bold">\(SVGText.escape("rulesrun sweep: each metric against \(report.plan.knobs[0].path)"))</text>
            <text x="20" y="44" fill="#555">\(SVGText.escape(report.run))</text>

            """
        let body = charts.enumerated().map { i, chart in chart.group(x: 0, y: 60 + Double(i) * Self.chartHeight) }.joined()
        return ChartFrame.document(
            head + body, width: width, height: 60 + Double(charts.count) * Self.chartHeight, declaration: true,
            label: "rulesrun sweep: each metric against \(report.plan.knobs[0].path)")
    }

    /// `--segments`: the same table for each persona's users alone (a persona's rows: the metrics
    /// of the apps its users use).
    private func bySegment(_ page: inout HTMLPage) {
        page.heading("Each variant against the base, by persona")
        page.paragraph(
            "Each persona's users alone, in each variant: each metric of the apps they use with its 95% interval, and its "
                + "difference to the same users under the base (Δ base) with the interval of that difference.",
            className: "note")
        var rows: [[String]] = [], marked: [Bool] = []
        for row in report.rows {
            let knobs = report.knobLabels(row), blank = knobs.map { _ in "" }
            for (s, (segment, cells)) in report.segmentCells(row).enumerated() {
                for (m, c) in cells.enumerated() {
                    rows.append(
                        (s == 0 && m == 0 ? knobs : blank) + [
                            m == 0 ? SweepReport.head(segment) : "", c.metric, c.mean, c.interval, c.delta ?? "base", c.deltaInterval ?? "",
                            c.delta == nil ? "" : c.isSignificant ? "yes *" : "no",
                        ])
                    marked.append(c.isSignificant)
                }
            }
        }
        page.grid(
            report.plan.knobs.map(\.path) + ["persona", "metric", "mean", "95% interval", "Δ base", "95% interval of Δ", "significant"],
            rows,
            marked: marked)
    }

    /// A self-contained page: what was run, the knobs, the text output's table (``SweepReport/cells(_:)``:
    /// each variant's means, Δ base, intervals and significance), a chart per metric, the report's JSON.
    package func html() -> String {
        let plan = report.plan
        var page = HTMLPage(title: "rulesrun sweep: each metric against \(plan.knobs[0].path)")
        page.paragraph(report.run)
        page.table(
            zip(plan.knobs, plan.baseValues).map { knob, base in
                (knob.path, knob.values.map { SweepKnob.label($0) }.joined(separator: ", ") + " (base \(SweepKnob.label(base)))")
            } + [("variants", "\(plan.variants.count) (\(plan.mode.rawValue)), \(report.rows.count) finished")])
        page.paragraph(report.intervalNote, className: "note")
        page.heading("Each variant against the base")
        page.paragraph(
            "The table of rulesrun sweep's text output: each metric's mean with its 95% interval, and its difference to the base "
                + "(Δ base) with the interval of that difference; significant (*, in bold): the interval leaves out 0.",
            className: "note")
        var rows: [[String]] = [], marked: [Bool] = []
        for row in report.rows {
            let knobs = report.knobLabels(row), blank = knobs.map { _ in "" }
            let cells = report.cells(row)
            if cells.isEmpty, case .refused(let problems) = row.outcome {
                rows.append(knobs + ["refused, not run: " + problems.map(\.description).joined(separator: "; "), "", "", "", "", ""])
                marked.append(false)
            }
            for (m, c) in cells.enumerated() {
                rows.append(
                    (m == 0 ? knobs : blank) + [
                        c.metric, c.mean, c.interval, c.delta ?? "base", c.deltaInterval ?? "",
                        c.delta == nil ? "" : c.isSignificant ? "yes *" : "no",
                    ])
                marked.append(c.isSignificant)
            }
        }
        page.grid(
            plan.knobs.map(\.path) + ["metric", "mean", "95% interval", "Δ base", "95% interval of Δ", "significant"], rows, marked: marked)
        if report.sweep.segments { bySegment(&page) }
        page.heading("Response curves")
        for chart in charts() { page.figure(chart.svg()) }
        page.data(id: "sweep", json: report.rendered(.json))
        return page.html()
    }
}

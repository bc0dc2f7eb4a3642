import Foundation
import LuaHost

/// An SVG chart of a sweep: one small panel per metric, the metric against the first knob's value
/// (in the order given, evenly spaced), a dot per variant joined by a line; with a second knob, a
/// line per value of it. A refused variant leaves a gap. Sweeps of more knobs, and one-at-a-time
/// sweeps of several knobs, have no chart (``SweepChart/unsupported(_:)`` says why).
public struct SweepChart {
    public let report: SweepReport

    public init(_ report: SweepReport) { self.report = report }

    private static let colors = ["#1565c0", "#c62828", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f", "#ad1457", "#5d4037"]
    private let panelWidth = 440.0, panelHeight = 200.0, left = 60.0, gapX = 90.0, gapY = 80.0, topY = 90.0

    /// Why the plan has no chart, or nil when it has one.
    public static func unsupported(_ plan: SweepPlan) -> String? {
        if plan.knobs.count > 2 { return "--chart draws sweeps of one or two knobs (this one moves \(plan.knobs.count))" }
        if plan.mode == .oneAtATime, plan.knobs.count > 1 {
            return "--chart draws one-at-a-time sweeps of one knob; for several, read the sensitivity the table ends with"
        }
        return nil
    }

    /// An axis value: whole numbers as such, others with up to two decimals.
    static func tick(_ v: Double) -> String {
        if v == v.rounded() { return String(Int(v)) }
        var text = String(format: "%.2f", v)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    public func svg() -> String {
        let plan = report.plan, metrics = report.metrics
        let first = plan.knobs[0]
        // The first knob's values, in the order of the variants (one at a time: the base's among them), by value if numbers.
        var xs: [LuaValue] = []
        for variant in plan.variants where !xs.contains(variant.values[0]) { xs.append(variant.values[0]) }
        if xs.allSatisfy({ $0.doubleValue != nil }) { xs.sort { $0.doubleValue! < $1.doubleValue! } }
        var seconds: [LuaValue] = []
        for variant in plan.variants where plan.knobs.count == 2 && !seconds.contains(variant.values[1]) {
            seconds.append(variant.values[1])
        }
        let lines: [(name: String, value: LuaValue?)] =
            seconds.isEmpty ? [("", nil)] : seconds.map { ("\(plan.knobs[1].path) = \(SweepKnob.label($0))", $0) }
        let columns = min(2, metrics.count), rowsOfPanels = (metrics.count + 1) / 2
        let legendHeight = plan.knobs.count == 2 ? 20.0 * Double(lines.count) + 10 : 0
        let width = left + Double(columns) * (panelWidth + gapX)
        let height = topY + legendHeight + Double(rowsOfPanels) * (panelHeight + gapY) + 10
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(Int(left))" y="24" font-size="16" font-weight="bold">\(SVGText.escape("rulesrun sweep: each metric against \(first.path)"))</text>
            <text x="\(Int(left))" y="42" fill="#555">\(SVGText.escape(report.run))</text>

            """
        for (i, line) in lines.enumerated() where line.value != nil {
            let y = topY - 20 + Double(i) * 20
            let color = Self.colors[i % Self.colors.count]
            out +=
                "<line x1=\"\(Int(left))\" y1=\"\(SVGText.f(y))\" x2=\"\(Int(left + 24))\" y2=\"\(SVGText.f(y))\" stroke=\"\(color)\" stroke-width=\"3\"/>\n"
            out +=
                "<text x=\"\(Int(left + 30))\" y=\"\(SVGText.f(y))\" dominant-baseline=\"middle\">\(SVGText.escape(line.name))</text>\n"
        }
        for (m, metric) in metrics.enumerated() {
            let px = left + Double(m % 2) * (panelWidth + gapX)
            let top = topY + legendHeight + Double(m / 2) * (panelHeight + gapY)
            let bottom = top + panelHeight
            // Each line's points: the value of the metric at each x (nil: refused or not run).
            let series: [[Double?]] = lines.map { line in
                xs.map { x in
                    report.rows.first { row in
                        row.variant.values[0] == x && (line.value.map { row.variant.values[1] == $0 } ?? true)
                    }?.values?[m]
                }
            }
            let all = series.joined().compactMap { $0 }.map { metric.isShare ? $0 * 100 : $0 }
            let low = min(0, all.min() ?? 0), high = SVGText.niceCeiling(max(all.max() ?? 1, metric.isShare ? 1 : 0.1))
            func x(_ i: Int) -> Double { px + (xs.count == 1 ? panelWidth / 2 : panelWidth * Double(i) / Double(xs.count - 1)) }
            func y(_ v: Double) -> Double { bottom - panelHeight * (v - low) / (high - low) }
            out +=
                "<g>\n<text x=\"\(Int(px))\" y=\"\(Int(top - 10))\" font-weight=\"bold\">\(SVGText.escape(metric.name + (metric.isShare ? " (%)" : "")))</text>\n"
            for k in 0...4 {
                let v = low + (high - low) * Double(k) / 4
                out +=
                    "<line x1=\"\(Int(px))\" y1=\"\(SVGText.f(y(v)))\" x2=\"\(Int(px + panelWidth))\" y2=\"\(SVGText.f(y(v)))\" stroke=\"#ddd\"/>\n"
                out +=
                    "<text x=\"\(Int(px - 6))\" y=\"\(SVGText.f(y(v)))\" text-anchor=\"end\" dominant-baseline=\"middle\" fill=\"#555\">\(Self.tick(v))</text>\n"
            }
            for (i, value) in xs.enumerated() {
                let isBase = value == plan.baseValues[0]
                out +=
                    "<text x=\"\(SVGText.f(x(i)))\" y=\"\(Int(bottom + 16))\" text-anchor=\"middle\" fill=\"\(isBase ? "#000" : "#555")\">\(SVGText.escape(SweepKnob.label(value) + (isBase ? " (base)" : "")))</text>\n"
            }
            out +=
                "<text x=\"\(Int(px + panelWidth))\" y=\"\(Int(bottom + 34))\" text-anchor=\"end\" fill=\"#555\">\(SVGText.escape(first.path))</text>\n"
            for (l, points) in series.enumerated() {
                let color = Self.colors[l % Self.colors.count]
                // A line through each run of consecutive points; a dot at each.
                var run: [String] = []
                func flush() {
                    if run.count > 1 {
                        out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(run.joined(separator: " "))\"/>\n"
                    }
                    run = []
                }
                for (i, point) in points.enumerated() {
                    guard let point else { flush(); continue }
                    let v = metric.isShare ? point * 100 : point
                    run.append("\(SVGText.f(x(i))),\(SVGText.f(y(v)))")
                    out += "<circle cx=\"\(SVGText.f(x(i)))\" cy=\"\(SVGText.f(y(v)))\" r=\"3\" fill=\"\(color)\"/>\n"
                }
                flush()
            }
            out += "</g>\n"
        }
        return out + "</svg>\n"
    }
}

/// A chart of series over a run's dates (``TimeAxis``): a line per series (a dot when there is one
/// point), its interval band when it has one, weekends shaded on a daily axis, date ticks, the
/// unit on the y axis, and a legend. Every series carries its values (`data-series`,
/// `data-values`, and `data-low`/`data-high` for a band), so that a page's numbers can be checked
/// against the report they come from. With a ``CategoryAxis`` instead of dates, the points are
/// the axis's values (a dot at each), and a value that is not a number (NaN) leaves a gap.
package struct LineChart: Sendable {
    package var title: String
    /// The y axis's unit, e.g. "% of users", "credits per Earned user".
    package var unit: String
    package var axis: TimeAxis
    /// One value per point of the axis (``TimeAxis/aggregate(_:)`` of a daily series).
    package var series: [ChartSeries]
    /// The top of the y axis; nil: the largest value, rounded up to 1, 2, 4 or 5 × 10^k.
    package var maxValue: Double?
    package var width = 1100.0
    package var height = 300.0
    /// The x axis when it is not dates: then `axis` is not used.
    package var categories: CategoryAxis?

    package init(title: String, unit: String, axis: TimeAxis, series: [ChartSeries], maxValue: Double? = nil) {
        self.title = title
        self.unit = unit
        self.axis = axis
        self.series = series
        self.maxValue = maxValue
    }

    /// A chart over `categories` (a point per value) instead of dates.
    package init(title: String, unit: String, categories: CategoryAxis, series: [ChartSeries], maxValue: Double? = nil) {
        self.init(
            title: title, unit: unit, axis: TimeAxis(start: SimulationConfig.defaultStart, days: 0), series: series, maxValue: maxValue)
        self.categories = categories
    }

    /// The chart as a `<g>` placed at (`x`, `y`).
    package func group(x: Double = 0, y: Double = 0) -> String {
        let top = maxValue ?? SVGText.niceCeiling(series.map(\.largest).max() ?? 0)
        let frame = ChartFrame(
            width: width, height: height, title: title,
            note: categories?.note ?? axis.pointNote + (axis.isWeekly ? "" : "; weekends shaded"), unit: unit, maxValue: top)
        let slots = Double(max(1, categories?.labels.count ?? axis.days))
        func px(_ day: Double) -> Double { frame.left + frame.plotWidth * day / slots }
        var out = "<g transform=\"translate(\(SVGText.f(x)),\(SVGText.f(y)))\">\n"
        if let categories {
            out += frame.axes()
            for (i, label) in categories.labels.enumerated() {
                let tx = SVGText.f(px(Double(i) + 0.5)), marked = i == categories.marked
                if marked {
                    out +=
                        "<line x1=\"\(tx)\" y1=\"\(SVGText.f(frame.top))\" x2=\"\(tx)\" y2=\"\(SVGText.f(frame.plotBottom))\" stroke=\"#888\" stroke-dasharray=\"3 3\"/>\n"
                }
                out +=
                    "<line x1=\"\(tx)\" y1=\"\(SVGText.f(frame.plotBottom))\" x2=\"\(tx)\" y2=\"\(SVGText.f(frame.plotBottom + 5))\" stroke=\"#888\"/>\n"
                out +=
                    "<text x=\"\(tx)\" y=\"\(SVGText.f(frame.plotBottom + 19))\" text-anchor=\"middle\"\(marked ? " font-weight=\"bold\"" : "") fill=\"#333\">\(SVGText.escape(label))</text>\n"
            }
            out +=
                "<text x=\"\(SVGText.f(frame.left + frame.plotWidth))\" y=\"\(SVGText.f(frame.plotBottom + 38))\" text-anchor=\"end\" fill=\"#333\">\(SVGText.escape(categories.name))</text>\n"
            out += categorySeries(frame: frame, points: categories.labels.indices.map { px(Double($0) + 0.5) })
            out += frame.legend(series.map { ($0.name, $0.color, $0.dashed) })
            return out + "</g>\n"
        }
        for weekend in axis.weekends() {
            out +=
                "<rect x=\"\(SVGText.f(px(Double(weekend.lowerBound))))\" y=\"\(SVGText.f(frame.top))\" width=\"\(SVGText.f(px(Double(weekend.upperBound)) - px(Double(weekend.lowerBound))))\" height=\"\(SVGText.f(frame.plotHeight))\" fill=\"#eef0f4\"/>\n"
        }
        out += frame.axes()
        for tick in axis.ticks() {
            let tx = SVGText.f(px(Double(tick.day) + 0.5))
            out +=
                "<line x1=\"\(tx)\" y1=\"\(SVGText.f(frame.plotBottom))\" x2=\"\(tx)\" y2=\"\(SVGText.f(frame.plotBottom + 5))\" stroke=\"#888\"/>\n"
            out +=
                "<text x=\"\(tx)\" y=\"\(SVGText.f(frame.plotBottom + 19))\" text-anchor=\"middle\" fill=\"#555\">\(SVGText.escape(tick.label))</text>\n"
        }
        out +=
            "<text x=\"\(SVGText.f(frame.left + frame.plotWidth))\" y=\"\(SVGText.f(frame.plotBottom + 38))\" text-anchor=\"end\" fill=\"#333\">date</text>\n"
        let points = (0..<axis.groups.count).map { px(axis.position(ofPoint: $0)) }
        for s in series {
            func coordinates(_ values: [Double]) -> [String] {
                zip(points, values).map { "\(SVGText.f($0.0)),\(SVGText.f(frame.y($0.1)))" }
            }
            if let low = s.low, let high = s.high {
                let outline = coordinates(high) + coordinates(low).reversed()
                out +=
                    "<polygon data-band=\"\(SVGText.escape(s.key))\" data-low=\"\(low.map(SVGText.value).joined(separator: " "))\" data-high=\"\(high.map(SVGText.value).joined(separator: " "))\" fill=\"\(s.color)\" fill-opacity=\"0.18\" stroke=\"none\" points=\"\(outline.joined(separator: " "))\"/>\n"
            }
            let dash = s.dashed ? " stroke-dasharray=\"6 4\"" : ""
            out +=
                "<polyline data-series=\"\(SVGText.escape(s.key))\" data-values=\"\(s.values.map(SVGText.value).joined(separator: " "))\" fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"2\"\(dash) points=\"\(coordinates(s.values).joined(separator: " "))\"/>\n"
            // A line of one point draws nothing: a one-point series is a dot.
            if s.values.count == 1, let x0 = points.first {
                out += "<circle cx=\"\(SVGText.f(x0))\" cy=\"\(SVGText.f(frame.y(s.values[0])))\" r=\"4\" fill=\"\(s.color)\"/>\n"
            }
        }
        out += frame.legend(series.map { ($0.name, $0.color, $0.dashed) })
        return out + "</g>\n"
    }

    /// The series over a category axis: a band and a line through each run of numbers (NaN: a
    /// gap), a dot at each number; one element per series carries its values.
    private func categorySeries(frame: ChartFrame, points: [Double]) -> String {
        var out = ""
        for s in series {
            let finite = s.values.indices.filter { i in
                s.values[i].isFinite && (s.low.map { $0[i].isFinite } ?? true) && (s.high.map { $0[i].isFinite } ?? true)
            }
            var runs: [[Int]] = []
            for i in finite { if let last = runs.last?.last, last == i - 1 { runs[runs.count - 1].append(i) } else { runs.append([i]) } }
            func at(_ i: Int, _ v: Double) -> String { "\(SVGText.f(points[i])),\(SVGText.f(frame.y(v)))" }
            if let low = s.low, let high = s.high {
                let outline = runs.map { run in
                    "M" + (run.map { at($0, high[$0]) } + run.reversed().map { at($0, low[$0]) }).joined(separator: " L") + " Z"
                }
                out +=
                    "<path data-band=\"\(SVGText.escape(s.key))\" data-low=\"\(low.map(SVGText.value).joined(separator: " "))\" data-high=\"\(high.map(SVGText.value).joined(separator: " "))\" fill=\"\(s.color)\" fill-opacity=\"0.18\" stroke=\"\(s.color)\" stroke-opacity=\"0.35\" d=\"\(outline.joined(separator: " "))\"/>\n"
            }
            let dash = s.dashed ? " stroke-dasharray=\"6 4\"" : ""
            let line = runs.map { run in "M" + run.map { at($0, s.values[$0]) }.joined(separator: " L") }
            out +=
                "<path data-series=\"\(SVGText.escape(s.key))\" data-values=\"\(s.values.map(SVGText.value).joined(separator: " "))\" fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"2\"\(dash) d=\"\(line.joined(separator: " "))\"/>\n"
            for i in finite {
                out += "<circle cx=\"\(SVGText.f(points[i]))\" cy=\"\(SVGText.f(frame.y(s.values[i])))\" r=\"4\" fill=\"\(s.color)\"/>\n"
            }
        }
        return out
    }

    /// The chart alone, as an SVG element (with the XML declaration: an SVG file).
    package func svg(declaration: Bool = false) -> String {
        ChartFrame.document(group(), width: width, height: height, declaration: declaration, label: title)
    }
}

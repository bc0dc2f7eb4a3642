/// A bar chart of one series over named categories (e.g. users by final streak): a bar per
/// category with its value above it, the categories under the bars, the unit on the y axis. The
/// bars' group carries the values (`data-series`, `data-values`) as ``LineChart``'s lines do.
package struct BarChart: Sendable {
    package var title: String
    package var note: String
    package var unit: String
    /// What the categories are, under the axis (e.g. "final streak (days)").
    package var categoryUnit: String
    package var categories: [String]
    package var series: ChartSeries
    package var width = 1100.0
    package var height = 300.0

    package init(title: String, note: String = "", unit: String, categoryUnit: String, categories: [String], series: ChartSeries) {
        self.title = title
        self.note = note
        self.unit = unit
        self.categoryUnit = categoryUnit
        self.categories = categories
        self.series = series
    }

    /// The chart as a `<g>` placed at (`x`, `y`).
    package func group(x: Double = 0, y: Double = 0) -> String {
        let frame = ChartFrame(
            width: width, height: height, title: title, note: note, unit: unit, maxValue: SVGText.niceCeiling(series.largest))
        var out = "<g transform=\"translate(\(SVGText.f(x)),\(SVGText.f(y)))\">\n" + frame.axes()
        let slot = frame.plotWidth / Double(max(1, categories.count))
        out +=
            "<g data-series=\"\(SVGText.escape(series.key))\" data-values=\"\(series.values.map(SVGText.value).joined(separator: " "))\" fill=\"\(series.color)\">\n"
        for (i, value) in series.values.enumerated() {
            let bx = frame.left + slot * Double(i) + slot * 0.15, top = frame.y(value)
            out +=
                "<rect x=\"\(SVGText.f(bx))\" y=\"\(SVGText.f(top))\" width=\"\(SVGText.f(slot * 0.7))\" height=\"\(SVGText.f(frame.plotBottom - top))\"/>\n"
            out +=
                "<text x=\"\(SVGText.f(bx + slot * 0.35))\" y=\"\(SVGText.f(top - 5))\" text-anchor=\"middle\" fill=\"#222\">\(SVGText.value(value))</text>\n"
        }
        out += "</g>\n"
        for (i, name) in categories.enumerated() {
            out +=
                "<text x=\"\(SVGText.f(frame.left + slot * (Double(i) + 0.5)))\" y=\"\(SVGText.f(frame.plotBottom + 19))\" text-anchor=\"middle\" fill=\"#555\">\(SVGText.escape(name))</text>\n"
        }
        out +=
            "<text x=\"\(SVGText.f(frame.left + frame.plotWidth))\" y=\"\(SVGText.f(frame.plotBottom + 38))\" text-anchor=\"end\" fill=\"#333\">\(SVGText.escape(categoryUnit))</text>\n"
        out += frame.legend([(series.name, series.color, false)])
        return out + "</g>\n"
    }

    package func svg(declaration: Bool = false) -> String {
        ChartFrame.document(group(), width: width, height: height, declaration: declaration, label: title)
    }
}

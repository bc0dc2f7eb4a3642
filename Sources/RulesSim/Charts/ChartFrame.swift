import Foundation

/// The frame shared by the charts: size, margins, the title and its note, the y axis (unit, grid
/// lines and their labels from 0 to `maxValue`) and the legend at the right. Each element is on a
/// line of its own, and every chart is a `<g>` that a page or an SVG file places where it wants.
struct ChartFrame {
    var width: Double
    var height: Double
    var title: String
    var note: String
    var unit: String
    var maxValue: Double
    let left = 78.0, right = 250.0, top = 46.0, bottom = 52.0

    var plotWidth: Double { width - left - right }
    var plotHeight: Double { height - top - bottom }
    var plotBottom: Double { height - bottom }

    func y(_ v: Double) -> Double { plotBottom - plotHeight * min(max(v, 0), maxValue) / maxValue }

    /// Grid steps of round values: 5 for a top of 1 or 5 × 10^k (steps of 2 or 1 × 10^k), else 4.
    var gridSteps: Int {
        guard maxValue > 0, maxValue.isFinite else { return 4 }
        let leading = (maxValue / pow(10, floor(log10(maxValue)))).rounded()
        return leading == 1 || leading == 5 ? 5 : 4
    }

    /// The title, the note, the y axis's unit and grid.
    func axes() -> String {
        var out = "<text x=\"\(SVGText.f(left))\" y=\"18\" font-size=\"15\" font-weight=\"bold\">\(SVGText.escape(title))</text>\n"
        if !note.isEmpty { out += "<text x=\"\(SVGText.f(left))\" y=\"34\" fill=\"#555\">\(SVGText.escape(note))</text>\n" }
        let midY = SVGText.f(top + plotHeight / 2)
        out +=
            "<text x=\"18\" y=\"\(midY)\" transform=\"rotate(-90 18 \(midY))\" text-anchor=\"middle\" fill=\"#333\">\(SVGText.escape(unit))</text>\n"
        for (k, tick) in TickLabels.axis(top: maxValue, steps: gridSteps).enumerated() {
            let yy = SVGText.f(y(tick.value))
            out +=
                "<line x1=\"\(SVGText.f(left))\" y1=\"\(yy)\" x2=\"\(SVGText.f(left + plotWidth))\" y2=\"\(yy)\" stroke=\"\(k == 0 ? "#888" : "#ddd")\"/>\n"
            out +=
                "<text x=\"\(SVGText.f(left - 6))\" y=\"\(yy)\" text-anchor=\"end\" dominant-baseline=\"middle\" fill=\"#555\">\(SVGText.escape(tick.label))</text>\n"
        }
        return out
    }

    /// The legend: a swatch and the name of each series, top to bottom at the right.
    func legend(_ entries: [(name: String, color: String, dashed: Bool)]) -> String {
        var out = ""
        let lx = width - right + 18
        for (index, entry) in entries.enumerated() {
            let ly = top + 8 + Double(index) * 20
            let dash = entry.dashed ? " stroke-dasharray=\"6 4\"" : ""
            out +=
                "<line x1=\"\(SVGText.f(lx))\" y1=\"\(SVGText.f(ly))\" x2=\"\(SVGText.f(lx + 22))\" y2=\"\(SVGText.f(ly))\" stroke=\"\(entry.color)\" stroke-width=\"4\"\(dash)/>\n"
            out +=
                "<text x=\"\(SVGText.f(lx + 28))\" y=\"\(SVGText.f(ly))\" dominant-baseline=\"middle\">\(SVGText.escape(entry.name))</text>\n"
        }
        return out
    }

    /// A whole SVG document of the chart (for an HTML page, without the XML declaration), labelled
    /// for screen readers.
    static func document(_ body: String, width: Double, height: Double, declaration: Bool, label: String) -> String {
        (declaration ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : "")
            + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(SVGText.escape(label))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"13\">\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" + body + "</svg>\n"
    }
}

import Foundation

/// Values with their 95 % intervals on one scale, a row each (`compare`'s B − A per metric as a
/// percentage of A): a dot at the value, a whisker from the interval's low to its high, a vertical
/// line at 0, and the scale's ticks (``TickLabels``) above the rows, so that rows can be compared
/// with each other. The scale is symmetric around 0 and holds every row's whisker, unless one row
/// reaches more than 2.5 times as far as the next: then it holds the others, and the outlier's
/// whisker (or dot) stops at the edge with an arrow. A row without a value (e.g. a change relative
/// to 0) is listed without a dot. A significant row is drawn dark and bold, the others grey. Each
/// row's group carries its numbers: `data-metric`, the row's own `data` attributes,
/// `data-significant`, and the drawn `data-value`, `data-value-low`, `data-value-high`.
package struct IntervalChart: Sendable {
    package struct Row: Sendable {
        package var name: String
        /// The value in the chart's unit (nil: none, not drawn).
        package var value: Double?
        /// The interval (nil: none, e.g. a maximum over users with groups of users).
        package var low: Double?
        package var high: Double?
        package var isSignificant: Bool
        /// The value and its interval as the page prints them, at the right of the row.
        package var text: String
        /// Attributes for tools (name without `data-`, value), in order, after `data-metric`.
        package var data: [(String, String)]

        package init(
            name: String, value: Double?, low: Double?, high: Double?, isSignificant: Bool, text: String, data: [(String, String)] = []
        ) {
            self.name = name
            self.value = value
            self.low = low
            self.high = high
            self.isSignificant = isSignificant
            self.text = text
            self.data = data
        }

        /// How far from 0 the row reaches (0 without a value).
        var reach: Double {
            guard let value else { return 0 }
            return [value, low ?? 0, high ?? 0].map { abs($0) }.filter(\.isFinite).max() ?? 0
        }
    }

    package var title: String
    package var note: String
    /// What the values are, beside the right-hand column's heading (e.g. "B − A, % of A").
    package var heading: String
    /// After each tick's label (e.g. `%`).
    package var suffix: String
    package var rows: [Row]
    package var width = 1100.0
    let rowHeight = 24.0, top = 84.0, bottom = 16.0, nameRight = 330.0, plotLeft = 350.0, plotRight = 690.0

    package init(title: String, note: String, heading: String, suffix: String = "", rows: [Row]) {
        self.title = title
        self.note = note
        self.heading = heading
        self.suffix = suffix
        self.rows = rows
    }

    package var height: Double { top + rowHeight * Double(rows.count) + bottom }

    /// The largest value either side of 0 that the scale shows.
    package var limit: Double {
        let reaches = rows.map(\.reach).filter { $0.isFinite && $0 > 0 }.sorted(by: >)
        guard let first = reaches.first else { return 1 }
        let held = reaches.count > 1 && first > 2.5 * reaches[1] ? reaches[1] : first
        return SVGText.niceCeiling(held)
    }

    package func svg() -> String {
        let zero = (plotLeft + plotRight) / 2, half = (plotRight - plotLeft) / 2 * 0.92, limit = self.limit
        let body = top + rowHeight * Double(rows.count)
        func x(_ v: Double) -> Double { zero + half * min(max(v, -limit), limit) / limit }
        var out = "<text x=\"16\" y=\"18\" font-size=\"15\" font-weight=\"bold\">\(SVGText.escape(title))</text>\n"
        out += "<text x=\"16\" y=\"36\" fill=\"#555\">\(SVGText.escape(note))</text>\n"
        out +=
            "<text x=\"\(SVGText.f(plotLeft))\" y=\"58\" fill=\"#555\">← B lower</text>\n"
            + "<text x=\"\(SVGText.f(plotRight))\" y=\"58\" text-anchor=\"end\" fill=\"#555\">B higher →</text>\n"
            + "<text x=\"\(SVGText.f(plotRight + 20))\" y=\"\(SVGText.f(top - 8))\" fill=\"#555\">\(SVGText.escape(heading)) [95% interval]</text>\n"
        for i in rows.indices where i % 2 == 0 {
            let y = top + rowHeight * Double(i)
            out +=
                "<rect x=\"8\" y=\"\(SVGText.f(y))\" width=\"\(SVGText.f(width - 16))\" height=\"\(SVGText.f(rowHeight))\" fill=\"#f5f6f8\"/>\n"
        }
        // The scale: ticks at ±limit, ±limit/2 and 0, a grid line at each.
        let ticks = [-1.0, -0.5, 0, 0.5, 1].map { $0 * limit }
        for (value, label) in zip(ticks, TickLabels.labels(ticks, step: limit / 2, suffix: suffix, signed: true)) {
            let tx = SVGText.f(x(value))
            out +=
                "<line x1=\"\(tx)\" y1=\"\(SVGText.f(top - 4))\" x2=\"\(tx)\" y2=\"\(SVGText.f(body))\" stroke=\"\(value == 0 ? "#888" : "#e0e0e0")\"/>\n"
            out +=
                "<text class=\"tick\" x=\"\(tx)\" y=\"\(SVGText.f(top - 8))\" text-anchor=\"middle\" fill=\"#333\">\(SVGText.escape(label))</text>\n"
        }
        for (i, row) in rows.enumerated() {
            let rowY = top + rowHeight * (Double(i) + 0.5), y = SVGText.f(rowY)
            let color = row.isSignificant ? "#0d47a1" : "#9e9e9e", weight = row.isSignificant ? " font-weight=\"bold\"" : ""
            var data = "data-metric=\"\(SVGText.escape(row.name))\""
            for (name, value) in row.data { data += " data-\(name)=\"\(SVGText.escape(value))\"" }
            data += " data-significant=\"\(row.isSignificant)\""
            if let value = row.value { data += " data-value=\"\(SVGText.value(value))\"" }
            if row.value != nil, let low = row.low, let high = row.high {
                data += " data-value-low=\"\(SVGText.value(low))\" data-value-high=\"\(SVGText.value(high))\""
            }
            out += "<g \(data)>\n"
            out +=
                "<text x=\"\(SVGText.f(nameRight))\" y=\"\(y)\" text-anchor=\"end\" dominant-baseline=\"middle\"\(weight)>\(SVGText.escape(row.name))</text>\n"
            if let value = row.value {
                if let low = row.low, let high = row.high {
                    out +=
                        "<line x1=\"\(SVGText.f(x(low)))\" y1=\"\(y)\" x2=\"\(SVGText.f(x(high)))\" y2=\"\(y)\" stroke=\"\(color)\" stroke-width=\"3\" stroke-linecap=\"round\"/>\n"
                }
                out += "<circle cx=\"\(SVGText.f(x(value)))\" cy=\"\(y)\" r=\"5\" fill=\"\(color)\"/>\n"
                // Past the scale: an arrow at each edge it crosses.
                let bounds = [value, row.low ?? value, row.high ?? value]
                for side in [1.0, -1.0] where bounds.contains(where: { $0 * side > limit }) {
                    let edge = zero + side * half, tip = edge + side * 9
                    out +=
                        "<polygon class=\"beyond\" points=\"\(SVGText.f(tip)),\(y) \(SVGText.f(edge)),\(SVGText.f(rowY - 5)) \(SVGText.f(edge)),\(SVGText.f(rowY + 5))\" fill=\"\(color)\"/>\n"
                }
            }
            out +=
                "<text x=\"\(SVGText.f(plotRight + 20))\" y=\"\(y)\" dominant-baseline=\"middle\" fill=\"\(row.isSignificant ? "#0d47a1" : "#444")\"\(weight)>\(SVGText.escape(row.text))</text>\n"
            out += "</g>\n"
        }
        return ChartFrame.document(out, width: width, height: height, declaration: false, label: title)
    }
}

import Foundation

/// Values with their 95 % intervals on one scale, a row each (`compare`'s B − A per metric as a
/// percentage of A): a dot at the value, a whisker from the interval's low to its high, a vertical
/// line at 0, and the scale's ticks (``TickLabels``) above the rows, so that rows can be compared
/// with each other. The scale is symmetric around 0 and holds every row's whisker, unless one row
/// reaches more than 2.5 times as far as the next: then it holds the others, and the outlier's
/// whisker (or dot) stops at the edge with an arrow. A row without a value (e.g. a change relative
/// to 0) is listed without a dot. A significant row is drawn dark and bold, the others grey. Each
/// row's group carries its numbers: `data-metric`, the row's own `data` attributes,
/// `data-significant`, and the drawn `data-value`, `data-value-low`, `data-value-high`. A row may
/// have a second estimate drawn beside its own (`beside`: `analyze --prediction`'s predicted lift):
/// a hollow orange dot and a thin whisker just under the row's, its text under the row's, the
/// scale holding it too, and its numbers in `data-beside`, `data-beside-low`, `data-beside-high`.
/// Charts meant to be read side by side share a scale (`sharedLimit`, from ``limit(of:)`` of all
/// their rows).
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
        /// A second estimate of the same quantity, drawn under the row's (nil: none).
        package var beside: Beside?

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

        /// How far from 0 the row reaches (0 without a value), its `beside` included.
        var reach: Double {
            var values = value.map { [$0, low ?? 0, high ?? 0] } ?? []
            if let beside { values += [beside.value, beside.low, beside.high] }
            return values.map { abs($0) }.filter(\.isFinite).max() ?? 0
        }
    }

    /// A second estimate beside a row's: its value, interval and text (e.g. `predicted +2.0% [-1.0%, +5.0%]`).
    package struct Beside: Sendable {
        package var value: Double
        package var low: Double
        package var high: Double
        package var text: String

        package init(value: Double, low: Double, high: Double, text: String) {
            self.value = value
            self.low = low
            self.high = high
            self.text = text
        }
    }

    package var title: String
    package var note: String
    /// What the values are, beside the right-hand column's heading (e.g. "B − A, % of A").
    package var heading: String
    /// After each tick's label (e.g. `%`).
    package var suffix: String
    package var rows: [Row]
    /// The words at the left and right ends of the scale.
    package var sides = (lower: "← B lower", higher: "B higher →")
    /// What the intervals are, after the heading (`95% interval`).
    package var intervalName = "95% interval"
    /// What the `beside` estimates are, in the legend (e.g. `predicted`).
    package var besideName = ""
    /// The scale's limit when several charts share one (nil: this chart's own, ``limit(of:)``).
    package var sharedLimit: Double?
    package var width = 1100.0
    let top = 84.0, bottom = 16.0, nameRight = 330.0, plotLeft = 350.0, plotRight = 690.0

    package init(title: String, note: String, heading: String, suffix: String = "", rows: [Row]) {
        self.title = title
        self.note = note
        self.heading = heading
        self.suffix = suffix
        self.rows = rows
    }

    /// Taller rows when some have an estimate beside theirs.
    var rowHeight: Double { rows.contains { $0.beside != nil } ? 38 : 24 }

    package var height: Double { top + rowHeight * Double(rows.count) + bottom }

    /// The largest value either side of 0 that the scale shows.
    package var limit: Double { sharedLimit ?? Self.limit(of: rows) }

    /// The limit of a scale that holds `rows`.
    package static func limit(of rows: [Row]) -> Double {
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
            "<text x=\"\(SVGText.f(plotLeft))\" y=\"58\" fill=\"#555\">\(SVGText.escape(sides.lower))</text>\n"
            + "<text x=\"\(SVGText.f(plotRight))\" y=\"58\" text-anchor=\"end\" fill=\"#555\">\(SVGText.escape(sides.higher))</text>\n"
            + "<text x=\"\(SVGText.f(plotRight + 20))\" y=\"\(SVGText.f(top - 8))\" fill=\"#555\">\(SVGText.escape(heading)) [\(SVGText.escape(intervalName))]</text>\n"
        let besides = rows.contains { $0.beside != nil }
        if besides {
            // The legend: the row's own estimate, and the one beside it.
            let lx = plotRight + 20
            out +=
                "<circle cx=\"\(SVGText.f(lx + 5))\" cy=\"54\" r=\"5\" fill=\"#0d47a1\"/>\n"
                + "<text x=\"\(SVGText.f(lx + 14))\" y=\"54\" dominant-baseline=\"middle\">observed</text>\n"
                + "<circle class=\"beside\" cx=\"\(SVGText.f(lx + 95))\" cy=\"54\" r=\"4\" fill=\"white\" stroke=\"\(Self.besideColor)\" stroke-width=\"2\"/>\n"
                + "<text x=\"\(SVGText.f(lx + 104))\" y=\"54\" dominant-baseline=\"middle\" fill=\"\(Self.besideColor)\">\(SVGText.escape(besideName))</text>\n"
        }
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
        /// A whisker from `low` to `high` at `rowY`, an arrow at each edge of the scale it crosses.
        func arrows(_ bounds: [Double], _ rowY: Double, _ color: String, _ size: Double) -> String {
            var out = ""
            for side in [1.0, -1.0] where bounds.contains(where: { $0 * side > limit }) {
                let edge = zero + side * half, tip = edge + side * (size + 4)
                out +=
                    "<polygon class=\"beyond\" points=\"\(SVGText.f(tip)),\(SVGText.f(rowY)) \(SVGText.f(edge)),\(SVGText.f(rowY - size)) \(SVGText.f(edge)),\(SVGText.f(rowY + size))\" fill=\"\(color)\"/>\n"
            }
            return out
        }
        for (i, row) in rows.enumerated() {
            let middle = top + rowHeight * (Double(i) + 0.5)
            // With an estimate beside it, the row's own above the middle, the other under it.
            let rowY = besides ? middle - 7 : middle, y = SVGText.f(rowY)
            let color = row.isSignificant ? "#0d47a1" : "#9e9e9e", weight = row.isSignificant ? " font-weight=\"bold\"" : ""
            var data = "data-metric=\"\(SVGText.escape(row.name))\""
            for (name, value) in row.data { data += " data-\(name)=\"\(SVGText.escape(value))\"" }
            data += " data-significant=\"\(row.isSignificant)\""
            if let value = row.value { data += " data-value=\"\(SVGText.value(value))\"" }
            if row.value != nil, let low = row.low, let high = row.high {
                data += " data-value-low=\"\(SVGText.value(low))\" data-value-high=\"\(SVGText.value(high))\""
            }
            if let beside = row.beside {
                data +=
                    " data-beside=\"\(SVGText.value(beside.value))\" data-beside-low=\"\(SVGText.value(beside.low))\""
                    + " data-beside-high=\"\(SVGText.value(beside.high))\""
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
                out += arrows([value, row.low ?? value, row.high ?? value], rowY, color, 5)
            }
            out +=
                "<text x=\"\(SVGText.f(plotRight + 20))\" y=\"\(y)\" dominant-baseline=\"middle\" fill=\"\(row.isSignificant ? "#0d47a1" : "#444")\"\(weight)>\(SVGText.escape(row.text))</text>\n"
            if let beside = row.beside {
                let by = SVGText.f(middle + 8), c = Self.besideColor
                out +=
                    "<line class=\"beside\" x1=\"\(SVGText.f(x(beside.low)))\" y1=\"\(by)\" x2=\"\(SVGText.f(x(beside.high)))\" y2=\"\(by)\" stroke=\"\(c)\" stroke-width=\"1.5\"/>\n"
                out +=
                    "<circle class=\"beside\" cx=\"\(SVGText.f(x(beside.value)))\" cy=\"\(by)\" r=\"4\" fill=\"white\" stroke=\"\(c)\" stroke-width=\"2\"/>\n"
                out += arrows([beside.value, beside.low, beside.high], middle + 8, c, 4)
                out +=
                    "<text x=\"\(SVGText.f(plotRight + 20))\" y=\"\(by)\" dominant-baseline=\"middle\" font-size=\"12\" fill=\"\(c)\">\(SVGText.escape(beside.text))</text>\n"
            }
            out += "</g>\n"
        }
        return ChartFrame.document(out, width: width, height: height, declaration: false, label: title)
    }

    /// The colour of the estimates beside the rows'.
    static let besideColor = "#e65100"
}

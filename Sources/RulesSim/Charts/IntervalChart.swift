/// Differences with their 95 % intervals, a row each (`compare`'s B − A per metric): a dot at the
/// difference, a whisker from the interval's low to its high, and a vertical line at 0. Metrics have
/// different units, so each row has its own scale, symmetric around 0: the zero line is at the same
/// place on every row, and a whisker that crosses it is a difference the interval cannot tell from
/// none. A significant row is drawn dark and bold, the others grey. Each row's group carries its
/// numbers (`data-metric`, `data-delta`, and `data-low`/`data-high` when it has an interval).
public struct IntervalChart: Sendable {
    public struct Row: Sendable {
        public var name: String
        public var value: Double
        /// The interval (nil: none, e.g. a maximum over users with groups of users).
        public var low: Double?
        public var high: Double?
        public var isSignificant: Bool
        /// The difference and its interval as the text prints them, at the right of the row.
        public var text: String

        public init(name: String, value: Double, low: Double?, high: Double?, isSignificant: Bool, text: String) {
            self.name = name
            self.value = value
            self.low = low
            self.high = high
            self.isSignificant = isSignificant
            self.text = text
        }
    }

    public var title: String
    public var note: String
    public var rows: [Row]
    public var width = 1100.0
    let rowHeight = 24.0, top = 64.0, bottom = 16.0, nameRight = 330.0, plotLeft = 350.0, plotRight = 690.0

    public init(title: String, note: String, rows: [Row]) {
        self.title = title
        self.note = note
        self.rows = rows
    }

    public var height: Double { top + rowHeight * Double(rows.count) + bottom }

    public func svg() -> String {
        let zero = (plotLeft + plotRight) / 2, half = (plotRight - plotLeft) / 2 * 0.92
        var out = "<text x=\"16\" y=\"18\" font-size=\"15\" font-weight=\"bold\">\(SVGText.escape(title))</text>\n"
        out += "<text x=\"16\" y=\"36\" fill=\"#555\">\(SVGText.escape(note))</text>\n"
        out +=
            "<text x=\"\(SVGText.f(plotLeft))\" y=\"\(SVGText.f(top - 8))\" fill=\"#555\">← B lower</text>\n"
            + "<text x=\"\(SVGText.f(zero))\" y=\"\(SVGText.f(top - 8))\" text-anchor=\"middle\" fill=\"#333\">0</text>\n"
            + "<text x=\"\(SVGText.f(plotRight))\" y=\"\(SVGText.f(top - 8))\" text-anchor=\"end\" fill=\"#555\">B higher →</text>\n"
            + "<text x=\"\(SVGText.f(plotRight + 20))\" y=\"\(SVGText.f(top - 8))\" fill=\"#555\">B − A [95% interval]</text>\n"
        for i in rows.indices {
            let y = top + rowHeight * (Double(i) + 0.5)
            if i % 2 == 0 {
                out +=
                    "<rect x=\"8\" y=\"\(SVGText.f(y - rowHeight / 2))\" width=\"\(SVGText.f(width - 16))\" height=\"\(SVGText.f(rowHeight))\" fill=\"#f5f6f8\"/>\n"
            }
        }
        out +=
            "<line x1=\"\(SVGText.f(zero))\" y1=\"\(SVGText.f(top))\" x2=\"\(SVGText.f(zero))\" y2=\"\(SVGText.f(top + rowHeight * Double(rows.count)))\" stroke=\"#888\"/>\n"
        for (i, row) in rows.enumerated() {
            let y = SVGText.f(top + rowHeight * (Double(i) + 0.5))
            let reach = [row.value, row.low ?? 0, row.high ?? 0].map { abs($0) }.filter(\.isFinite).max() ?? 0
            func x(_ v: Double) -> String { SVGText.f(reach == 0 ? zero : zero + half * v / reach) }
            let color = row.isSignificant ? "#0d47a1" : "#9e9e9e", weight = row.isSignificant ? " font-weight=\"bold\"" : ""
            var data = "data-metric=\"\(SVGText.escape(row.name))\" data-delta=\"\(SVGText.value(row.value))\""
            if let low = row.low, let high = row.high { data += " data-low=\"\(SVGText.value(low))\" data-high=\"\(SVGText.value(high))\"" }
            out += "<g \(data) data-significant=\"\(row.isSignificant)\">\n"
            out +=
                "<text x=\"\(SVGText.f(nameRight))\" y=\"\(y)\" text-anchor=\"end\" dominant-baseline=\"middle\"\(weight)>\(SVGText.escape(row.name))</text>\n"
            if let low = row.low, let high = row.high {
                out +=
                    "<line x1=\"\(x(low))\" y1=\"\(y)\" x2=\"\(x(high))\" y2=\"\(y)\" stroke=\"\(color)\" stroke-width=\"3\" stroke-linecap=\"round\"/>\n"
            }
            out += "<circle cx=\"\(x(row.value))\" cy=\"\(y)\" r=\"5\" fill=\"\(color)\"/>\n"
            out +=
                "<text x=\"\(SVGText.f(plotRight + 20))\" y=\"\(y)\" dominant-baseline=\"middle\" fill=\"\(row.isSignificant ? "#0d47a1" : "#444")\"\(weight)>\(SVGText.escape(row.text))</text>\n"
            out += "</g>\n"
        }
        return ChartFrame.document(out, width: width, height: height, declaration: false, label: title)
    }
}

/// One line of a chart: its values at the points of the chart's time axis (or one per bar), with an
/// optional interval band (`low`…`high`, one bound per value) drawn under the line. `key` names it
/// for tools and tests (`data-series`), `name` for people (the legend).
package struct ChartSeries: Sendable, Equatable {
    package var key: String
    package var name: String
    package var color: String
    package var values: [Double]
    package var low: [Double]?
    package var high: [Double]?
    /// A dashed line (e.g. the second of two overlaid runs).
    package var dashed = false

    package init(key: String, name: String, color: String, values: [Double], low: [Double]? = nil, high: [Double]? = nil) {
        self.key = key
        self.name = name
        self.color = color
        self.values = values
        self.low = low
        self.high = high
    }

    /// The same series over another axis: its values (and bounds) mapped by `transform`, e.g.
    /// ``TimeAxis/aggregate(_:)``.
    package func mapped(_ transform: ([Double]) -> [Double]) -> ChartSeries {
        var copy = self
        copy.values = transform(values)
        copy.low = low.map(transform)
        copy.high = high.map(transform)
        return copy
    }

    /// The largest value drawn (a band's high included); 0 when there is none.
    var largest: Double { (values + (high ?? [])).filter(\.isFinite).max() ?? 0 }
}

/// The x axis of a chart over a list of values rather than dates (a sweep's knob values): a slot
/// per value, in order, evenly spaced, each labelled, one of them marked (drawn in bold, with a
/// dashed line across the plot: the base's value), and the axis's name under it.
package struct CategoryAxis: Sendable, Equatable {
    /// What the values are (the knob's path), under the axis.
    package var name: String
    package var labels: [String]
    /// The index of the marked value, if any.
    package var marked: Int?
    /// What a point is, for the chart's note.
    package var note: String

    package init(name: String, labels: [String], marked: Int? = nil, note: String) {
        self.name = name
        self.labels = labels
        self.marked = marked
        self.note = note
    }
}

/// The x axis of a chart over a list of values rather than dates (a sweep's knob values): a slot
/// per value, in order, evenly spaced, each labelled, one of them marked (drawn in bold, with a
/// dashed line across the plot: the base's value), and the axis's name under it.
public struct CategoryAxis: Sendable, Equatable {
    /// What the values are (the knob's path), under the axis.
    public var name: String
    public var labels: [String]
    /// The index of the marked value, if any.
    public var marked: Int?
    /// What a point is, for the chart's note.
    public var note: String

    public init(name: String, labels: [String], marked: Int? = nil, note: String) {
        self.name = name
        self.labels = labels
        self.marked = marked
        self.note = note
    }
}

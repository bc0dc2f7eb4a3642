import RulesEngine
import RulesModel

/// A generated history's replay lines (user `u1`), added in any order and read in time order
/// (lines at the same instant in the order they were added).
struct TimedLines {
    private var events: [(at: EpochMillis, order: Int, line: String)] = []

    /// `{"at": "2026-03-02T09:30:10Z", "user": "u1", "type": …}`, with `fields` (JSON members) after the type.
    mutating func add(_ at: EpochMillis, _ type: String, _ fields: String = "") {
        let line =
            "{\"at\": \"\(Timestamp(millis: at))\", \"user\": \"u1\", \"type\": \"\(type)\"" + (fields.isEmpty ? "" : ", " + fields) + "}"
        events.append((at, events.count, line))
    }

    var lines: [String] { events.sorted { ($0.at, $0.order) < ($1.at, $1.order) }.map(\.line) }
}

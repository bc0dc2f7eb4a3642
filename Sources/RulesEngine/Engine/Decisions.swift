import RulesModel
/// What the engine decided while applying one event, in the order it happened.
struct Decisions {
    private(set) var fields: [(String, JSONValue)] = []
    /// The lists, in the order of their first decision (a few per event: searched, not hashed).
    private var lists: [(key: String, values: [JSONValue])] = []
    /// The options of an unlock gate opened (also in `unlock_gate`'s JSON), as the engine made them.
    var gateOptions: AvailableOptions?

    /// Sets a single decision (`check_in`, `shield`, …).
    mutating func set(_ key: String, _ value: JSONValue) {
        fields.removeAll { $0.0 == key }
        fields.append((key, value))
    }

    /// Appends to a list of decisions (`days`, `reminders_sent`, …).
    mutating func append(_ key: String, _ value: JSONValue) {
        if let index = lists.firstIndex(where: { $0.key == key }) {
            lists[index].values.append(value)
        } else {
            lists.append((key, [value]))
        }
    }

    var json: JSONValue {
        lists.isEmpty ? .object(fields) : .object(lists.map { ($0.key, JSONValue.array($0.values)) } + fields)
    }
}

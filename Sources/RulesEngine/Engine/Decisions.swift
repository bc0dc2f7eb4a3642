import RulesModel
/// What the engine decided while applying one event, in the order it happened.
struct Decisions {
    private(set) var fields: [(String, JSONValue)] = []
    private var lists: [String: [JSONValue]] = [:]
    private var listOrder: [String] = []

    /// Sets a single decision (`check_in`, `shield`, …).
    mutating func set(_ key: String, _ value: JSONValue) {
        fields.removeAll { $0.0 == key }
        fields.append((key, value))
    }

    /// Appends to a list of decisions (`days`, `reminders_sent`, …).
    mutating func append(_ key: String, _ value: JSONValue) {
        if lists[key] == nil { listOrder.append(key) }
        lists[key, default: []].append(value)
    }

    var json: JSONValue {
        .object(listOrder.map { ($0, JSONValue.array(lists[$0] ?? [])) } + fields)
    }
}

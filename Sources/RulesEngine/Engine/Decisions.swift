import RulesModel

/// What the engine decided while applying one event, in the order it happened (typed: see
/// `Decision`).
package struct Decisions: Sendable {
    /// Every decision, in the order made; a single decision made again replaces the earlier one.
    package private(set) var all: [Decision] = []

    /// Makes a single decision (`commitment`, `shield`, …).
    mutating func set(_ decision: Decision) {
        let key = decision.key
        let replaced = { (earlier: Decision) in !earlier.isListed && earlier.key == key }
        if all.contains(where: replaced) { all.removeAll(where: replaced) }
        append(decision)
    }

    /// Appends to a list of decisions (`days`, `reminders_sent`, …).
    mutating func append(_ decision: Decision) {
        // Room for a few at the first: an event makes one to a handful, and growing the array
        // one decision at a time copied each several times.
        if all.isEmpty { all.reserveCapacity(4) }
        all.append(decision)
    }

    /// The decisions as JSON: the lists first, in the order of their first element, then the
    /// single decisions in the order made.
    package var json: JSONValue {
        var lists: [(key: String, values: [JSONValue])] = []
        var fields: [(String, JSONValue)] = []
        for decision in all {
            if decision.isListed {
                let key = decision.key
                if let index = lists.firstIndex(where: { $0.key == key }) {
                    lists[index].values.append(decision.json)
                } else {
                    lists.append((key, [decision.json]))
                }
            } else {
                fields.append((decision.key, decision.json))
            }
        }
        return .object(lists.map { ($0.key, JSONValue.array($0.values)) } + fields)
    }
}

extension Decision {
    /// An element of a list (`days`, `reminders_sent`, `attempts_expired`, `quests_expired`,
    /// `earned_days`), not a single decision.
    var isListed: Bool {
        switch self {
        case .day, .reminderSent, .attemptExpired, .questExpired, .earnedDay: true
        default: false
        }
    }
}

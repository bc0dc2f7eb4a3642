import RulesEngine

/// One user of an input: its events in time order, and the input line of each when it has lines.
package struct LoggedUser: Sendable {
    package var name: String
    package var events: [EngineEvent]
    /// Each event's line in the log (nil: a database's rows, which have no lines).
    package var lines: [Int]?
    /// Its place among the whole input's users, whatever the shard read: the line of its first
    /// event in a log, its id in a database (the users come in this order).
    package var position: Int

    package init(name: String, events: [EngineEvent], lines: [Int]? = nil, position: Int? = nil) {
        self.name = name
        self.events = events
        self.lines = lines
        self.position = position ?? lines?.first ?? 0
    }

    /// The line of event `i`, when the input has lines.
    func line(_ i: Int) -> Int? { lines?[i] }
}

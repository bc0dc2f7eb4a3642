import RulesEngine

/// One user of an input: its events in time order, and the input line of each when it has lines.
package struct LoggedUser: Sendable {
    package var name: String
    package var events: [EngineEvent]
    /// Each event's line in the log (nil: a database's rows, which have no lines).
    package var lines: [Int]?

    package init(name: String, events: [EngineEvent], lines: [Int]? = nil) {
        self.name = name
        self.events = events
        self.lines = lines
    }

    /// The line of event `i`, when the input has lines.
    func line(_ i: Int) -> Int? { lines?[i] }
}

import LuaHost
import RulesEngine
import RulesModel

/// A Pressure history as a replay file: the JSON lines `rulesrun replay` applies through the
/// engine, the same decisions `HistoryWalker` walks.
///
/// On the set-up day (the day before day 1), in UTC: at 21:00 the user's first event, its settings
/// (day 1's window, notifications on; its deadline has passed, so the set-up day does not count),
/// and at 21:01 a PAID subscription (restart shields). Then per day:
/// - a change of the next day's window: a `settings` event at 05:00, before the day's events
///   (changes apply from the next day);
/// - a commitment at 05:30, unless the day has none (the deadline then decides the day);
/// - a YES or NO check-in ten minutes after the deadline; a MISSED day with a commitment gets none
///   and the window's close decides it;
/// - a `shield` five minutes after the NO, the close (00:04 the next day for a 23:59 close) or the
///   deadline;
/// - after the last day, a `tick` at 05:00 the next day when no event of the last day shows its
///   result.
package struct ReplayScript: Sendable {
    /// The events, one JSON object per line.
    package private(set) var lines: [String] = []
    /// The number of set-up lines at the start.
    package private(set) var setupCount = 0
    /// For each line, the day of the history it belongs to (0 for the set-up).
    package private(set) var dayOfLine: [Int] = []
    /// Comment lines (`# …`) written at the top of the file.
    package var header: [String] = []

    /// Events beyond the set-up.
    package var eventsBeyondSetup: Int { lines.count - setupCount }

    /// The file's text: the header as comments (one line each, whatever the names in them hold),
    /// then the events.
    package var text: String {
        (header.map { "# " + VisibleText.oneLine($0) } + lines).joined(separator: "\n") + "\n"
    }

    package init(_ history: PressureHistory, user: String = "u1") {
        let userField = user == "u1" ? "" : ", \"user\": \(Self.quoted(user))"
        func add(_ day: Int, _ minutes: Int, _ fields: String, history dayNumber: Int) {
            let instant = history.setupDay.adding(days: day)!.utcStartMillis + Int64(minutes) * Millis.minute
            lines.append("{\"at\": \"\(Timestamp(millis: instant))\"\(userField), \(fields)}")
            dayOfLine.append(dayNumber)
        }
        let first = history.days.first.map { ($0.open, $0.close) } ?? (PressureHistory.defaultOpen, PressureHistory.defaultClose)
        add(
            0, 21 * 60,
            "\"type\": \"settings\", \"commitment_deadline\": \"\(first.0)\", \"checkin_window_close\": \"\(first.1)\", \"notifications_enabled\": true",
            history: 0)
        add(0, 21 * 60 + 1, "\"type\": \"subscription\", \"tier\": \"PAID\"", history: 0)
        setupCount = lines.count
        for (i, day) in history.days.enumerated() {
            let d = i + 1
            // Tomorrow's window, set before today's events (a change applies from the next day).
            if i + 1 < history.days.count, case let next = history.days[i + 1], (next.open, next.close) != (day.open, day.close) {
                add(
                    d, 5 * 60,
                    "\"type\": \"settings\", \"commitment_deadline\": \"\(next.open)\", \"checkin_window_close\": \"\(next.close)\"",
                    history: d)
            }
            if day.committed { add(d, 5 * 60 + 30, "\"type\": \"commitment\", \"text\": \"day \(d)\"", history: d) }
            switch day.result {
            case .yes, .no:
                add(d, day.open.minutes + 10, "\"type\": \"check_in\", \"result\": \"\(day.result.rawValue)\"", history: d)
                if day.shieldUsed { add(d, day.open.minutes + 15, "\"type\": \"shield\"", history: d) }
            default:
                if day.shieldUsed {
                    add(d, day.committed ? day.close.minutes + 5 : day.open.minutes + 5, "\"type\": \"shield\"", history: d)
                }
            }
        }
        if let last = history.days.last, !Self.showsItsResult(last) {
            add(history.days.count + 1, 5 * 60, "\"type\": \"tick\"", history: history.days.count)
        }
    }

    /// Leaves out the final `tick`, when the events before it already show what the file is for
    /// (the outputs of the other events do not change: a replay applies events in order).
    package mutating func dropTrailingTick() {
        guard lines.count > setupCount, lines.last?.contains("\"type\": \"tick\"") == true else { return }
        lines.removeLast()
        dayOfLine.removeLast()
    }

    /// The events a day adds to the file (besides a window change).
    package static func events(of day: PressureHistory.Day) -> Int {
        (day.committed ? 1 : 0) + (day.result == .missed ? 0 : 1) + (day.shieldUsed ? 1 : 0)
    }

    /// Whether an event of the day comes after its result (a check-in or a shield).
    static func showsItsResult(_ day: PressureHistory.Day) -> Bool { day.result != .missed || day.shieldUsed }

    static func quoted(_ text: String) -> String { JSONValue.string(text).description }
}

extension ReplayScript {
    /// A history as a failing property test prints it: the replay file to save and run with
    /// `rulesrun replay FILE --rules DIR`. A history that does not start fresh cannot be replayed
    /// from its start state; the note says so (shrinking tries a fresh start first, so this is rare).
    package static func failureReport(_ history: PressureHistory) -> String {
        var script = ReplayScript(history)
        script.header = [
            "\(history.origin.isEmpty ? "a history" : history.origin): \(history.days.count) days, \(script.eventsBeyondSetup) events beyond the set-up"
        ]
        if !history.startsFresh {
            script.header.append(
                "NOTE: the history starts from \(PressureHistory.describe(history.counters)), \(PressureHistory.describe(history.streak)); a replay starts from a new user"
            )
        }
        return "replay file (save it and run `rulesrun replay FILE --rules DIR`):\n" + script.text
    }
}

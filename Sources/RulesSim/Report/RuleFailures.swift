import Foundation
import RulesEngine
import RulesModel

/// The events of a run that the engine refused because the rule set failed, not because the
/// apps' rules said no: a rule function raised a Lua error or went over a budget (`RULE_ERROR`),
/// the host's checks refused a rule's decision (`RULE_VIOLATION`), or the store refused the change
/// (`STORE_ERROR`). They are counted among the refused events too; a run with any exits 1.
/// Refusals that are results (`DEADLINE_PASSED`, a denied unlock) are not failures.
package struct RuleFailures: Sendable, Equatable {
    package enum Code: String, CaseIterable, Sendable {
        case ruleError = "RULE_ERROR", ruleViolation = "RULE_VIOLATION", storeError = "STORE_ERROR"
    }

    package var counts = CaseCounts<Code>()
    /// The first failure of the run: of the user with the lowest index, its first (whatever the
    /// number of jobs or shards).
    package var first: First?

    package init() {}

    /// One failed event.
    package struct First: Sendable, Equatable {
        /// The user's index in the cohort (0-based) and name (`u<id>`).
        package var userIndex: Int
        package var user: String
        /// The simulated day (0-based) and its date.
        package var day: Int
        package var date: String
        /// The event: its time and type.
        package var at: String
        package var event: String
        package var code: String
        package var message: String
        /// Where the failing rule function is (`escalation.lua:4`), when known.
        package var location: String?
        /// The user's events up to the failing one (its last), for a replay file; not in JSON
        /// (a merged report says how to run the user again instead).
        package var events: [EngineEvent] = []

        package init(
            userIndex: Int, user: String, day: Int, date: String, at: String, event: String, code: String, message: String,
            location: String?, events: [EngineEvent] = []
        ) {
            self.userIndex = userIndex
            self.user = user
            self.day = day
            self.date = date
            self.at = at
            self.event = event
            self.code = code
            self.message = message
            self.location = location
            self.events = events
        }

        /// Equal when they describe the same failure (a report read from JSON has no events).
        package static func == (a: First, b: First) -> Bool {
            (a.userIndex, a.user, a.day, a.date, a.at, a.event) == (b.userIndex, b.user, b.day, b.date, b.at, b.event)
                && (a.code, a.message, a.location ?? "") == (b.code, b.message, b.location ?? "")
                && (a.location == nil) == (b.location == nil)
        }

        /// `escalation.lua:4: too many misses (RULE_ERROR)`: where the rule is (when known) and what
        /// went wrong, the place said once.
        package var described: String {
            guard let location else { return "\(message) (\(code))" }
            let text = message.hasPrefix(location + ": ") ? String(message.dropFirst(location.count + 2)) : message
            return "\(location): \(text) (\(code))"
        }
    }

    package var isEmpty: Bool { counts.total == 0 }

    /// `RULE_ERROR 12, RULE_VIOLATION 3` (the codes that occurred).
    package var countsText: String {
        counts.entries.filter { $0.1 > 0 }.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: ", ")
    }

    /// Adds another part's failures: the counts, and the first failure of the lower user.
    package mutating func add(_ other: RuleFailures) {
        counts.add(other.counts)
        if let theirs = other.first, first.map({ theirs.userIndex < $0.userIndex }) ?? true { first = theirs }
    }

    /// The code of a refused event's error, when it is a failure of the rule set (nil: a refusal by the apps' rules).
    static func code(of error: any Error) -> (Code, EngineError)? {
        guard let error = error as? EngineError, let code = Code(rawValue: error.code.rawValue) else { return nil }
        return (code, error)
    }

    /// The place a Lua error's message starts with (`escalation.lua:4`), if any.
    static func leadingLocation(_ message: String) -> String? {
        guard let range = message.range(of: #"^[^:\s][^:]*\.lua:[0-9]+"#, options: .regularExpression) else { return nil }
        return String(message[range])
    }
}

extension RuleFailures {
    /// In a JSON report, only when there are any (so that a clean run's report is unchanged):
    /// `"failures": {"RULE_ERROR": 12, …, "first": {"user": "u17", …}}`.
    var json: JSONValue {
        var fields: [(String, JSONValue)] = counts.entries.map { ($0.0.rawValue, .int($0.1)) }
        if let f = first {
            fields.append(
                (
                    "first",
                    .object(
                        [
                            ("user_index", .int(f.userIndex)), ("user", .string(f.user)), ("day", .int(f.day + 1)),
                            ("date", .string(f.date)),
                            ("at", .string(f.at)), ("event", .string(f.event)), ("code", .string(f.code)), ("message", .string(f.message)),
                        ] + (f.location.map { [("location", .string($0))] } ?? []))
                ))
        }
        return .object(fields)
    }

    /// Reads `json`'s object.
    init(jsonObject object: [String: Any]) throws(SimulationError) {
        for code in Code.allCases {
            guard let value = object[code.rawValue] else { continue }
            try SimulationReport.checkCounts(value, at: "failures.\(code.rawValue)")
            guard let n = value as? Int else {
                throw SimulationError("failures.\(code.rawValue): expected a count, found \(SimulationReport.shown(value))")
            }
            counts[code] = n
        }
        guard let raw = object["first"] else { return }
        guard let f = raw as? [String: Any], let index = f["user_index"] as? Int, index >= 0, let user = f["user"] as? String,
            let day = f["day"] as? Int, day >= 1, let date = f["date"] as? String, let at = f["at"] as? String,
            let event = f["event"] as? String, let code = f["code"] as? String, let message = f["message"] as? String
        else {
            throw SimulationError("failures.first: expected an object with user_index, user, day, date, at, event, code and message")
        }
        first = First(
            userIndex: index, user: user, day: day - 1, date: date, at: at, event: event, code: code, message: message,
            location: f["location"] as? String)
    }
}

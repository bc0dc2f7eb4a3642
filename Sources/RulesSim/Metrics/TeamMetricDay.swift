import LuaHost
import RulesEngine
import RulesModel

/// What a team metric's `day(d)` sees of one user's day: what the engine logged and decided, and
/// the state it reports at the day's end. Engine outputs only (what an app's log holds, or what
/// replaying it gives), never a persona's internals, so that the analysis of real logs computes the
/// same metric the same way.
///
/// `d = { day = 1…, date = "2026-01-05", user = "u3", apps = { earned = true, … },
/// events = { { type = "unlock_request", at = "…Z", time = "22:15", hour = 22, …its fields }, … },
/// decisions = { { type = "unlock", at = …, time = …, hour = …, …its fields }, … },
/// pressure = { tier, current_streak, longest_streak, restart_shields_remaining, paid },
/// earned = { balance }, habits = { { task = "read", current_streak = 3 }, … } }` — `pressure`,
/// `earned` and `habits` only for the users of those apps; `time` and `hour` on the user's clock.
struct TeamMetricDay {
    var index: Int
    var date: String
    var user: String
    var apps: [Metric.App]
    var events: [JSONValue] = []
    var decisions: [JSONValue] = []

    /// The state the engine reports at the end of the day, for the apps the user uses.
    struct State {
        var pressure: UserSummary?
        var balance: Int?
        var habits: [(task: String, streak: Int)] = []

        /// A new user's (for the check of a metrics file before a run).
        static let empty = State(pressure: nil, balance: 0, habits: [])
    }

    /// Notes an event the app logged (`refused`: the engine refused it) at its time on `clock`.
    mutating func note(_ event: EngineEvent, refused: Bool, clock: LocalClock) {
        let refusal: [(String, JSONValue)] = refused ? [("refused", .bool(true))] : []
        events.append(.object(Self.when(event.kind.typeName, event.at.millis, clock) + refusal + event.kind.jsonFields))
    }

    /// Notes what the engine decided on an event at `at`.
    mutating func note(_ decisions: Decisions, at: EpochMillis, clock: LocalClock) {
        for decision in decisions.all {
            let fields: [(String, JSONValue)]
            switch decision.json {
            case .object(let members): fields = members
            case let value: fields = [("value", value)]
            }
            self.decisions.append(.object(Self.when(decision.key, at, clock) + fields))
        }
    }

    private static func when(_ type: String, _ at: EpochMillis, _ clock: LocalClock) -> [(String, JSONValue)] {
        let minutes = clock.civil(at).minutes
        let time = (LocalTime(minutes: minutes) ?? LocalTime(hour: 23, minute: 59)).text
        return [
            ("type", .string(type)), ("at", .string(Timestamp(millis: at).description)), ("time", .string(time)),
            ("hour", .int(minutes / 60)),
        ]
    }

    /// The day as the Lua table `day(d)` is given.
    func lua(state: State) -> LuaValue {
        var members: [(String, JSONValue)] = [
            ("day", .int(index + 1)), ("date", .string(date)), ("user", .string(user)),
            ("apps", .object(apps.map { ($0.rawValue, .bool(true)) })), ("events", .array(events)), ("decisions", .array(decisions)),
        ]
        if apps.contains(.pressure) {
            let p = state.pressure
            members.append(
                (
                    "pressure",
                    .object([
                        ("tier", .int(p?.tier ?? 0)), ("current_streak", .int(p?.currentStreak ?? 0)),
                        ("longest_streak", .int(p?.longestStreak ?? 0)),
                        ("restart_shields_remaining", .int(p?.restartShieldsRemaining ?? 0)), ("paid", .bool(p?.isPaid ?? false)),
                    ])
                ))
        }
        if apps.contains(.earned), let balance = state.balance { members.append(("earned", .object([("balance", .int(balance))]))) }
        if apps.contains(.habits) {
            members.append(
                ("habits", .array(state.habits.map { .object([("task", .string($0.task)), ("current_streak", .int($0.streak))]) })))
        }
        return LuaValue(json: .object(members))
    }
}

import Foundation
import RulesEngine
import RulesModel

extension SimulationReport {
    /// The report as one JSON object: `run` (what was simulated), `summary`, and `days` (one
    /// object per day with its raw counts, which `rulesrun merge` adds up, and derived shares and
    /// percentiles). Keys come in a fixed order; the same run prints the same bytes.
    package func json() -> String {
        let s = ReportSummary(self)
        let shown = HabitShown(days)
        let r = run
        let runObject: JSONValue = .object(
            [
                ("duration", .string(r.duration)), ("start", .string(r.start)), ("days", .int(r.days)), ("users", .int(r.users)),
                ("users_from", .int(r.usersFrom)), ("users_to", .int(r.usersTo)),
            ] + (r.idOffset == 0 ? [] : [("id_offset", .int(r.idOffset))]) + [
                ("seed", .string(String(r.seed))),
                ("personas", .string(r.personas)), ("rules", .string(r.rules)), ("engine", .string(r.engine)),
                ("inputs_digest", .string(r.inputsDigest)),
            ])
        // The members of the apps the cohort uses (`apps`: each with its user-days).
        let apps = Metric.apps(of: s)
        var members: [(String, JSONValue)] = [
            ("users", .int(s.users)), ("days", .int(s.days)), ("user_days", .int(s.userDays)),
            ("apps", .object(Self.appUserDays(s).filter { apps.contains($0.app) }.map { ($0.app.rawValue, .int($0.userDays)) })),
            Self.member(.events, s), Self.member(.refusedEvents, s),
        ]
        if apps.contains(.pressure) {
            members += [
                ("commitments", .int(s.commitments)),
                ("check_ins", .object([("YES", .int(s.yes)), ("NO", .int(s.no)), ("MISSED", .int(s.missed))])),
                Self.member(.yesRate, s),
                ("reminders", .int(s.reminders)), Self.member(.remindersPerUserDay, s), Self.member(.maxRemindersPerUserDay, s),
                ("user_days_at_tier", .array(s.userDaysAtTier.map { .int($0) })), Self.member(.shieldsUsed, s),
            ]
        }
        if apps.contains(.habits) {
            members += [Self.member(.habitCompletionRate, s), Self.member(.habitStreakP50, s), Self.member(.habitStreakP90, s)]
                + Self.habitSummaryJSON(s, shown)
        }
        if apps.contains(.miga) {
            members += [Self.member(.exitsToFocus, s), ("deepen_pause", .int(s.deepens)), ("proceed_to_app", .int(s.proceeds))]
        }
        if apps.contains(.pressure) {
            members.append(
                (
                    "final_streak",
                    .object([
                        ("p50", .int(s.finalStreaks.streakPercentile(50))), ("p90", .int(s.finalStreaks.streakPercentile(90))),
                        ("max", .int(max(0, s.finalStreaks.streaks.count - 1))),
                        ("distribution", .object(s.streakBuckets.map { ($0.0, .int($0.1)) })),
                    ])
                ))
        }
        if apps.contains(.earned) { members.append(("earned", Self.earnedSummaryJSON(s))) }
        let team = MetricRegistry.only([], team: teamMetrics, apps: apps)
        if !team.isEmpty { members.append(("team_metrics", .object(team.map { ($0.id, Self.rounded($0.value(s))) }))) }
        let summary: JSONValue = .object(members)
        let days = dayObjects(shown)
        // The rule set's failures only when there are any: a clean run's report is unchanged.
        let failures: [(String, JSONValue)] = self.failures.isEmpty ? [] : [("failures", self.failures.json)]
        return JSONValue.object(
            [
                ("report", .string("rulesrun simulate")), ("version", .int(1)), ("run", runObject),
            ] + (teamMetrics.isEmpty ? [] : [("team_metrics", .array(teamMetrics.map(\.json)))]) + [
                ("summary", summary),
            ] + failures + (breakdown.map { [("segments", $0.json)] } ?? []) + (armBreakdown.map { [("arms", $0.json)] } ?? [])
                + [("days", .array(days))]
                + (coverage.map { [("coverage", $0)] } ?? [])
        ).description + "\n"
    }

    /// The `days` of the JSON report: one object per day, its raw counts and derived figures.
    func dayObjects(_ shown: HabitShown) -> [JSONValue] {
        let start = try? DayID(run.start)
        return self.days.enumerated().map { i, d in
            .object(
                [
                    ("day", .int(i + 1)), ("date", .string(start?.adding(days: i)?.rawValue ?? "")),
                    ("users", .int(d.users)), ("active", .int(d.active)), ("habit_users", .int(d.habitUsers)),
                    ("miga_users", .int(d.migaUsers)),
                    ("tier_share", .array(Metric.userDaysAtTier.map { Self.rounded($0.value(d)) })),
                    Self.member(.streakP50, d), Self.member(.streakP90, d), Self.member(.habitCompletionRate, d),
                    ("tiers", .array(d.tiers.map { .int($0) })), ("reminders", .int(d.reminders)), ("max_reminders", .int(d.maxReminders)),
                    ("commitments", .int(d.commitments)), ("yes", .int(d.yes)), ("no", .int(d.no)), ("missed", .int(d.missed)),
                    ("shields", .int(d.shields)), ("habit_done", .int(d.habitDone)), ("habit_planned", .int(d.habitPlanned)),
                    ("exits_to_focus", .int(d.exits)), ("deepen_pause", .int(d.deepens)), ("proceed_to_app", .int(d.proceeds)),
                    ("refused_events", .int(d.refused)), ("events", .int(d.events)),
                    ("streak_histogram", .array(d.streaks.map { .int($0) })),
                    ("habit_streak_histogram", .array(d.habitStreaks.map { .int($0) })),
                    ("earned_streak_histogram", .array(d.earnedStreaks.map { .int($0) })),
                    Self.member(.earnedStreakP50, d), Self.member(.earnedStreakP90, d),
                ] + Self.habitDayJSON(d, shown) + [("earned", Self.earnedDayJSON(d.earned))] + teamDayJSON(d))
        }
    }

    /// A day's team metrics: under each id, the day's value and its counts (nothing for a run without them).
    private func teamDayJSON(_ d: DayTotals) -> [(String, JSONValue)] {
        guard !teamMetrics.isEmpty else { return [] }
        let members = teamMetrics.compactMap { m -> (String, JSONValue)? in
            d.team(m.id).map { (m.id, .object([("value", Self.rounded(m.metric.value(d)))] + $0.countMembers)) }
        }
        return [(DayTotals.CodingKeys.team.rawValue, .object(members))]
    }

    /// The largest report `rulesrun merge` reads: 128 MiB, several times the report of the longest
    /// run (10 years of days, each with its streak histogram).
    package static let maxJSONBytes = 128 << 20

    /// Reads a report printed by `json()` (a shard's, for `rulesrun merge`): its run, and each
    /// day's counts, which must be whole numbers from 0 to `maxCount`, in days numbered from 1
    /// and dated from the run's start. Whether the counts can be right is `validate`'s question.
    package init(json data: Data) throws(SimulationError) {
        let object: [String: Any]
        if !data.isEmpty { try Self.checkStrictly(data) }
        do {
            guard let value = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw SimulationError("not a report of rulesrun simulate --format json: expected a JSON object")
            }
            object = value
        } catch let error as SimulationError {
            throw error
        } catch {
            throw SimulationError(
                "not a report of rulesrun simulate --format json: \(data.isEmpty ? "the file is empty" : "malformed JSON (\(Self.reason(error)))")"
            )
        }
        guard object["report"] as? String == "rulesrun simulate" else {
            throw SimulationError(
                "not a report of rulesrun simulate --format json (report: expected \"rulesrun simulate\", found \(Self.shown(object["report"])))"
            )
        }
        guard let version = object["version"] as? Int, version == 1 else {
            throw SimulationError("version: expected 1 (a report of this version of rulesrun), found \(Self.shown(object["version"]))")
        }
        // The counts (what `DayTotals` reads and merge adds), as they are written: a fractional or
        // huge number is named here, before the decoder would refuse it without saying where.
        let rawDays = object["days"] as? [Any] ?? []
        for (d, rawDay) in rawDays.enumerated() {
            guard let day = rawDay as? [String: Any] else { continue }
            for key in DayTotals.CodingKeys.allCases where key != .earned && key != .team {
                if let value = day[key.rawValue] { try Self.checkCounts(value, at: "days[\(d)].\(key.rawValue)") }
            }
            guard let earned = day[DayTotals.CodingKeys.earned.rawValue] as? [String: Any] else { continue }
            for key in EconomyTotals.CodingKeys.allCases {
                if let value = earned[key.rawValue] { try Self.checkCounts(value, at: "days[\(d)].earned.\(key.rawValue)") }
            }
        }
        struct Document: Decodable {
            var run: Run
            var days: [DayTotals]
            var team_metrics: [TeamMetric]?
            struct Run: Decodable {
                var duration, start: String
                var days, users: Int
                var users_from, users_to: Int
                var id_offset: Int?
                var seed: String
                var personas, rules, engine, inputs_digest: String
            }
        }
        let doc: Document
        do {
            doc = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw SimulationError(Self.describe(error))
        }
        let r = doc.run
        guard let seed = UInt64(r.seed) else {
            throw SimulationError("run.seed: expected a whole number from 0 to \(UInt64.max) in a string, found \(Self.shown(r.seed))")
        }
        // Each day says which it is: days dropped, repeated or reordered are not the run's.
        let start = try? DayID(r.start)
        for (d, rawDay) in rawDays.enumerated() {
            let day = rawDay as? [String: Any]
            guard day?["day"] as? Int == d + 1 else {
                throw SimulationError("days[\(d)].day: expected \(d + 1) (the days in order from 1), found \(Self.shown(day?["day"]))")
            }
            if let date = start?.adding(days: d)?.rawValue, day?["date"] as? String != date {
                throw SimulationError(
                    "days[\(d)].date: expected \"\(date)\" (run.start \(r.start) + \(d) day\(d == 1 ? "" : "s")), found \(Self.shown(day?["date"]))"
                )
            }
        }
        let withEarned = rawDays.map { ($0 as? [String: Any])?[DayTotals.CodingKeys.earned.rawValue] != nil }
        if let d = withEarned.firstIndex(where: { $0 != withEarned[0] }) {
            throw SimulationError(
                "days[\(d)].earned: \(withEarned[d] ? "present" : "missing"), but \(withEarned[0] ? "present" : "missing") in days[0] "
                    + "(a report written before Earned was simulated has it in no day)")
        }
        self.init(
            run: RunDescription(
                duration: r.duration, start: r.start, days: r.days, users: r.users, usersFrom: r.users_from,
                usersTo: r.users_to, idOffset: r.id_offset ?? 0, seed: seed, personas: r.personas, rules: r.rules, engine: r.engine,
                inputsDigest: r.inputs_digest),
            days: doc.days)
        earnedCounted = withEarned.first ?? true
        // The team's metrics: each day's counts in the order the report declares them.
        teamMetrics = doc.team_metrics ?? []
        let order = teamMetrics.map(\.id)
        for d in days.indices {
            guard Set(days[d].team.map(\.id)) == Set(order) else {
                throw SimulationError(
                    "days[\(d)].team_metrics: has \(days[d].team.map(\.id).sorted()), expected the report's team_metrics \(order.sorted())")
            }
            days[d].team = order.map { id in days[d].team(id)! }
        }
        if let raw = object["failures"] {
            guard let failuresObject = raw as? [String: Any] else {
                throw SimulationError(
                    "failures: expected an object of counts by code (RULE_ERROR, RULE_VIOLATION, STORE_ERROR), found \(Self.shown(raw))")
            }
            failures = try RuleFailures(jsonObject: failuresObject)
        }
    }

    /// Refuses, naming the field, what Foundation's reader would let through changed or refuse
    /// without saying where: a string that is not UTF-8, a key twice in one object (one of its
    /// values would be dropped), a whole number beyond 64 bits (with the range the field takes).
    static func checkStrictly(_ data: Data) throws(SimulationError) {
        do {
            _ = try JSONLine.parse(utf8: [UInt8](data), firstIndex: 0)
        } catch {
            switch error.kind {
            case .syntax:
                throw SimulationError("not a report of rulesrun simulate --format json: malformed JSON (\(error))")
            case .integerOutOfRange(let found):
                let field = error.field ?? ""
                let expected =
                    field == "run.users"
                    ? "a whole number from 1 to \(Simulation.maxUsers)"
                    : field.hasPrefix("days[") || field.hasPrefix("run.")
                        ? "a count (a whole number from 0 to \(maxCount))"
                        : "a whole number from \(Int.min) to \(Int.max)"
                throw SimulationError("\(field.isEmpty ? "" : "\(field): ")expected \(expected), found \(found)")
            case .notUTF8, .duplicateKey:
                throw SimulationError(error.fieldMessage)
            }
        }
    }

    /// The largest count a report may hold: far above any real run, far enough below `Int.max`
    /// that the counts of any number of shards add up without overflow.
    static let maxCount = 1_000_000_000_000

    /// Every number in `value` is a count: a whole number from 0 to `maxCount`.
    static func checkCounts(_ value: Any, at path: String) throws(SimulationError) {
        switch value {
        case let array as [Any]:
            for (i, element) in array.enumerated() { try checkCounts(element, at: "\(path)[\(i)]") }
        case let object as [String: Any]:
            for key in object.keys.sorted() { try checkCounts(object[key]!, at: "\(path).\(key)") }
        case let number as NSNumber:
            let double = number.doubleValue
            guard double == double.rounded(), (0...Double(maxCount)).contains(double) else {
                throw SimulationError("\(path): expected a count (a whole number from 0 to \(maxCount)), found \(number)")
            }
        default:
            break  // strings and the like: the decoder checks their types
        }
    }

    /// A decoding error as the field it is about and what was expected (`ModelJSON`'s reading).
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        let (path, expected) = ModelJSON.describe(error)
        return path.isEmpty ? "not a report of rulesrun simulate --format json: \(expected)" : "\(path): expected \(expected)"
    }

    /// Why JSON did not parse, as Foundation says it (its debug description, where it gives the place).
    static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        return (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ns.localizedDescription
    }

    /// A JSON value as found, short.
    static func shown(_ value: Any?) -> String {
        switch value {
        case nil: return "nothing"
        case let text as String: return "\"\(text.prefix(40))\""
        case let number as NSNumber: return "\(number)"
        default: return "a \(type(of: value!))"
        }
    }

    /// A share or rate with 4 decimals, printed the same everywhere.
    static func rounded(_ x: Double) -> JSONValue { .double(round4(x)) }

    /// A registry metric's value under its id (``Metric/id``): a whole number for a unit counted in
    /// whole numbers, else with 4 decimals (`rounded`).
    static func member(_ metric: Metric, _ summary: ReportSummary) -> (String, JSONValue) { member(metric, metric.value(summary)) }
    static func member(_ metric: Metric, _ day: DayTotals) -> (String, JSONValue) { member(metric, metric.value(day)) }
    private static func member(_ metric: Metric, _ value: Double) -> (String, JSONValue) {
        (metric.id, metric.unit.decimals == 0 ? .int(Int(value)) : rounded(value))
    }

    /// `x` with 4 decimals, as the JSON report holds it (and a chart drawn from it).
    static func round4(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }
}

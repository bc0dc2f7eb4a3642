import Foundation
import RulesEngine
import RulesModel

extension SimulationReport {
    /// The report as one JSON object: `run` (what was simulated), `summary`, and `days` (one
    /// object per day with its raw counts, which `rulesrun merge` adds up, and derived shares and
    /// percentiles). Keys come in a fixed order; the same run prints the same bytes.
    public func json() -> String {
        let s = ReportSummary(self)
        let r = run
        let runObject: JSONOut = .object([
            ("duration", .string(r.duration)), ("start", .string(r.start)), ("days", .int(r.days)), ("users", .int(r.users)),
            ("users_from", .int(r.usersFrom)), ("users_to", .int(r.usersTo)), ("seed", .string(String(r.seed))),
            ("personas", .string(r.personas)), ("rules", .string(r.rules)), ("engine", .string(r.engine)),
            ("inputs_digest", .string(r.inputsDigest)),
        ])
        let summary: JSONOut = .object([
            ("users", .int(s.users)), ("days", .int(s.days)), ("user_days", .int(s.userDays)),
            ("events", .int(s.events)), ("refused_events", .int(s.refused)), ("commitments", .int(s.commitments)),
            ("check_ins", .object([("YES", .int(s.yes)), ("NO", .int(s.no)), ("MISSED", .int(s.missed))])),
            ("yes_rate", Self.rounded(s.yesRate)),
            ("reminders", .int(s.reminders)), ("reminders_per_user_day", Self.rounded(s.remindersPerUserDay)),
            ("max_reminders_per_user_day", .int(s.maxRemindersPerUserDay)),
            ("user_days_at_tier", .array(s.userDaysAtTier.map { .int($0) })),
            ("shields_used", .int(s.shields)),
            ("habit_completion_rate", Self.rounded(s.habitRate)),
            ("exits_to_focus", .int(s.exits)), ("deepen_pause", .int(s.deepens)), ("proceed_to_app", .int(s.proceeds)),
            ("final_streak", .object([
                ("p50", .int(s.finalStreaks.streakPercentile(50))), ("p90", .int(s.finalStreaks.streakPercentile(90))),
                ("max", .int(max(0, s.finalStreaks.streaks.count - 1))),
                ("distribution", .object(s.streakBuckets.map { ($0.0, .int($0.1)) })),
            ])),
            ("earned", Self.earnedSummaryJSON(s)),
        ])
        let start = try? DayID(r.start)
        let days: [JSONOut] = self.days.enumerated().map { i, d in
            let users = max(1, d.users)
            return .object([
                ("day", .int(i + 1)), ("date", .string(start?.adding(days: i)?.rawValue ?? "")),
                ("tier_share", .array(d.tiers.map { Self.rounded(Double($0) / Double(users)) })),
                ("streak_p50", .int(d.streakPercentile(50))), ("streak_p90", .int(d.streakPercentile(90))),
                ("habit_completion_rate", Self.rounded(d.habitPlanned == 0 ? 0 : Double(d.habitDone) / Double(d.habitPlanned))),
                ("tiers", .array(d.tiers.map { .int($0) })), ("reminders", .int(d.reminders)), ("max_reminders", .int(d.maxReminders)),
                ("commitments", .int(d.commitments)), ("yes", .int(d.yes)), ("no", .int(d.no)), ("missed", .int(d.missed)),
                ("shields", .int(d.shields)), ("habit_done", .int(d.habitDone)), ("habit_planned", .int(d.habitPlanned)),
                ("exits_to_focus", .int(d.exits)), ("deepen_pause", .int(d.deepens)), ("proceed_to_app", .int(d.proceeds)),
                ("refused_events", .int(d.refused)), ("events", .int(d.events)),
                ("streak_histogram", .array(d.streaks.map { .int($0) })),
                ("earned", Self.earnedDayJSON(d.earned)),
            ])
        }
        return JSONOut.object([("report", .string("rulesrun simulate")), ("version", .int(1)), ("run", runObject),
                               ("summary", summary), ("days", .array(days))]).description + "\n"
    }

    /// Reads a report printed by `json()` (a shard's, for `rulesrun merge`).
    public init(json data: Data) throws(SimulationError) {
        struct Document: Decodable {
            var report: String
            var version: Int
            var run: Run
            var days: [DayTotals]
            struct Run: Decodable {
                var duration, start: String
                var days, users: Int
                var users_from, users_to: Int
                var seed: String
                var personas, rules, engine, inputs_digest: String
            }
        }
        let doc: Document
        do {
            doc = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw SimulationError("not a report of rulesrun simulate --format json (\(Self.describe(error)))")
        }
        guard doc.report == "rulesrun simulate", doc.version == 1, let seed = UInt64(doc.run.seed), doc.days.count == doc.run.days else {
            throw SimulationError("not a report of rulesrun simulate --format json, version 1")
        }
        let r = doc.run
        guard r.users >= 1, r.users <= Simulation.maxUsers, 0 <= r.users_from, r.users_from <= r.users_to, r.users_to <= r.users else {
            throw SimulationError("run: users_from \(r.users_from), users_to \(r.users_to) and users \(r.users) do not make a slice of the cohort")
        }
        // Every user is counted once a day, on a tier and in the streak histogram.
        for (d, day) in doc.days.enumerated() {
            // The counts (what `DayTotals` reads and merge adds), as they were read.
            if let counts = try? JSONSerialization.jsonObject(with: JSONEncoder().encode(day)) {
                try Self.checkCounts(counts, at: "days[\(d)]")
            }
            for (field, total) in [("tiers", day.tiers.reduce(0, +)), ("streak_histogram", day.streaks.reduce(0, +))]
            where total != r.users_to - r.users_from {
                throw SimulationError("days[\(d)].\(field): counts \(total) users, but the report covers \(r.users_to - r.users_from)")
            }
        }
        if let d = doc.days.indices.first(where: { (doc.days[$0].earned.users == 0) != (doc.days[0].earned.users == 0) }) {
            throw SimulationError("days[\(d)].earned: some days have Earned users and others none")
        }
        self.init(run: RunDescription(duration: r.duration, start: r.start, days: r.days, users: r.users, usersFrom: r.users_from,
                                      usersTo: r.users_to, seed: seed, personas: r.personas, rules: r.rules, engine: r.engine,
                                      inputsDigest: r.inputs_digest),
                  days: doc.days)
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
            break   // strings and the like: the decoder checks their types
        }
    }

    /// A decoding error as the field it is about and what was expected (`ModelJSON`'s reading).
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
            return "malformed JSON, or a count that is not a whole number"
        }
        let (path, expected) = ModelJSON.describe(error)
        return "\(path): expected \(expected)"
    }

    /// A share or rate with 4 decimals, printed the same everywhere.
    static func rounded(_ x: Double) -> JSONOut { .double((x * 10_000).rounded() / 10_000) }
}


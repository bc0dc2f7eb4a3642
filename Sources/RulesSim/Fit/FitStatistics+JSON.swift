import Foundation
import RulesEngine
import RulesModel

extension FitStatistics {
    /// What the first member of a shard's JSON says.
    package static let report = "rulesrun fit shard"
    /// The version of its members (2: each user's observations carry its check-ins).
    package static let version = 2

    /// A shard's statistics as one JSON object (`fit --shard i/n --format json`): `header` (the
    /// report's name, the shard, the log, the rules and the options: what ``merge(_:names:header:prior:laterDays:)``
    /// compares), then the sums. `perUser`: each user's observations kept apart (what `--segments`
    /// fits), else pooled.
    package func json(header: [(String, JSONValue)], perUser: Bool) -> String {
        var me = self
        if !perUser { me.pool() }
        var members = header
        members += [
            ("users", .int(users)), ("first_day", firstDay.map { .string($0.rawValue) } ?? .null), ("days", .int(days)),
        ]
        if me.pooled {
            members += Self.members(me.byUser.first ?? FitObservations())
        } else {
            members.append(
                (
                    "by_user",
                    .array(
                        me.positions.indices.map { u in
                            .object(
                                [("position", .int(me.positions[u]))] + Self.members(me.byUser[u]) + [
                                    (
                                        "later_days",
                                        .array(me.laterByUser.isEmpty ? [] : me.laterByUser[u].map { .object(Self.members($0)) })
                                    )
                                ])
                        })
                ))
        }
        let keys = choices.counts.keys.sorted { ($0.price, $0.minutes, $0.held) < ($1.price, $1.minutes, $1.held) }
        members.append(
            (
                "gate",
                .object([
                    (
                        "counts",
                        .array(
                            keys.map { k in .array([.int(k.price), .int(k.minutes), .int(k.held)] + choices.counts[k]!.map(Self.number)) })
                    ),
                    ("openings", .int(choices.openings)), ("retries", .int(choices.retries)), ("used", .int(choices.used)),
                    ("used_retries", .int(choices.usedRetries)), ("left_out", .array(choices.leftOut.map(JSONValue.int))),
                    ("chosen", .array(choices.chosen.map(JSONValue.int))),
                ])
            ))
        members.append(("later_days", .array(later.map { .object(Self.members($0)) })))
        members.append(
            (
                "held_out",
                .object([
                    ("moments", .object(zip(PersonaFit.checked, observed).map { ($0.id, $1.json) })),
                    ("days", .array(observedDays.map(Self.json))), ("streaks", .array(observedStreaks.map(JSONValue.int))),
                    ("unlock_hours", .array(observedUnlockHours.map(JSONValue.int))),
                ])
            ))
        members += [
            ("failures", failures.json), ("refusals", Self.json(refusals)), ("problems", Self.json(problems)),
            ("no_days", Self.json(noDays)),
        ]
        return JSONValue.object(members).description + "\n"
    }

    /// A whole number of rows as JSON (a count held as a double).
    private static func number(_ x: Double) -> JSONValue { x == x.rounded() && abs(x) < 1e15 ? .int(Int(x)) : .double(x) }

    /// Rows by pattern: `[[x₀, x₁, …, rows, events], …]`, by pattern.
    private static func json(_ counts: LogisticFit.Counts) -> JSONValue {
        .array(
            counts.keys.sorted { $0.x.lexicographicallyPrecedes($1.x) }.map { p in
                .array(p.x.map(number) + [number(counts[p]!.rows), number(counts[p]!.events)])
            })
    }

    /// Habit observations by pattern: `[[task, streak, at_stake, after_break, rows, events], …]`.
    private static func json(_ counts: HabitFit.Counts) -> JSONValue {
        .array(
            counts.keys.sorted {
                ($0.task, $0.streak, $0.atStake ? 1 : 0, $0.afterBreak ? 1 : 0) < (
                    $1.task, $1.streak, $1.atStake ? 1 : 0, $1.afterBreak ? 1 : 0
                )
            }
            .map { p in
                .array([
                    .string(p.task), .int(p.streak), .bool(p.atStake), .bool(p.afterBreak), number(counts[p]!.rows),
                    number(counts[p]!.events),
                ])
            })
    }

    /// Observations, per response.
    private static func members(_ o: FitObservations) -> [(String, JSONValue)] {
        [
            ("leaving", json(o.leaving)), ("habits", json(o.habits)), ("commit", json(o.commit)), ("earning", json(o.earning)),
            ("answers", json(o.answers)), ("outside", .int(o.outside)),
        ]
    }

    /// Earned habit observations by pattern: `[[habit, balance, rows, events], …]`.
    private static func json(_ counts: EarningFit.Counts) -> JSONValue {
        .array(
            counts.keys.sorted { ($0.habit, $0.balance) < ($1.habit, $1.balance) }.map { p in
                .array([.string(p.habit), .int(p.balance), number(counts[p]!.rows), number(counts[p]!.events)])
            })
    }

    /// Committed days by schedule and outcome: `[[tier, window, before, [reminders…], close, answer minute or "missed", yes,
    /// days], …]`.
    private static func json(_ counts: AnswerFit.Counts) -> JSONValue {
        .array(
            counts.keys.sorted(by: AnswerFit.order).map { p in
                .array([
                    .int(p.tier), .bool(p.window), .int(p.before), .array(p.reminders.map(JSONValue.int)), .int(p.close),
                    p.answer.map(JSONValue.int) ?? .string("missed"), .bool(p.yes), number(counts[p]!),
                ])
            })
    }

    /// A day's totals as `DayTotals` encodes them (the fit counts no team metric: none is written).
    private static func json(_ day: DayTotals) -> JSONValue {
        let data = (try? JSONEncoder().encode(day)) ?? Data("{}".utf8)
        guard case .object(let members)? = try? JSONLine.parse(utf8: [UInt8](data), firstIndex: 0) else { return .null }
        return .object(members.filter { $0.0 != DayTotals.CodingKeys.team.rawValue })
    }

    /// `{code: {count, examples: [{place, text}, …]}, …}`.
    private static func json(_ refusals: Refusals) -> JSONValue {
        .object(
            refusals.counts.keys.sorted().map { code in
                (code, entry(refusals.counts[code]!, refusals.examples[code] ?? [], refusals.places[code] ?? []))
            })
    }

    private static func json(_ problems: EventLog.Problems) -> JSONValue {
        .object(
            EventLog.Problems.Kind.allCases.compactMap { kind in
                problems.counts[kind].map { (kind.key, entry($0, problems.examples[kind] ?? [], problems.places[kind] ?? [])) }
            })
    }

    private static func entry(_ count: Int, _ examples: [String], _ places: [Int]) -> JSONValue {
        .object([
            ("count", .int(count)),
            ("examples", .array(zip(places, examples).map { .object([("place", .int($0)), ("text", .string($1))]) })),
        ])
    }
}

extension FitStatistics {
    /// The statistics of the whole log from its shards' JSON (`fit --shard i/n --format json`,
    /// every i of one n, once, in any order), each read back with every field checked. `names` name
    /// them in messages; `header`: what this fit's own shard would begin with (its shard aside):
    /// each shard's must be the same (the same log, rules and options). `prior`: the persona's
    /// values (what the gate's openings are counted by).
    package static func merge(
        _ shards: [Data], names: [String], header: [(String, JSONValue)], prior: PersonaFit.Prior, laterDays: Int?
    ) throws(FitError) -> FitStatistics {
        var parts: [(statistics: FitStatistics, shard: Shard, name: String)] = []
        var firstLog: (JSONValue, String)?
        for (data, name) in zip(shards, names) {
            do throws(FitError) {
                guard data.count <= AnalysisReport.maxJSONBytes else {
                    throw FitError("larger than \(AnalysisReport.maxJSONBytes) bytes, the most a shard's report may have")
                }
                let value: JSONValue
                do { value = try JSONLine.parse(utf8: [UInt8](data), firstIndex: 0) } catch {
                    throw FitError("not a shard of rulesrun fit --shard i/n --format json: malformed JSON (\(error))")
                }
                guard value["report"] == .string(report) else {
                    throw FitError("not a shard of rulesrun fit --shard i/n --format json (report: expected \"\(report)\")")
                }
                guard value["version"] == .int(version) else {
                    throw FitError("version: expected \(version) (a shard of this version of rulesrun)")
                }
                for (key, mine) in header where !["report", "version", "shard"].contains(key) {
                    let theirs = value[key] ?? .null
                    guard theirs == mine else {
                        throw FitError(
                            "\(key) \(theirs), but this fit's is \(mine): merge the shards of one log fitted with the same rules and options"
                        )
                    }
                }
                guard case .string(let text)? = value["shard"], let shard = try? Shard(text) else {
                    throw FitError("shard: expected i/n with 1 ≤ i ≤ n")
                }
                if let (log, other) = firstLog, value["log"] != log {
                    throw FitError("log \(value["log"] ?? .null), but \(other) was made from \(log): merge the shards of one log")
                }
                firstLog = firstLog ?? (value["log"] ?? .null, name)
                parts.append((try FitStatistics(json: value, prior: prior, laterDays: laterDays), shard, name))
            } catch {
                throw FitError("\(name): \(error.message)")
            }
        }
        if let incomplete = Shard.incomplete(parts.map { ($0.shard, $0.name) }) { throw FitError(incomplete) }
        return merged(parts.sorted { $0.shard.index < $1.shard.index }.map(\.statistics))
    }

    /// Reads what ``json(header:perUser:)`` writes (the header aside).
    init(json value: JSONValue, prior: PersonaFit.Prior, laterDays: Int?) throws(FitError) {
        self.init(prior: prior, laterDays: laterDays)
        let r = Reader()
        users = try r.int(value["users"], "users", 0...MetricMoments.maxUsers)
        if value["first_day"] != .null {
            guard case .string(let text)? = value["first_day"], let day = try? DayID(text) else {
                throw FitError("first_day: expected a day (YYYY-MM-DD) or null")
            }
            firstDay = day
        }
        days = try r.int(value["days"], "days", 0...LogUserTally.maxDays)
        if let given = value["by_user"] {
            let list = try r.array(given, "by_user", most: users)
            guard list.count == users else { throw FitError("by_user: expected \(users) users (users), found \(list.count)") }
            for (u, user) in list.enumerated() {
                let position = try r.int(user["position"], "by_user[\(u)].position", 0...Int.max)
                if let last = positions.last, position <= last {
                    throw FitError("by_user[\(u)].position: expected the users in the log's order, each once")
                }
                positions.append(position)
                byUser.append(try r.observations(user, "by_user[\(u)]"))
                let days = try r.array(user["later_days"], "by_user[\(u)].later_days", most: later.count)
                guard days.count == later.count else {
                    throw FitError("by_user[\(u)].later_days: expected \(later.count) days (--check days:D), found \(days.count)")
                }
                if !later.isEmpty {
                    laterByUser.append(
                        try days.enumerated().map { j, day throws(FitError) in try r.observations(day, "by_user[\(u)].later_days[\(j)]") })
                }
            }
        } else {
            (byUser, pooled) = ([try r.observations(value, nil)], true)
        }
        let gate = value["gate"]
        for (i, item) in try r.array(gate?["counts"], "gate.counts", most: 1 << 20).enumerated() {
            let kinds = GateOpenings.Kind.allCases.count
            let at = "gate.counts[\(i)]"
            let row = try r.array(item, at, most: 3 + kinds)
            guard row.count == 3 + kinds else { throw FitError("\(at): expected [price, minutes, held, \(kinds) counts]") }
            let key = GateFit.Choices.Key(
                price: try r.int(row[0], "\(at)[0]", 0...Int(Int32.max)), minutes: try r.int(row[1], "\(at)[1]", 0...Int(Int32.max)),
                held: try r.int(row[2], "\(at)[2]", 0...Int.max))
            guard choices.counts[key] == nil else { throw FitError("\(at): a key given twice") }
            choices.counts[key] = try (3..<row.count).map { j throws(FitError) in Double(try r.int(row[j], "\(at)[\(j)]", 0...Int.max)) }
        }
        choices.openings = try r.int(gate?["openings"], "gate.openings", 0...Int.max)
        choices.retries = try r.int(gate?["retries"], "gate.retries", 0...Int.max)
        choices.used = try r.int(gate?["used"], "gate.used", 0...Int.max)
        choices.usedRetries = try r.int(gate?["used_retries"], "gate.used_retries", 0...Int.max)
        choices.leftOut = try r.ints(gate?["left_out"], "gate.left_out", count: GateFit.LeftOut.allCases.count)
        choices.chosen = try r.ints(gate?["chosen"], "gate.chosen", count: GateOpenings.Kind.allCases.count)
        let laterList = try r.array(value["later_days"], "later_days", most: LaterDaysCheck.maxDays)
        guard laterList.count == later.count else {
            throw FitError("later_days: expected \(later.count) days (--check days:D), found \(laterList.count)")
        }
        for (j, day) in laterList.enumerated() { later[j] = try r.observations(day, "later_days[\(j)]") }
        let held = value["held_out"]
        for (m, metric) in PersonaFit.checked.enumerated() {
            let at = "held_out.moments.\(metric.id)"
            guard let moments = held?["moments"]?[metric.id] else { throw FitError("\(at): missing") }
            do { observed[m] = try MetricMoments(json: moments, at: at) } catch { throw FitError(error.message) }
        }
        for (d, day) in try r.array(held?["days"], "held_out.days", most: LogUserTally.maxDays).enumerated() {
            do { observedDays.append(try JSONDecoder().decode(DayTotals.self, from: Data(day.description.utf8))) } catch {
                throw FitError("held_out.days[\(d)]: expected a day's totals (\(error))")
            }
        }
        observedStreaks = try r.ints(held?["streaks"], "held_out.streaks", count: nil)
        observedUnlockHours = try r.ints(held?["unlock_hours"], "held_out.unlock_hours", count: 24)
        guard let failure = value["failures"],
            let object = try? JSONSerialization.jsonObject(with: Data(failure.description.utf8)) as? [String: Any]
        else { throw FitError("failures: expected an object of counts by code") }
        do { failures = try RuleFailures(jsonObject: object) } catch { throw FitError(error.message) }
        guard case .object(let refused)? = value["refusals"] else { throw FitError("refusals: expected an object by code") }
        for (code, entry) in refused {
            let (count, examples) = try r.entry(entry, "refusals.\(code)", kept: Refusals.examplesKept)
            refusals.add(code, count: count, examples: examples)
        }
        problems = try r.problems(value["problems"], "problems")
        noDays = try r.problems(value["no_days"], "no_days")
    }

    /// Reads a shard's fields, each checked, naming the field in its messages.
    private struct Reader {
        func int(_ v: JSONValue?, _ path: String, _ range: ClosedRange<Int>) throws(FitError) -> Int {
            guard case .int(let i)? = v, range.contains(i) else {
                throw FitError("\(path): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return i
        }

        func array(_ v: JSONValue?, _ path: String, most: Int) throws(FitError) -> [JSONValue] {
            guard case .array(let list)? = v, list.count <= most else {
                throw FitError("\(path): expected an array of at most \(most) items")
            }
            return list
        }

        func ints(_ v: JSONValue?, _ path: String, count: Int?) throws(FitError) -> [Int] {
            let list = try array(v, path, most: count ?? Histogram.maxValues)
            if let count, list.count != count { throw FitError("\(path): expected \(count) counts, found \(list.count)") }
            return try list.enumerated().map { i, n throws(FitError) in try int(n, "\(path)[\(i)]", 0...Int.max) }
        }

        /// A count of rows (a whole number, 0 or more).
        func rows(_ v: JSONValue, _ path: String) throws(FitError) -> Double { Double(try int(v, path, 0...(1 << 53))) }

        func counts(_ v: JSONValue?, _ path: String) throws(FitError) -> LogisticFit.Counts {
            var counts = LogisticFit.Counts()
            for (i, item) in try array(v, path, most: 1 << 20).enumerated() {
                let at = "\(path)[\(i)]"
                let row = try array(item, at, most: 64)
                guard row.count >= 3 else { throw FitError("\(at): expected [covariates…, rows, events]") }
                let x = try row.dropLast(2).enumerated().map { j, value throws(FitError) -> Double in
                    switch value {
                    case .int(let n): return Double(n)
                    case .double(let d) where d.isFinite: return d
                    default: throw FitError("\(at)[\(j)]: expected a number")
                    }
                }
                let pattern = LogisticFit.Pattern(x)
                guard counts[pattern] == nil else { throw FitError("\(at): a pattern given twice") }
                counts[pattern] = (
                    try rows(row[row.count - 2], "\(at)[\(row.count - 2)]"), try rows(row[row.count - 1], "\(at)[\(row.count - 1)]")
                )
            }
            return counts
        }

        func habits(_ v: JSONValue?, _ path: String) throws(FitError) -> HabitFit.Counts {
            var counts = HabitFit.Counts()
            for (i, item) in try array(v, path, most: 1 << 20).enumerated() {
                let at = "\(path)[\(i)]"
                let row = try array(item, at, most: 6)
                guard row.count == 6, case .string(let task) = row[0], case .bool(let atStake) = row[2], case .bool(let afterBreak) = row[3]
                else { throw FitError("\(at): expected [task, streak, at_stake, after_break, rows, events]") }
                let pattern = HabitFit.Pattern(
                    task: task, streak: try int(row[1], "\(at)[1]", 0...Int(Int32.max)), atStake: atStake, afterBreak: afterBreak)
                guard counts[pattern] == nil else { throw FitError("\(at): a pattern given twice") }
                counts[pattern] = (try rows(row[4], "\(at)[4]"), try rows(row[5], "\(at)[5]"))
            }
            return counts
        }

        /// The members ``members(_:)`` writes, of `value` (at `path`; nil: the report's top level).
        func observations(_ value: JSONValue, _ path: String?) throws(FitError) -> FitObservations {
            let at = { (key: String) in path.map { "\($0).\(key)" } ?? key }
            var o = FitObservations()
            o.leaving = try counts(value["leaving"], at("leaving"))
            o.habits = try habits(value["habits"], at("habits"))
            o.commit = try counts(value["commit"], at("commit"))
            o.earning = try earning(value["earning"], at("earning"))
            o.answers = try answers(value["answers"], at("answers"))
            o.outside = try int(value["outside"], at("outside"), 0...Int.max)
            return o
        }

        func earning(_ v: JSONValue?, _ path: String) throws(FitError) -> EarningFit.Counts {
            var counts = EarningFit.Counts()
            for (i, item) in try array(v, path, most: 1 << 20).enumerated() {
                let at = "\(path)[\(i)]"
                let row = try array(item, at, most: 4)
                guard row.count == 4, case .string(let habit) = row[0] else {
                    throw FitError("\(at): expected [habit, balance, rows, events]")
                }
                let pattern = EarningFit.Pattern(habit: habit, balance: try int(row[1], "\(at)[1]", 0...EconomyState.maxCredits))
                guard counts[pattern] == nil else { throw FitError("\(at): a pattern given twice") }
                counts[pattern] = (try rows(row[2], "\(at)[2]"), try rows(row[3], "\(at)[3]"))
            }
            return counts
        }

        func answers(_ v: JSONValue?, _ path: String) throws(FitError) -> AnswerFit.Counts {
            var counts = AnswerFit.Counts()
            let minutes = -(2 * 24 * 60)...(2 * 24 * 60)
            for (i, item) in try array(v, path, most: 1 << 20).enumerated() {
                let at = "\(path)[\(i)]"
                let row = try array(item, at, most: 8)
                guard row.count == 8, case .bool(let window) = row[1], case .bool(let yes) = row[6] else {
                    throw FitError("\(at): expected [tier, window, before, [reminders…], close, answer minute or \"missed\", yes, days]")
                }
                let reminders = try array(row[3], "\(at)[3]", most: 64).enumerated().map { k, r throws(FitError) in
                    try int(r, "\(at)[3][\(k)]", minutes)
                }
                let pattern = AnswerFit.Pattern(
                    tier: try int(row[0], "\(at)[0]", 0...(AnswerFit.tiers - 1)), window: window,
                    before: try int(row[2], "\(at)[2]", 0...Int(Int32.max)), reminders: reminders,
                    close: try int(row[4], "\(at)[4]", minutes),
                    answer: row[5] == .string("missed") ? nil : try int(row[5], "\(at)[5]", minutes), yes: yes)
                guard counts[pattern] == nil else { throw FitError("\(at): a pattern given twice") }
                counts[pattern] = try rows(row[7], "\(at)[7]")
            }
            return counts
        }

        /// `{count, examples: [{place, text}, …]}`.
        func entry(_ v: JSONValue, _ path: String, kept: Int) throws(FitError) -> (Int, [(place: Int, text: String)]) {
            let count = try int(v["count"], "\(path).count", 1...Int.max)
            let examples = try array(v["examples"], "\(path).examples", most: kept).enumerated().map {
                i, e throws(FitError) -> (place: Int, text: String) in
                guard case .string(let text)? = e["text"] else { throw FitError("\(path).examples[\(i)].text: expected a string") }
                return (try int(e["place"], "\(path).examples[\(i)].place", Int.min...Int.max), text)
            }
            return (count, examples)
        }

        func problems(_ v: JSONValue?, _ path: String) throws(FitError) -> EventLog.Problems {
            guard case .object(let members)? = v else { throw FitError("\(path): expected an object by kind") }
            var problems = EventLog.Problems()
            for (key, value) in members {
                guard let kind = EventLog.Problems.Kind.allCases.first(where: { $0.key == key }) else {
                    throw FitError("\(path).\(key): not a kind of problem")
                }
                let (count, examples) = try entry(value, "\(path).\(key)", kept: EventLog.Problems.examplesKept)
                problems.add(kind, count: count, examples: examples.map(\.text), places: examples.map(\.place))
            }
            return problems
        }
    }
}

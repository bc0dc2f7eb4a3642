import LuaHost
import RulesEngine
import RulesModel

/// What a property's cases are drawn from, as a test file's `cases` table names it with the
/// `gen` helpers: `gen.int(MIN, MAX)`, `gen.bool()`, `gen.one_of{V1, V2, …}`,
/// `gen.record{FIELD = GEN, …}`, `gen.list(GEN [, MAX])` (0 to MAX elements, 10 by default), or
/// `gen.history(APP [, {days = N}])`: a generated history of APP (`pressure`, `earned`, `habits`,
/// from the generators `compare` uses) replayed through the engine.
///
/// Three generators draw from the domains validation proves the escalation functions over:
/// `gen.escalation_state()` (`current_tier` 0–3, `consecutive_misses` and `consecutive_successes`
/// 0–8: `EscalationPolicy.counterBound`), `gen.check_in()` (`{result = "YES"|"NO"|"MISSED"}`) and
/// `gen.window()` (`{open_minutes, close_minutes}`, every window users can set:
/// `EscalationPolicy.allWindows`, the document's default 09:00–22:00 first).
///
/// Six more draw from the domains validation proves the economy's functions over, each value a
/// record exactly as the proof passes it: `gen.price_context()` (every situation `price` is
/// proved in, `PricingPolicy.proofSituations()`, encoded by `PriceContext`'s `LuaTableEncodable`
/// as the gate passes it, `minutes` 0 for the property to set), `gen.focus_session()` (a completed
/// session of 0–240 minutes, `PricingPolicy.proofFocusSession`), `gen.quest_gate()`
/// (`quest_blocked`'s gate: every strictness and quest type, 0–4 quest unlocks today, no earlier
/// quest unlock or 0–30 minutes since the last, the QR key set or not),
/// `gen.emergency_gate()` (`emergency_blocked`'s: 0–4 emergency unlocks used today, the same app
/// as the last one or not), `gen.carried_balance()` (`carried_credits`: 0–200 credits) and
/// `gen.habit_award()` (`habit_award`'s `{reward_credits, completions_in_window}`).
///
/// Seven more draw from the domains validation proves the streak functions over (streaks.lua),
/// each value exactly as the proof passes it: `gen.pressure_streak()` and `gen.pressure_day()`
/// (`pressure.next(streak, day)`: `StreakPolicy.pressureProofStreaks`, `…Week`),
/// `gen.habit_streak()` (`habit.streak(c.periods, c.task, c.user)`: `StreakPolicy.HabitProofDomain`
/// under the params of the rule set under test, so only `rulesrun test` has it),
/// `gen.miga_days()` (`miga.current_streak`), `gen.earned_day()` (`earned.qualifies`),
/// `gen.earned_streak()` (`earned.bonus`) and `gen.earned_day_end()` (`earned.day_ends`).
///
/// Two more draw from the domains validation proves the mode functions over (modes.lua), as
/// records so that each field shrinks on its own: `gen.window_active()` (`{window, now}`:
/// `ModePolicy.WindowProofDomain`) and `gen.effective_mode()` (`{modes, now}`: up to two of
/// `ModePolicy.EffectiveModeProofDomain.modes`).
///
/// Values shrink toward plainer ones: an integer toward 0 (or the bound of its range nearest 0),
/// a `one_of` toward its first value, a list toward fewer elements, a record field by field, a
/// proof's domain toward its first input. A case is drawn and shrunk as it is generated (a
/// domain's input by its index) and handed to the property as `present` shows it.
package indirect enum CaseGenerator {
    case int(min: Int64, max: Int64)
    case oneOf([LuaValue])
    case record([(name: String, generator: CaseGenerator)])
    case list(of: CaseGenerator, max: Int)
    case history(HistoryApp, days: Int)
    /// Input 0 ..< `count` of a proof's domain, too large to hold as values: drawn as its index,
    /// shown by `element`.
    case domain(count: Int, element: (Int) throws -> LuaValue)

    /// The most elements of a `gen.list`, and its default.
    package static let maxListLength = 1_000
    package static let defaultListLength = 10

    /// Every window users can set as `reminder_times` gets it, the default first (where a window shrinks to).
    static let windows: [ReminderWindow] = {
        let all = EscalationPolicy.allWindows.map { ReminderWindow(open: $0.open, close: $0.close) }
        let standard = ReminderWindow(open: PressureHistory.defaultOpen, close: PressureHistory.defaultClose)
        return [standard] + all.filter { $0 != standard }
    }()

    /// The values of a proof's domain as rules receive them (each record's `LuaTableEncodable`
    /// encoding, the engine's): what a property draws is what the proof and the engine pass.
    static func encoded<T: LuaTableEncodable>(
        _ values: [T], _ kind: String, _ path: String, as what: String
    ) throws(CaseGeneratorError) -> [LuaValue] {
        do {
            let host = try LuaHost()
            return try values.map { try host.value(of: $0) }
        } catch {
            throw CaseGeneratorError(path: path, message: "gen.\(kind): cannot encode the \(what): \(error)")
        }
    }

    /// The rule set under test, for a generator that draws its params (`ctx.params`, `task.params`).
    static func ruleSet(_ rules: (() throws -> RuleSet)?, _ kind: String, _ path: String) throws(CaseGeneratorError) -> RuleSet {
        guard let rules else {
            throw CaseGeneratorError(
                path: path, message: "gen.\(kind) draws the records of the rule set under test (its params): only rulesrun test has one")
        }
        do { return try rules() } catch {
            throw CaseGeneratorError(path: path, message: "gen.\(kind): cannot load the rules under test: \(error)")
        }
    }

    /// Reads a generator; `path` names it in messages (`cases.prop_x.fields.tier`).
    /// `nested`: inside a record or a list, where a history cannot be (a history is a whole case).
    /// `rules`: the rule set under test, for the generators whose domain depends on its params.
    package static func parse(
        _ value: LuaValue, path: String, nested: Bool = false, rules: (() throws -> RuleSet)? = nil
    ) throws(CaseGeneratorError) -> CaseGenerator {
        let expected =
            "gen.int, gen.bool, gen.one_of, gen.record, gen.list, gen.escalation_state, gen.check_in, gen.window, gen.price_context, "
            + "gen.focus_session, gen.quest_gate, gen.emergency_gate, gen.carried_balance, gen.habit_award, gen.pressure_streak, gen.pressure_day, gen.habit_streak, "
            + "gen.miga_days, gen.earned_day, gen.earned_streak, gen.earned_day_end, gen.window_active, gen.effective_mode or gen.history"
        guard case .table(let table) = value, let kind = table["generator"].stringValue else {
            throw CaseGeneratorError(path: path, message: "expected a generator (\(expected)), found \(value.errorDescription)")
        }
        switch kind {
        case "int":
            guard let min = table["min"].integerValue, let max = table["max"].integerValue, min <= max else {
                throw CaseGeneratorError(
                    path: path,
                    message:
                        "gen.int(MIN, MAX): expected two integers, MIN <= MAX, found \(table["min"].errorDescription), \(table["max"].errorDescription)"
                )
            }
            return .int(min: min, max: max)
        case "one_of":
            guard case .table(let values) = table["values"], values.isSequence, !values.isEmpty else {
                throw CaseGeneratorError(path: path, message: "gen.one_of{…}: expected a non-empty list of values")
            }
            return .oneOf(values.sequence)
        case "record":
            guard case .table(let fields) = table["fields"], !fields.isEmpty, fields.stringKeys.count == fields.count else {
                throw CaseGeneratorError(path: path, message: "gen.record{NAME = GENERATOR, …}: expected named fields")
            }
            var out: [(name: String, generator: CaseGenerator)] = []
            for name in fields.stringKeys {
                out.append((name, try parse(fields[name], path: "\(path).\(name)", nested: true, rules: rules)))
            }
            return .record(out)
        case "list":
            let max = table["max"].isNil ? Int64(defaultListLength) : table["max"].integerValue ?? -1
            guard (0...Int64(maxListLength)).contains(max) else {
                throw CaseGeneratorError(
                    path: path,
                    message: "gen.list(GEN, MAX): MAX must be an integer from 0 to \(maxListLength), found \(table["max"].errorDescription)"
                )
            }
            return .list(of: try parse(table["of"], path: "\(path)[]", nested: true, rules: rules), max: Int(max))
        case "escalation_state":
            let counter = CaseGenerator.int(min: 0, max: Int64(EscalationPolicy.counterBound))
            return .record([
                ("consecutive_misses", counter), ("consecutive_successes", counter),
                ("current_tier", .int(min: 0, max: Int64(PressureLimits.maxTier))),
            ])
        case "check_in":
            return .record([("result", .oneOf(["YES", "NO", "MISSED"]))])
        case "window":
            return try .oneOf(Self.encoded(Self.windows, kind, path, as: "windows"))
        case "price_context":
            // At the params' defaults, as the engine passes them (`ctx.params`).
            let params = try Self.ruleSet(rules, kind, path).pricing.params.defaults
            let situations = PricingPolicy.proofSituations().map { situation in
                var situation = situation
                situation.params = params
                return situation
            }
            return try .oneOf(Self.encoded(situations, kind, path, as: "situations"))
        case "focus_session":
            return try .oneOf(Self.encoded(PricingPolicy.proofFocusSessions, kind, path, as: "sessions"))
        case "quest_gate":
            return .record([
                ("strictness", .oneOf(Strictness.allCases.map { .string($0.rawValue) })),
                ("quest_type", .oneOf(QuestType.allCases.map { .string($0.rawValue) })),
                ("quest_unlocks_today", .int(min: 0, max: Int64(QuestPolicy.proofMaxQuestUnlocks))),
                ("minutes_since_last_quest_unlock", .oneOf([.nil] + (0...Int64(QuestPolicy.proofMaxMinutesSince)).map { .integer($0) })),
                ("qr_key_set", .oneOf([false, true])),
            ])
        case "emergency_gate":
            return .record([
                ("emergency_used_today", .int(min: 0, max: Int64(QuestPolicy.proofMaxEmergencies))),
                ("same_app_as_last_emergency", .oneOf([false, true])),
            ])
        case "carried_balance":
            return .int(min: 0, max: Int64(PricingPolicy.proofMaxCarriedBalance))
        case "habit_award":
            return .record([
                ("reward_credits", .oneOf(PricingPolicy.proofHabitRewards.map { .integer(Int64($0)) })),
                ("completions_in_window", .int(min: 0, max: Int64(PricingPolicy.proofMaxCompletionsInWindow))),
            ])
        case "pressure_streak":
            return try .oneOf(Self.encoded(StreakPolicy.pressureProofStreaks, kind, path, as: "streaks"))
        case "pressure_day":
            return try .oneOf(Self.encoded(StreakPolicy.pressureProofWeek, kind, path, as: "days"))
        case "miga_days":
            return .oneOf(StreakPolicy.migaDayLists.map { .table(LuaTable(sequence: $0)) })
        case "earned_day":
            let minutes = StreakPolicy.earnedProofFocusMinutes, habits = StreakPolicy.earnedProofHabitCompletions
            return .record([
                ("focus_minutes", .int(min: Int64(minutes.lowerBound), max: Int64(minutes.upperBound))),
                ("habit_completions", .int(min: Int64(habits.lowerBound), max: Int64(habits.upperBound))),
            ])
        case "earned_streak":
            return .int(min: Int64(StreakPolicy.earnedProofStreaks.lowerBound), max: Int64(StreakPolicy.earnedProofStreaks.upperBound))
        case "earned_day_end":
            return try .oneOf(Self.encoded(StreakPolicy.earnedProofDayEnds, kind, path, as: "days"))
        case "habit_streak":
            let domain = try Self.ruleSet(rules, kind, path).streaks.habitProofDomain
            let host: LuaHost
            do { host = try LuaHost() } catch { throw CaseGeneratorError(path: path, message: "gen.habit_streak: \(error)") }
            return .domain(count: domain.count) { index in
                let (periods, task) = domain.input(index)
                var table = LuaTable()
                table["periods"] = .table(LuaTable(sequence: try periods.map { try host.value(of: $0) }))
                table["task"] = try host.value(of: task)
                table["user"] = try host.value(of: domain.user)
                return .table(table)
            }
        case "window_active":
            // The proof's domain field by field (so that each shrinks on its own): every day mask and
            // bound of `WindowProofDomain`, at each of its times of each weekday.
            typealias Domain = ModePolicy.WindowProofDomain
            func values(_ list: [Int]) -> CaseGenerator { .oneOf(list.map { .integer(Int64($0)) }) }
            return .record([
                (
                    "window",
                    .record([
                        ("days_mask", values(Domain.masks)), ("start_minutes", values(Domain.bounds)),
                        ("end_minutes", values(Domain.bounds)),
                    ])
                ),
                ("now", .record([("weekday", values(Domain.weekdays)), ("minutes", values(Domain.minutes))])),
            ])
        case "effective_mode":
            // The proof's domain: no mode, or a list of one or two of its modes (shrinking drops a
            // mode, then moves each toward the first), at its instant.
            typealias Domain = ModePolicy.EffectiveModeProofDomain
            return .record([
                ("modes", .list(of: .oneOf(try Self.encoded(Domain.modes.map(\.candidate), kind, path, as: "modes")), max: 2)),
                ("now", .oneOf(try Self.encoded([Domain.moment], kind, path, as: "instant"))),
            ])
        case "history":
            guard !nested else {
                throw CaseGeneratorError(
                    path: path, message: "gen.history is a whole case, not a field of a record or an element of a list")
            }
            guard let name = table["app"].stringValue, let app = HistoryApp(rawValue: name) else {
                let apps = HistoryApp.allCases.map(\.rawValue).joined(separator: ", ")
                throw CaseGeneratorError(
                    path: path, message: "gen.history(APP): APP is one of \(apps), found \(table["app"].errorDescription)")
            }
            let days = table["days"].isNil ? Int64(app.defaultDays) : table["days"].integerValue ?? 0
            guard (1...Int64(HistoryApp.maxDays)).contains(days) else {
                throw CaseGeneratorError(
                    path: path,
                    message: "gen.history: days must be an integer from 1 to \(HistoryApp.maxDays), found \(table["days"].errorDescription)"
                )
            }
            return .history(app, days: Int(days))
        default:
            throw CaseGeneratorError(path: path, message: "unknown generator '\(kind)' (expected \(expected))")
        }
    }

    /// A value drawn from the generator (not a history's). Throws, having built no more of it,
    /// once it holds more than a case may (`CaseSize`).
    package func draw<R: RandomNumberGenerator>(using rng: inout R) throws(CaseTooLarge) -> LuaValue {
        var size = CaseSize()
        return try draw(using: &rng, counting: &size)
    }

    private func draw<R: RandomNumberGenerator>(using rng: inout R, counting size: inout CaseSize) throws(CaseTooLarge) -> LuaValue {
        switch self {
        case .int(let min, let max):
            try size.add()
            return .integer(Int64.random(in: min...max, using: &rng))
        case .oneOf(let values):
            let value = values[Int.random(in: 0..<values.count, using: &rng)]
            try size.add(value)
            return value
        case .record(let fields):
            try size.add()
            var table = LuaTable()
            for field in fields {
                try size.add(values: 0, bytes: field.name.utf8.count)
                table[field.name] = try field.generator.draw(using: &rng, counting: &size)
            }
            return .table(table)
        case .list(let of, let max):
            try size.add()
            var elements: [LuaValue] = []
            for _ in 0..<Int.random(in: 0...max, using: &rng) { elements.append(try of.draw(using: &rng, counting: &size)) }
            return .table(LuaTable(sequence: elements))
        case .history: return .nil
        case .domain(let count, _):
            try size.add()
            return .integer(Int64.random(in: 0..<Int64(count), using: &rng))
        }
    }

    /// A drawn (or shrunk) value as the property gets it: a domain's index as its input, the
    /// rest as drawn. Throws `CaseTooLarge` when what it makes holds more than a case may (a
    /// list of domain inputs, or a `one_of` value a shrink reached that is larger than the drawn one).
    package func present(_ value: LuaValue) throws -> LuaValue {
        var size = CaseSize()
        return try present(value, counting: &size)
    }

    private func present(_ value: LuaValue, counting size: inout CaseSize) throws -> LuaValue {
        switch (self, value) {
        case (.domain(_, let element), .integer(let index)):
            let input = try element(Int(index))
            try size.add(input)
            return input
        case (.record(let fields), .table(var table)):
            try size.add()
            for field in fields {
                try size.add(values: 0, bytes: field.name.utf8.count)
                table[field.name] = try field.generator.present(table[field.name], counting: &size)
            }
            return .table(table)
        case (.list(let of, _), .table(let table)):
            try size.add()
            var elements: [LuaValue] = []
            for element in table.sequence { elements.append(try of.present(element, counting: &size)) }
            return .table(LuaTable(sequence: elements))
        default:
            try size.add(value)
            return value
        }
    }

    /// Plainer values than `value`, plainest first (each strictly plainer, so shrinking ends).
    /// Lazy: a candidate is built when it is reached (a list's are copies of it, one per element
    /// left out or shrunk, and a nested list's would multiply).
    package func shrink(_ value: LuaValue) -> AnySequence<LuaValue> {
        switch (self, value) {
        case (.int(let min, let max), .integer(let n)):
            let target = min > 0 ? min : max < 0 ? max : 0
            guard n != target else { return AnySequence([]) }
            var out: [Int64] = [target]
            let half = target + (n - target) / 2
            if half != target, half != n { out.append(half) }
            let step = n > target ? n - 1 : n + 1
            if !out.contains(step), step != n { out.append(step) }
            return AnySequence(out.map { .integer($0) })
        case (.oneOf(let values), _):
            guard let index = values.firstIndex(of: value) else { return AnySequence([]) }
            return AnySequence(values[..<index])
        case (.record(let fields), .table(let table)):
            return AnySequence(
                fields.lazy.flatMap { field in
                    field.generator.shrink(table[field.name]).lazy.map { smaller -> LuaValue in
                        var other = table
                        other[field.name] = smaller
                        return .table(other)
                    }
                })
        case (.list(let of, _), .table(let table)):
            return AnySequence(table.sequence.shrinkCandidates(element: of.shrink).lazy.map { .table(LuaTable(sequence: $0)) })
        case (.domain(let count, _), .integer):
            return CaseGenerator.int(min: 0, max: Int64(count - 1)).shrink(value)
        default: return AnySequence([])
        }
    }
}

/// What a case holds, counted as it is drawn and presented, against the bounds of a case: at most
/// `maxValues` values (each number, string, boolean and table counts one) and `maxBytes` bytes
/// of text (its strings and field names). A case is handed to the property as a rule's arguments
/// are: these are a rule's bounds. The values are a tenth of the entries one conversion between
/// Lua and Swift may visit (`LuaLimits.maxConvertedEntries`), a few MiB of the state's 64 MiB
/// once in Lua, and the text is the eighth of the state's memory a rule file may keep. A
/// generator whose cases would be larger (`gen.list(gen.list(gen.list(…, 1000), 1000), 1000)`)
/// is refused at its first case that is, before the case is built, naming the property.
package struct CaseSize: Sendable {
    package static let maxValues = LuaLimits.default.maxConvertedEntries / 10
    package static let maxBytes = LuaLimits.default.memoryBytes / 8

    package private(set) var values = 0
    package private(set) var bytes = 0

    package init() {}

    /// Counts `values` values and `bytes` bytes of text more.
    package mutating func add(values more: Int = 1, bytes text: Int = 0) throws(CaseTooLarge) {
        values += more
        bytes += text
        if values > Self.maxValues || bytes > Self.maxBytes { throw CaseTooLarge() }
    }

    /// Counts `value` and everything it holds (stopping at the first count past a bound).
    package mutating func add(_ value: LuaValue) throws(CaseTooLarge) {
        switch value {
        case .string(let text): try add(bytes: text.utf8.count)
        case .table(let table):
            try add()
            for (key, element) in table.storage {
                if case .string(let name) = key { try add(values: 0, bytes: name.utf8.count) }
                try add(element)
            }
        default: try add()
        }
    }
}

/// A case that would hold more than a case may (`CaseSize`).
package struct CaseTooLarge: Error, CustomStringConvertible, Sendable {
    package var description: String {
        "the case holds more than a case may: \(CaseSize.maxValues) values (numbers, strings, booleans, tables) and "
            + "\(CaseSize.maxBytes >> 20) MiB of text; draw smaller cases (a smaller gen.list MAX, fewer nested lists)"
    }
}

/// A generator a test file names that cannot be read.
package struct CaseGeneratorError: Error, CustomStringConvertible, Sendable {
    package var path: String
    package var message: String
    package var description: String { "\(path): \(message)" }
}

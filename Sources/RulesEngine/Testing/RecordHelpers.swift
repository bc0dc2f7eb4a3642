import LuaHost
import RulesModel

/// The helpers that give a test the records the engine passes for the rule set under test
/// (`rulesrun test`; docs/testing-rules.md), as the globals of the namespace `records`:
///
/// - `records.params(FILE)`: the params FILE (`"pricing"`, `"streaks"`, …) declares, each at its
///   default, as the engine resolves them (`ctx.params` of `price`, `task.params` of `habit.streak`
///   for a task that sets none); `{}` for a file that declares none.
/// - `records.price_context{FIELD = VALUE, …}`: the whole record `price(ctx)` gets from the engine,
///   written by the engine's own writer (`PriceContext`): the fields given, the others those of a
///   plain situation (the shortest length of `credit_costs`, `android:com.example.app`, no unlock
///   today, Monday 12:00, no mode, GENTLE, streak 0, balance 0) and `params` at their defaults (a
///   `params` table given sets some of them, checked against the declarations).
enum RecordHelpers {
    static let namespace = "records"

    static func install(in host: LuaHost, rules: RuleSet) throws {
        // Records are converted by a host of their own: a host function cannot use the host calling it.
        let writer = try LuaHost()
        let files: [(name: String, params: RuleParams)] = [
            ("escalation", rules.escalation.params), ("streaks", rules.streaks.params), ("pricing", rules.pricing.params),
            ("quests", rules.quests.params), ("modes", rules.modes.params),
        ]
        try host.register("params", in: namespace) { arguments in
            let given = arguments.first ?? .nil
            let name = given.stringValue.map { $0.hasSuffix(".lua") ? String($0.dropLast(4)) : $0 }
            guard let file = files.first(where: { $0.name == name }) else {
                throw LuaError(
                    kind: .hostFunction,
                    message: "expected a file of the rule set, one of \(files.map { "\"\($0.name)\"" }.joined(separator: ", ")), found \(given.errorDescription)")
            }
            return [file.params.defaults.luaValue]
        }
        try host.register("price_context", in: namespace) { arguments in
            let context = try priceContext(arguments.first ?? .nil, rules: rules)
            return [try writer.value(of: context)]
        }
    }

    /// The record of `price` with the fields `given` sets (a table, or nil for none).
    static func priceContext(_ given: LuaValue, rules: RuleSet) throws -> PriceContext {
        // (The host names the function: `records.price_context: app: expected …`.)
        func fail(_ message: String) -> LuaError { LuaError(kind: .hostFunction, message: message) }
        guard given.isNil || given.tableValue != nil else { throw fail("expected a table of fields, found \(given.errorDescription)") }
        var context = PriceContext(minutes: rules.pricing.creditCosts.first?.minutes ?? 0, app: AppID.shapes[0])
        context.params = rules.pricing.params.defaults
        let table = given.tableValue ?? LuaTable()
        let names = PriceContext.luaViewKeys.map(\.name)
        if table.stringKeys.count < table.count { throw fail("expected fields named by strings (\(names.joined(separator: ", ")))") }
        for name in table.stringKeys {
            let value = table[name]
            func integer(_ range: ClosedRange<Int>) throws -> Int {
                guard let n = value.integerValue, value.doubleValue == Double(n), range.contains(Int(n)) else {
                    throw fail("\(name): expected an integer \(range.lowerBound)…\(range.upperBound == Int.max ? "" : "\(range.upperBound)"), found \(value.errorDescription)")
                }
                return Int(n)
            }
            switch name {
            case "minutes": context.minutes = try integer(0...Int.max)
            case "app":
                guard let text = value.stringValue, let app = AppID(rawValue: text) else {
                    throw fail("app: expected an AppId \"android:…\" or \"iosToken:…\", found \(value.errorDescription)")
                }
                context.app = app
            case "unlocks_today": context.unlocksToday = try integer(0...Int.max)
            case "unlocks_today_app": context.unlocksTodayApp = try integer(0...Int.max)
            case "hour": context.hour = try integer(0...23)
            case "minute": context.minute = try integer(0...59)
            case "weekday": context.weekday = try integer(1...7)
            case "mode":
                guard let mode = value.stringValue else { throw fail("mode: expected a mode's name, found \(value.errorDescription)") }
                context.mode = mode
            case "strictness":
                guard let strictness = value.stringValue.flatMap(Strictness.init(rawValue:)) else {
                    let all = Strictness.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    throw fail("strictness: expected one of \(all), found \(value.errorDescription)")
                }
                context.strictness = strictness
            case "streak": context.streak = try integer(0...Int.max)
            case "balance": context.balance = try integer(0...Int.max)
            case "params":
                guard let params = value.tableValue, params.stringKeys.count == params.count else {
                    throw fail("params: expected a table of param values by name, found \(value.errorDescription)")
                }
                var values: [(name: String, value: ParamValue)] = []
                for key in params.stringKeys {
                    switch params[key] {
                    case .integer(let i): values.append((key, .integer(i)))
                    case .number(let d): values.append((key, .number(d)))
                    case .boolean(let b): values.append((key, .boolean(b)))
                    case .string(let s): values.append((key, .string(s)))
                    default: throw fail("params.\(key): expected a boolean, a number or a string, found \(params[key].errorDescription)")
                    }
                }
                do { context.params = try rules.pricing.params.resolve(ParamOverrides(values)) } catch { throw fail(error.message) }
            default:
                var message = "unknown field '\(name)'"
                if let suggestion = Suggestion.closest(to: name, among: names) { message += " (did you mean '\(suggestion)'?)" }
                throw fail(message + "; the fields are \(names.joined(separator: ", "))")
            }
        }
        return context
    }
}

import Foundation
import LuaHost
@testable import RulesEngine
import RulesModel
import RulesSim
import RulesStore
import Testing

/// The records rule functions receive against their declaration (`RuleSet.recordFields`): every
/// field the engine writes is declared, and each is either enumerated by the function's proof (a
/// value of every class the engine can pass) or named in its `not proved` line; the generators of
/// properties draw the records the engine writes.
@Suite struct RecordFieldsTests {
    /// The rule calls of a trace, each as (function name as validate names it, arguments).
    typealias Calls = [(function: String, arguments: [LuaValue?])]

    /// A folder extending the default rules whose pricing.lua and streaks.lua declare params.
    static func folderWithParams() throws -> String {
        let dir = try SimTestSupport.temporaryFolder()
        try (SimTestSupport.rules + "\n").write(to: dir.appendingPathComponent("extends"), atomically: true, encoding: .utf8)
        try """
        local M = base
        M.params = { surge = { type = "integer", min = 0, max = 3, default = 1 }, late = { type = "boolean", default = false } }
        return M
        """.write(to: dir.appendingPathComponent("pricing.lua"), atomically: true, encoding: .utf8)
        try """
        local M = base
        M.params = { grace = { type = "enum", values = { "none", "one_day" }, default = "none" } }
        return M
        """.write(to: dir.appendingPathComponent("streaks.lua"), atomically: true, encoding: .utf8)
        return dir.path
    }

    static func named(_ calls: [LuaCallTrace.Call], in ruleSet: RuleSet) -> Calls {
        calls.map { call in
            (ruleSet.ruleFunctions.first { $0.function == call.function }?.name ?? "\(call.function)", call.arguments)
        }
    }

    /// Every call the proofs of `folder` make, and the rule set.
    static func proofCalls(_ folder: String) throws -> (RuleSet, Calls) {
        let trace = LuaCallTrace(recordsResults: false)
        let ruleSet = try RuleSet.load(
            folder, limits: .default, randomSeed: 0, proving: true, overrides: [], snapshot: nil, proofCalls: trace)
        return (ruleSet, named(trace.removeAll(), in: ruleSet))
    }

    /// Every call the engine makes replaying the example replay files and generated histories of
    /// the three apps (Android and iOS apps, modes, quests, habits of every frequency, …).
    static func engineCalls(_ folder: String) throws -> (RuleSet, Calls) {
        let ruleSet = try RuleSet.load(folder, proving: false)
        ruleSet.host.printHandler = { _ in }
        let trace = LuaCallTrace(recordsResults: false)
        try ruleSet.host.explain(trace)
        var scripts: [String] = []
        let replays = SimTestSupport.root.appendingPathComponent("examples/replay")
        for name in try FileManager.default.contentsOfDirectory(atPath: replays.path).sorted() where name.hasSuffix(".jsonl") {
            scripts.append(try String(contentsOf: replays.appendingPathComponent(name), encoding: .utf8))
        }
        for app in HistoryApp.allCases {
            for k in 0..<8 { scripts.append(app.history(seed: 7, days: app.defaultDays, case: k).lines().joined(separator: "\n")) }
        }
        for script in scripts {
            let replay = Replay(engine: Engine(store: try Store.inMemory(), rules: ruleSet, ruleFolder: folder))
            _ = replay.run(script) { _ in }
        }
        return (ruleSet, named(trace.removeAll(), in: ruleSet))
    }

    /// The engine's calls on `folderWithParams()` and its declarations, made once: two tests read them.
    static let engineCallsWithParams = Result {
        () throws -> (folder: String, declarations: [RuleRecordFields], calls: Calls) in
        let folder = try folderWithParams()
        let (ruleSet, calls) = try engineCalls(folder)
        return (folder, ruleSet.recordFields, calls)
    }

    /// The paths of fields in `calls` that the declaration does not cover, by function.
    static func undeclared(_ calls: Calls, _ declarations: [RuleRecordFields]) -> [String] {
        var found: [String] = []
        for call in calls {
            guard let declared = declarations.first(where: { $0.function == call.function }) else {
                found.append("\(call.function): no declaration")
                continue
            }
            let paths = RecordField.undeclared(in: call.arguments, names: declared.arguments, declared: Set(declared.fields.map(\.path)))
            found += paths.map { "\(call.function): \($0)" }
        }
        return Array(Set(found)).sorted()
    }

    /// The classes of an enumerated field's values seen in `calls` (a value in no class: "outside: …").
    static func classes(_ field: RecordField, _ classes: ValueClasses, of function: RuleRecordFields, in calls: Calls) -> Set<String> {
        var seen = Set<String>()
        for call in calls where call.function == function.function {
            for value in field.values(in: call.arguments, names: function.arguments) {
                seen.insert(classes.name(of: value) ?? "outside: \(value)")
            }
        }
        return seen
    }

    @Test(arguments: [false, true])
    func theEngineWritesOnlyDeclaredFieldsOfDeclaredClasses(withParams: Bool) throws {
        let declarations: [RuleRecordFields], calls: Calls
        if withParams {
            (_, declarations, calls) = try Self.engineCallsWithParams.get()
        } else {
            let (ruleSet, engine) = try Self.engineCalls(SimTestSupport.rules)
            (declarations, calls) = (ruleSet.recordFields, engine)
        }
        #expect(Self.undeclared(calls, declarations) == [])
        let called = Set(calls.map(\.function))
        // Every function the engine calls by name is called (window_active is called by modes.lua).
        #expect(called == Set(declarations.map(\.function)).subtracting(["window_active"]))
        for function in declarations {
            for field in function.fields {
                guard case .enumerated(let classes) = field.coverage else { continue }
                let outside = Self.classes(field, classes, of: function, in: calls).filter { $0.hasPrefix("outside") }
                #expect(outside.isEmpty, "\(function.function): \(field.path): the engine passes \(outside.sorted())")
            }
        }
        // The engine's iOS app ids reach price.
        let apps = calls.filter { $0.function == "price" }.compactMap { ($0.arguments.first ?? nil)?["app"].stringValue }
        #expect(apps.contains { $0.hasPrefix("iosToken:") } && apps.contains { $0.hasPrefix("android:") })
    }

    /// On a folder that extends the default rules with params (its proofs are the default rules'
    /// and the params' domain).
    @Test func theProofsEnumerateOrNameEveryField() throws {
        let (ruleSet, calls) = try Self.proofCalls(try Self.folderWithParams())
        let declarations = ruleSet.recordFields
        #expect(Self.undeclared(calls, declarations) == [])
        #expect(Set(calls.map(\.function)) == Set(declarations.map(\.function)))
        for function in declarations {
            let line = ruleSet.unproved.first { $0.hasPrefix(function.function + ": not proved for ") } ?? ""
            for field in function.fields {
                switch field.coverage {
                case .enumerated(let classes):
                    let tried = Self.classes(field, classes, of: function, in: calls)
                    let missing = classes.names.filter { !tried.contains($0) }
                    #expect(missing.isEmpty, "\(function.function): \(field.path): the proof never tries \(missing)")
                    #expect(tried.allSatisfy { !$0.hasPrefix("outside") }, "\(function.function): \(field.path): \(tried.sorted())")
                case .notProved(let words):
                    #expect(line.contains(words), "\(function.function): \(field.path): \"\(words)\" is not in \"\(line)\"")
                }
            }
        }
    }

    /// The fields of a value and the type of each (`ctx.app: string`, `periods[].value: float`),
    /// a table at a path of `leaves` as its value (`ctx.params`).
    static func shape(_ value: LuaValue, _ path: String, leaves: Set<String>, into shape: inout Set<String>) {
        switch value {
        case .table(let table) where !leaves.contains(path):
            if table.isEmpty {
                return
            } else if table.isSequence {
                for element in table.sequence { Self.shape(element, path + "[]", leaves: leaves, into: &shape) }
            } else {
                for key in table.stringKeys { Self.shape(table[key], path + "." + key, leaves: leaves, into: &shape) }
            }
        case .integer: shape.insert("\(path): integer")
        case .number: shape.insert("\(path): float")
        case .nil: break
        default: shape.insert("\(path): \(value.isNil ? "nil" : value.typeName)\(leaves.contains(path) ? " \(value)" : "")")
        }
    }

    /// Each generator draws what the engine writes for the rule set under test: the same fields of
    /// the same types (a field the engine writes and a generator leaves out, or the other way round,
    /// fails), and `ctx.params` at the values the engine passes (the params' defaults).
    @Test func everyGeneratorDrawsTheRecordTheEngineWrites() throws {
        let (folder, declarations, calls) = try Self.engineCallsWithParams.get()
        // Each generator, with the function whose arguments it draws and which of them: one
        // argument (its name), or the record of all of them (nil).
        let generators: [(kind: String, function: String, argument: String?)] = [
            ("escalation_state", "transition", "state"), ("check_in", "transition", "check_in"),
            ("window", "reminder_times", "window"), ("price_context", "price", "ctx"), ("focus_session", "focus_credits", "session"),
            ("quest_gate", "quest_blocked", "gate"), ("emergency_gate", "emergency_blocked", "gate"),
            ("carried_balance", "carried_credits", "balance"), ("habit_award", "habit_award", "completion"),
            ("pressure_streak", "pressure.next", "streak"), ("pressure_day", "pressure.next", "day"),
            ("habit_streak", "habit.streak", nil), ("miga_days", "miga.current_streak", "days"),
            ("earned_day", "earned.qualifies", "day"), ("earned_streak", "earned.bonus", "streak"),
            ("earned_day_end", "earned.day_ends", "day"), ("effective_mode", "effective_mode", nil),
        ]
        // `ctx.params` compared by value (a task's params are drawn over their domain).
        let leaves: Set<String> = ["ctx.params"]
        for generator in generators {
            let declared = try #require(declarations.first { $0.function == generator.function })
            let names = generator.argument.map { [$0] } ?? declared.arguments
            var engine = Set<String>()
            for call in calls where call.function == generator.function {
                for (i, name) in declared.arguments.enumerated() where names.contains(name) {
                    Self.shape(call.arguments[i] ?? .nil, name, leaves: leaves, into: &engine)
                }
            }
            let parsed = try CaseGenerator.parse(
                ["generator": .string(generator.kind)], path: "cases.prop") { try RuleSet.load(folder, proving: false) }
            var drawn = Set<String>()
            for k in 0..<300 {
                var rng = SeededGenerator(seed: 5, UInt64(k), 0)
                let value = try parsed.present(try parsed.draw(using: &rng))
                for name in names {
                    Self.shape(generator.argument == nil ? value[name] : value, name, leaves: leaves, into: &drawn)
                }
            }
            // The engine's minutes are the lengths of credit_costs; the generator's 0.
            engine = Set(engine.filter { !$0.hasPrefix("ctx.minutes:") })
            drawn = Set(drawn.filter { !$0.hasPrefix("ctx.minutes:") })
            #expect(drawn.subtracting(engine).sorted() == [], "gen.\(generator.kind) draws what the engine does not write")
            #expect(engine.subtracting(drawn).sorted() == [], "gen.\(generator.kind) never draws what the engine writes")
        }
    }
}

import LuaHost

/// `with_knobs({["pricing.rollover_cap"] = 3}, function() … end)`: runs a function of a test with
/// knobs of the rule set under test given other values. Each knob is checked against the module
/// (a path that does not exist, a value of another type: ``KnobOverride``), the rule set is
/// validated with the overrides as `sweep --set` validates it (once per set of overrides in a run),
/// and the files of the knobs are loaded again, with the overrides, in the test's host: the
/// module globals (`pricing`, …) are those while the function runs, and the rule set's own again
/// when it returns or raises (the Lua side, `TestHelpers`), and after each test whatever happened
/// (`reset`, for an error no `pcall` catches: the instruction budget, the memory).
final class TestKnobs {
    private let host: LuaHost
    private let rules: RuleSet
    /// The modules as the tests see them without overrides.
    private let base: [(name: String, value: LuaValue)]
    /// Whether the modules' functions are called through the host (a second run that explains).
    private let callingThroughHost: Bool
    /// The overrides in force at each level of nested `with_knobs`.
    private var levels: [[KnobOverride]] = []
    /// The modules loaded with a set of overrides (or why the set does not validate), by the set.
    private var loaded: [String: Result<[(name: String, value: LuaValue)], KnobOverrideError>] = [:]

    init(host: LuaHost, rules: RuleSet, modules: [(name: String, value: LuaValue)], callingThroughHost: Bool) {
        self.host = host
        self.rules = rules
        base = modules
        self.callingThroughHost = callingThroughHost
    }

    /// Gives the knobs of `knobs` (a table from knob paths to values) their values, over those of
    /// the levels already entered; returns the level to `leave` to.
    func enter(_ knobs: LuaValue) throws -> Int {
        guard let table = knobs.tableValue, !table.isEmpty, table.stringKeys.count == table.count else {
            throw LuaError(
                kind: .hostFunction,
                message: "expected a table from knob paths to values ({[\"pricing.rollover_cap\"] = 3}), found \(knobs.errorDescription)")
        }
        var overrides = levels.last ?? []
        for path in table.stringKeys {
            do throws(KnobOverrideError) {
                var override = try KnobOverride(path: path, value: table[path])
                let module = base.first { $0.name == override.module }?.value ?? .nil
                _ = try override.resolve(in: module)
                overrides.removeAll { $0.path == override.path }
                overrides.append(override)
            } catch {
                throw LuaError(kind: .hostFunction, message: error.message)
            }
        }
        let modules = try host.outsideCallerBudget { try load(overrides) }
        levels.append(overrides)
        try host.outsideCallerBudget { try install(modules) }
        return levels.count - 1
    }

    /// Back to the knobs of `level` (0: the rule set's own).
    func leave(to level: Int) throws {
        guard level < levels.count else { return }
        levels.removeLast(levels.count - level)
        try host.outsideCallerBudget { try install(levels.last.map { try load($0) } ?? base) }
    }

    /// The rule set's own knobs again (after each test).
    func reset() {
        guard !levels.isEmpty else { return }
        levels = []
        try? install(base)
    }

    /// The modules with `overrides`, once the rule set validates with them.
    private func load(_ overrides: [KnobOverride]) throws -> [(name: String, value: LuaValue)] {
        let sorted = overrides.sorted { $0.path < $1.path }
        let key = sorted.map { "\($0.path)=\(KnobOverride.literal($0.value))" }.joined(separator: "\n")
        if loaded[key] == nil { loaded[key] = validatedModules(sorted) }
        switch loaded[key]! {
        case .success(let modules): return modules
        case .failure(let error): throw LuaError(kind: .hostFunction, message: error.message)
        }
    }

    private func validatedModules(_ overrides: [KnobOverride]) -> Result<[(name: String, value: LuaValue)], KnobOverrideError> {
        let snapshot = rules.snapshot
        let given = overrides.map { "\($0.path) = \(KnobOverride.literal($0.value))" }.joined(separator: ", ")
        let all = snapshot.overrides.filter { old in !overrides.contains { $0.path == old.path } } + overrides
        do {
            _ = try RuleSet.load(
                snapshot.path, limits: host.limits, randomSeed: 0, proving: true, overrides: all, snapshot: snapshot)
        } catch let error as RuleSetError {
            let problems = error.problems.map(\.description).joined(separator: "; ")
            return .failure(KnobOverrideError("the rule set does not validate with \(given): \(problems)"))
        } catch {
            return .failure(KnobOverrideError("the rule set does not load with \(given): \(error)"))
        }
        do {
            let sources = try RuleSources(snapshot.path)
            var modules = base
            for name in Set(overrides.map(\.module)).sorted() {
                var problems: [RuleProblem] = []
                let file = host.outsideCallerBudget {
                    RuleFile.load(
                        name + ".lua", from: sources, host: host, overrides: all.filter { $0.module == name }, problems: &problems,
                        read: { path, _ in try snapshot.bytes(path) })
                }
                guard let file else {
                    return .failure(
                        KnobOverrideError("\(name).lua does not load with \(given): \(problems.map(\.description).joined(separator: "; "))"))
                }
                if host.isExplaining { try host.traceKnobsOfLoadedFiles() }
                let value = callingThroughHost ? try host.callingThroughHost(file.value) : file.value
                if let index = modules.firstIndex(where: { $0.name == name }) { modules[index].value = value }
            }
            return .success(modules)
        } catch {
            return .failure(KnobOverrideError("the rule set does not load with \(given): \(error)"))
        }
    }

    private func install(_ modules: [(name: String, value: LuaValue)]) throws {
        for module in modules {
            try host.setGlobal(module.name, module.value, describedAs: "the rule module '\(module.name)'")
        }
    }
}

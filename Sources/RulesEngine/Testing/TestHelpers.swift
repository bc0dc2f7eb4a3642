import LuaHost

/// The globals a Lua test file sees besides the sandbox's: the rule set's five modules
/// (`escalation`, `streaks`, `pricing`, `quests`, `modes`, read-only), the helpers
/// `expect_eq`, `expect_true` and `expect_error`, and the records of the rule set (`RecordHelpers`). A failed expectation raises a Lua error at the
/// line that called the helper, so the test stops there and its failure names that line. A
/// property file (`compare --property`) sees the same helpers, and both see `gen`, the generators
/// a file's `cases` table names (`gen.int(0, 10)`, `gen.history("earned")`: see `CaseGenerator`).
package enum TestHelpers {
    /// `expect_error` is Lua, so that the function it calls runs under the test's own budget
    /// (through the sandbox's `pcall`, which lets no budget or memory error be caught).
    static let luaSource = """
        local helpers = {}
        -- with_knobs: the host gives the knobs their values (checked, the set validated with them),
        -- the function runs, then the knobs are given back, also when it raised.
        local enter_knobs, leave_knobs = with_knobs, __rulesrun_leave_knobs
        function helpers.with_knobs(knobs, fn)
            if enter_knobs == nil then error("with_knobs: only a test of a rule folder can change its knobs", 2) end
            if type(fn) ~= "function" then
                error("with_knobs: expected a function to call with the knobs changed, found " .. type(fn), 2)
            end
            local entered, level = pcall(enter_knobs, knobs)
            if not entered then error(level, 2) end
            local ok, err = pcall(fn)
            leave_knobs(level)
            if not ok then error(err, 0) end
        end
        function helpers.expect_error(fn, pattern, message)
            if type(fn) ~= "function" then
                error("expect_error: expected a function to call, found " .. type(fn), 2)
            end
            local suffix = message ~= nil and (" (" .. tostring(message) .. ")") or ""
            local ok, err = pcall(fn)
            if ok then error("expect_error: the function raised no error" .. suffix, 2) end
            local text = tostring(err)
            if pattern ~= nil and not string.find(text, pattern) then
                error(string.format("expect_error: the error %q does not match the pattern %q%s", text, pattern, suffix), 2)
            end
        end
        -- The generators of property cases: plain descriptions, checked and drawn by the host.
        local gen = {}
        function gen.int(min, max) return { generator = "int", min = min, max = max } end
        function gen.bool() return { generator = "one_of", values = { false, true } } end
        function gen.one_of(values) return { generator = "one_of", values = values } end
        function gen.record(fields) return { generator = "record", fields = fields } end
        function gen.list(of, max) return { generator = "list", of = of, max = max } end
        -- The domains validation proves the escalation functions over (EscalationPolicy+Proofs).
        function gen.escalation_state() return { generator = "escalation_state" } end
        function gen.check_in() return { generator = "check_in" } end
        function gen.window() return { generator = "window" } end
        -- The domains validation proves the economy's functions over (EconomyPolicies+Proofs, PricingPolicy+PriceProof).
        function gen.price_context() return { generator = "price_context" } end
        function gen.focus_session() return { generator = "focus_session" } end
        function gen.quest_gate() return { generator = "quest_gate" } end
        function gen.emergency_gate() return { generator = "emergency_gate" } end
        function gen.carried_balance() return { generator = "carried_balance" } end
        function gen.habit_award() return { generator = "habit_award" } end
        -- The domains validation proves the streak functions over (StreakPolicy+Proofs, StreakPolicy+HabitProof).
        function gen.pressure_streak() return { generator = "pressure_streak" } end
        function gen.pressure_day() return { generator = "pressure_day" } end
        function gen.habit_streak() return { generator = "habit_streak" } end
        function gen.miga_days() return { generator = "miga_days" } end
        function gen.earned_day() return { generator = "earned_day" } end
        function gen.earned_streak() return { generator = "earned_streak" } end
        function gen.earned_day_end() return { generator = "earned_day_end" } end
        -- The domains validation proves the mode functions over (ModePolicy+Proofs).
        function gen.window_active() return { generator = "window_active" } end
        function gen.effective_mode() return { generator = "effective_mode" } end
        function gen.history(app, options)
            return { generator = "history", app = app, days = type(options) == "table" and options.days or nil }
        end
        helpers.gen = gen
        return helpers
        """

    /// The chunk name of `luaSource` in tracebacks.
    static let chunkName = "(rulesrun test helpers)"

    /// What a test file sees of the run: what its files declare as they load, and the knobs its
    /// tests change (nil without a rule set).
    package struct Installed {
        package let declarations: TestDeclarations
        let knobs: TestKnobs?
    }

    /// `rules`: the rule set under test, whose records the helpers of ``RecordHelpers`` write
    /// (`records.params`, `records.price_context`) and whose knobs `with_knobs` changes; nil where
    /// there is none (a property file of `compare`). `callingThroughHost`: the modules' functions
    /// are called through the host (a second run that explains), those `with_knobs` loads too.
    @discardableResult
    package static func install(
        in host: LuaHost, modules: [(name: String, value: LuaValue)], rules: RuleSet? = nil, callingThroughHost: Bool = false
    ) throws -> Installed {
        let declarations = TestDeclarations()
        var knobs: TestKnobs?
        if let rules {
            try RecordHelpers.install(in: host, rules: rules)
            let scope = TestKnobs(host: host, rules: rules, modules: modules, callingThroughHost: callingThroughHost)
            knobs = scope
            // Replaced by the Lua `with_knobs` of `luaSource`, which calls it.
            try host.register("with_knobs") { arguments in [.integer(Int64(try scope.enter(arguments.first ?? .nil)))] }
            try host.register("__rulesrun_leave_knobs") { arguments in
                try scope.leave(to: Int(arguments.first?.integerValue ?? 0))
                return []
            }
        }
        try registerDeclarations(declarations, in: host)
        for module in modules {
            try host.setGlobal(module.name, module.value, describedAs: "the rule module '\(module.name)'")
        }
        try host.register("expect_eq") { arguments in
            let found = arguments.first ?? .nil
            let expected = arguments.count > 1 ? arguments[1] : .nil
            if let difference = LuaValueDiff.firstDifference(found: found, expected: expected) {
                throw LuaError(kind: .hostFunction, message: Self.withMessage(arguments, at: 2, difference))
            }
            return []
        }
        try host.register("expect_true") { arguments in
            let value = arguments.first ?? .nil
            switch value {
            case .nil, .boolean(false):
                throw LuaError(
                    kind: .hostFunction,
                    message: Self.withMessage(arguments, at: 1, "expected a true value, found \(LuaValueDiff.describe(value))"))
            default: return []
            }
        }
        let helpers = try host.load(luaSource, chunkName: chunkName)
        guard case .function(let expectError) = helpers.first?["expect_error"] else {
            throw LuaError(kind: .runtime, file: chunkName, message: "the test helpers did not load")
        }
        try host.setGlobal("expect_error", .function(expectError), describedAs: "expect_error")
        try host.setGlobal("gen", helpers.first?["gen"] ?? .nil, describedAs: "the generators' table 'gen'")
        try host.setGlobal("with_knobs", helpers.first?["with_knobs"] ?? .nil, describedAs: "with_knobs")
        return Installed(declarations: declarations, knobs: knobs)
    }

    /// `skip(NAME, REASON)`, `expect_failure(NAME, REASON)` and `table_test(NAME, CASES, FN)`: what
    /// a test file declares at its top, recorded in `declarations` with the line that wrote it.
    private static func registerDeclarations(_ declarations: TestDeclarations, in host: LuaHost) throws {
        func loading(_ helper: String) throws -> (label: String, depth: Int, line: Int) {
            guard let file = declarations.loading else {
                throw LuaError(kind: .hostFunction, message: "call \(helper) at the top of a test file, not inside a test")
            }
            return (file.label, file.depth, host.callerPosition()?.line ?? 1)
        }
        for kind in [TestMark.Kind.skip, .expectFailure] {
            try host.register(kind.rawValue) { arguments in
                let place = try loading(kind.rawValue)
                guard let name = arguments.first?.stringValue, !name.isEmpty else {
                    throw LuaError(
                        kind: .hostFunction,
                        message: "expected the name of an inherited test, then the reason, found \((arguments.first ?? .nil).errorDescription)")
                }
                guard arguments.count > 1, let reason = arguments[1].stringValue, !reason.isEmpty else {
                    throw LuaError(
                        kind: .hostFunction,
                        message: "\(name): expected the reason (a string, printed with the test), found \((arguments.count > 1 ? arguments[1] : .nil).errorDescription)")
                }
                declarations.add(TestMark(kind: kind, name: name, reason: reason, file: place.label, line: place.line, depth: place.depth))
                return []
            }
        }
        try host.register("table_test") { arguments in
            let place = try loading("table_test")
            func fail(_ message: String) -> LuaError { LuaError(kind: .hostFunction, message: message) }
            guard let name = arguments.first?.stringValue, !name.isEmpty else {
                throw fail("expected the test's name, its cases and a function, found \((arguments.first ?? .nil).errorDescription)")
            }
            let given = arguments.count > 1 ? arguments[1] : .nil
            guard let list = given.tableValue, !list.isEmpty, list.isSequence else {
                throw fail("\(name): expected a list of cases ({ { name = \"night\", hour = 23 }, … }), found \(given.errorDescription)")
            }
            guard arguments.count > 2, let function = arguments[2].functionValue else {
                throw fail("\(name): expected a function to call with each case, found \((arguments.count > 2 ? arguments[2] : .nil).errorDescription)")
            }
            var cases: [(name: String, value: LuaValue)] = []
            for (index, value) in list.sequence.enumerated() {
                let caseName = value.tableValue?["name"].stringValue ?? String(index + 1)
                if let other = cases.firstIndex(where: { $0.name == caseName }) {
                    throw fail("\(name): cases \(other + 1) and \(index + 1) are both named '\(caseName)': give each case its own name")
                }
                cases.append((caseName, value))
            }
            declarations.tables.append(.init(name: name, line: place.line, function: function, cases: cases))
            return []
        }
    }

    /// `text`, after the test's own message when it gave one (argument `index`, from 0).
    private static func withMessage(_ arguments: [LuaValue], at index: Int, _ text: String) -> String {
        guard arguments.count > index, !arguments[index].isNil else { return text }
        let message = arguments[index].stringValue ?? arguments[index].description
        return "\(SourceFile.excerpt(message)): \(text)"
    }
}

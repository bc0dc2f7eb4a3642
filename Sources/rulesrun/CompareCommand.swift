import ArgumentParser
import Foundation
import LuaHost
import RulesBench
import RulesEngine
import RulesModel
import RulesSim

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Run two rule sets on the same generated histories and show exactly where they differ.",
        discussion: """
            Differential: RUNS histories of DAYS days (fresh Pressure users, generated from SEED: results, \
            missing commitments, restart shields, window changes) are walked through both rule sets. \
            Differences are grouped by kind, the field decided differently: current_tier, \
            consecutive_misses, consecutive_successes, current_streak, longest_streak, reminders, \
            persistent_badge, shield, restart_shields_remaining, error. For each kind the first history \
            that shows it is shrunk to a minimal one and written to OUT/KIND.jsonl as a replay file; \
            it is replayed through the engine under both sets to check that the engine shows the same \
            difference, and the first diverging event is printed with the state before and after it \
            under A and B.

            --expect states a relation that must hold after every day, e.g. \
            "B.current_tier <= A.current_tier" (B never escalates further than A). Its fields are \
            Pressure's (current_tier, consecutive_misses, consecutive_successes, current_streak, \
            longest_streak, restart_shields_remaining; reminders, persistent_badge, shield, error by == \
            or != only), the economy's (credit_balance, streak_count, cost_credits, credits_earned; \
            gate_options, unlock, quest, rollover, earned_error by == or !=: checked after every event of \
            the Earned histories) or the habit tracker's (habit_streak, habit_score, habit_best_streak: \
            task by task; habit_decision, habit_best_streaks, habit_error by == or !=: after every event \
            of the habit histories). A field that is not a number is compared with itself only. \
            With expectations or properties, differences are listed but only a broken one fails the run.

            --property FILE: a Lua file of prop_… functions, each with its histories named in the file's \
            `cases` table (cases = { prop_x = gen.history("earned" [, {days = N}]) }, or "pressure", \
            "habits"). Each is checked on --property-runs histories replayed through the engine under A \
            and B: prop_x(a, b) gets both replayed histories (lists of steps, one per event: event, ok, \
            decisions, state, error) and must return true. A history that breaks it is shrunk and \
            written to OUT/property-prop_x.jsonl, and replayed once more under A and B on hosts that \
            explain: the last rule calls of each are printed under it, as replay --explain shows them \
            (a broken --expect's too: a Pressure one's up to its first diverging event; --no-explain: none).

            --ignore takes these kinds, the economy's: gate_options, unlock, quest, credits_earned, \
            rollover, credit_balance, streak_count, and the habit tracker's: habit_streak, \
            habit_best_streaks, habit_score, habit_decision (error is every half's).

            The economy and the habit tracker are compared on generated replay lines (Earned \
            histories; habit histories of tasks with every frequency, goals, skips, freezes, unchecks \
            and completions of past days) replayed through the engine under both sets; each kind of \
            difference is shrunk to OUT/economy-KIND.jsonl or OUT/habit-KIND.jsonl.

            Exit status: 0 no difference (or every expectation held), 1 the sets differ (or an \
            expectation broke; with --bench, as the walk found), 2 invalid input (a rule folder that does \
            not load: its problems are printed; a persona that does not load, an --out that is not a \
            writable folder, is a rule folder or holds a file of the user's with a replay file's name, \
            reported before anything runs).

            Examples:
              rulesrun compare rules examples/graduated-recovery
              rulesrun compare rules examples/miss-never-lowers-tier --expect "B.current_tier >= A.current_tier"
              rulesrun compare rules rules --runs 5000 --json
              rulesrun compare rules examples/graduated-recovery --bench
              rulesrun compare rules examples/gentle-pricing --expect "B.cost_credits <= A.cost_credits"
              rulesrun compare rules examples/graduated-recovery --property examples/properties/graduated-recovery.lua
              rulesrun compare rules examples/graduated-recovery --html compare.html
            """
    )

    @Argument(help: "Rule set A (the reference, usually rules): a folder, @default or a bundle (FILE#ARM: an arm of its experiment).")
    var dirA: String
    @Argument(help: "Rule set B: a folder, @default or a bundle (FILE#ARM).") var dirB: String
    @Option(
        parsing: .unconditional, help: "Histories to generate, 1 to \(CompareOptions.maxRuns). (default: \(CompareOptions.defaultRuns))",
        transform: WholeNumber.parser(1...CompareOptions.maxRuns)) var runs = CompareOptions.defaultRuns
    @Option(
        parsing: .unconditional,
        help:
            "Days per history, 1 to \(CompareOptions.maxDays) (10 years, like simulate's longest run). (default: \(CompareOptions.defaultDays))",
        transform: WholeNumber.parser(1...CompareOptions.maxDays)) var days = CompareOptions.defaultDays
    @Option(
        parsing: .unconditional, help: "Seed of the histories, 0 to \(UInt64.max) (the same seed gives the same histories). (default: 1)",
        transform: WholeNumber.seed) var seed: UInt64 = 1
    @Option(help: "Folder for the replay files of the minimal histories.") var out = CompareCommand.defaultOut
    @Option(parsing: .upToNextOption, help: "Kinds not to compare, of either half (e.g. reminders longest_streak gate_options).")
    var ignore: [String] = []
    @Option(help: "A relation between A and B that must hold after every day, e.g. \"B.current_tier <= A.current_tier\" (repeatable).")
    var expect: [String] = []
    @Option(help: "A Lua file of properties (prop_… functions) relating A and B on replayed histories.") var property: String?
    @Option(
        parsing: .unconditional,
        help: "Histories per property of --property, 1 to \(PropertyComparison.maxRuns). (default: \(PropertyComparison.defaultRuns))",
        transform: WholeNumber.parser(1...PropertyComparison.maxRuns)) var propertyRuns = PropertyComparison.defaultRuns
    @Option(
        parsing: .unconditional,
        help:
            "Users in the population comparison (both sets simulated on the same seeded cohort), 0 (skip it) to \(Simulation.maxUsers). (default: 200)",
        transform: WholeNumber.parser(0...Simulation.maxUsers)) var populationUsers = 200
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Cohorts of --population-users under each set, 1 to \(ReplicaReport.maxReplicas): the deltas' intervals over the replicas. (default: 1)",
            discussion:
                "With 1, the intervals come from \(PopulationComparison.maxGroups) groups of the cohort's users (docs/compare.md#population)."
        ),
        transform: WholeNumber.parser(1...ReplicaReport.maxReplicas)) var populationReplicas = 1
    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Personas of the population comparison (names or files, with weights: steady:70 struggling:30).",
            discussion: "A comma separates personas too (steady:70,struggling:30): a file whose name has a comma cannot be given."))
    var persona: [String] = []
    @Option(help: PersonaDirs.help) var personaDir: [String] = []
    @Flag(
        help:
            "After the population's metrics, the same for each persona's users alone, each B − A with its paired 95% interval (in --json: population.segments)."
    )
    var segments = false
    @Flag(
        help: "The population's personas without their responses to the rules' decisions: their fixed probabilities alone (docs/simulate.md#responses)."
    )
    var noResponses = false
    @Option(
        help:
            "The team's own metrics for the population half: a Lua file of metrics (docs/simulate.md#team-metrics). Default: B's metrics.lua, else A's."
    )
    var metrics: String?
    @Option(
        parsing: .unconditional,
        help: """
            Earned histories for the economy's differential comparison, replayed through the engine, 0 (skip it) to \(CompareOptions.maxEconomyRuns), \
            and at most \(CompareOptions.maxEconomyHistoryDays) history-days (runs × --economy-days). (default: \(CompareOptions.defaultEconomyRuns))
            """, transform: WholeNumber.parser(0...CompareOptions.maxEconomyRuns)) var economyRuns = CompareOptions.defaultEconomyRuns
    @Option(
        parsing: .unconditional,
        help:
            "Days per Earned history, 1 to \(CompareOptions.maxDays) (two weeks by default: long enough for streaks of 7 days). (default: \(CompareOptions.defaultEconomyDays))",
        transform: WholeNumber.parser(1...CompareOptions.maxDays)) var economyDays = CompareOptions.defaultEconomyDays
    @Option(
        parsing: .unconditional,
        help: """
            Habit histories for the habit tracker's differential comparison, replayed through the engine, 0 (skip it) to \(CompareOptions.maxHabitRuns), \
            and at most \(CompareOptions.maxHabitHistoryDays) history-days (runs × --habit-days). (default: \(CompareOptions.defaultHabitRuns))
            """, transform: WholeNumber.parser(0...CompareOptions.maxHabitRuns)) var habitRuns = CompareOptions.defaultHabitRuns
    @Option(
        parsing: .unconditional,
        help: "Days per habit history, 1 to \(CompareOptions.maxDays). (default: \(CompareOptions.defaultHabitDays))",
        transform: WholeNumber.parser(1...CompareOptions.maxDays)) var habitDays = CompareOptions.defaultHabitDays
    @Flag(help: "Do not show the rule calls of a broken property or expectation (nor replay its history again to find them).")
    var noExplain = false
    @Flag(help: "Print one JSON object instead of text.") var json = false
    @Option(
        help:
            "Write a self-contained HTML page of the population comparison to this file: the parameters, each metric's B − A with its interval, A and B day by day, the other halves' findings, the --json object embedded (docs/report.md#compare)."
    )
    var html: String?
    @Option(
        parsing: .unconditional,
        help:
            "Threads for the Pressure walk, 1 to \(Simulation.maxJobs); the result is the same whatever it is. (default: every core)",
        transform: WholeNumber.parser(1...Simulation.maxJobs)) var jobs: Int?
    @Flag(
        help: ArgumentHelp(
            "Measure histories per second of the Pressure walk, against issue 20's target of 5,000 (no shrinking, no files).",
            discussion:
                "The walk is what grows with --runs: each history generated, walked through both sets and compared day by day; shrinking (a few kinds per run, whatever --runs is), the files and the other halves are left out. Wall and CPU rates, the fastest of 3 walks after 2 warm-ups."
        )) var bench = false
    @Flag(
        help:
            "After the result, which lines and branches of each set's rule files the comparison ran (histories, economy, habits, population; with --json under \"coverage\")."
    )
    var coverage = false

    /// The default `--out`: its folders are made when missing (the user did not name it).
    static let defaultOut = ".rulesrun/compare"

    mutating func validate() throws {
        // A bundle's rules (an arm's: FILE.bundle#ARM) are compared from where they are unpacked.
        (dirA, dirB) = (try BundleRules.folder(dirA), try BundleRules.folder(dirB))
        try PersonaDirs.check(personaDir)
        if coverage, bench { throw ValidationError("--bench measures the walk's speed; leave out --coverage") }
        if html != nil, bench { throw ValidationError("--bench measures the walk's speed; leave out --html") }
        if segments, populationUsers == 0 {
            throw ValidationError("--segments breaks the population comparison down by persona; leave out --population-users 0")
        }
        if html != nil, populationUsers == 0 {
            throw ValidationError("--html draws the population comparison; leave out --population-users 0")
        }
        guard economyRuns * economyDays <= CompareOptions.maxEconomyHistoryDays else {
            throw ValidationError(
                "--economy-runs \(economyRuns) × --economy-days \(economyDays): at most \(CompareOptions.maxEconomyHistoryDays) "
                    + "history-days (the engine keeps every Earned history in memory)")
        }
        guard habitRuns * habitDays <= CompareOptions.maxHabitHistoryDays else {
            throw ValidationError(
                "--habit-runs \(habitRuns) × --habit-days \(habitDays): at most \(CompareOptions.maxHabitHistoryDays) "
                    + "history-days (the engine keeps every habit history in memory)")
        }
    }

    func run() throws {
        let options: CompareOptions
        let lineExpectations: [LineExpectation]
        do {
            (options, lineExpectations) = try parseOptions()
        } catch {
            throw fail("\(error)")
        }
        let comparison: RuleComparison
        do {
            comparison = try RuleComparison(folderA: dirA, folderB: dirB, options: options)
        } catch {
            throw fail("\(error)")
        }
        if bench { return try runBench(comparison) }
        let hosts = [comparison.rulesA, comparison.rulesB].map { ($0 as? RuleSet)?.host }
        if coverage { for host in hosts { host?.startLineRecording() } }
        let properties = PropertyComparison(a: comparison.rulesA, b: comparison.rulesB, seed: seed)
        if let property {
            do {
                try properties.load(file: property)
            } catch {
                throw fail("--property \(property): \(error)")
            }
        }
        do {
            try Output.check(html, option: "--html")
            try FileIdentity.refuseCollisions(
                outputs: [("--out \(out)", out)] + (html.map { [("--html \($0)", $0)] } ?? []),
                inputs: [("rule set A \(dirA)", dirA), ("rule set B \(dirB)", dirB)]
                    + [dirA, dirB].flatMap { dir in
                        ((try? RuleFolder(dir)).map { $0.luaFiles() + [$0.root.appendingPathComponent("extends")] } ?? []).map {
                            ("the rule file \($0.path)", $0.path)
                        }
                    })
        } catch {
            throw fail("\(error)")
        }
        // Everything that can be checked is checked before anything runs: the personas, --out.
        var mix = PersonaMix.standard
        var metricsSource: TeamMetrics.Source?
        if populationUsers > 0 || !persona.isEmpty {
            do {
                if !persona.isEmpty { mix = try PersonaMix(persona) }
                if populationUsers > 0 {
                    metricsSource = try PopulationComparison.metricsSource(metrics, folderA: dirA, folderB: dirB)
                    _ = try metricsSource.map(TeamMetrics.init)
                    try PopulationComparison.check(
                        folder: dirA, users: populationUsers, days: days, seed: seed, mix: mix,
                        personaFolders: PersonaLoader.folders(personaDir, rules: dirA, dirB))
                }
            } catch {
                throw fail("\(error)")
            }
        }
        let output = try prepareOut()
        // On stderr when it is a terminal and the run lasts more than a second: each stage in turn.
        let bar = ProgressBar(label: "histories")
        defer { bar.finish() }
        var result = try comparison.run { bar.update($1, of: $2, label: $0) }
        if !noExplain {
            for i in result.findings.indices { result.findings[i].explain(folders: (dirA, dirB), expectations: options.expectations) }
        }
        if economyRuns > 0 {
            result.economy = try EconomyComparison(
                a: comparison.rulesA, b: comparison.rulesB, runs: economyRuns, days: economyDays,
                seed: seed, ignoring: options.ignoredEconomy
            ).run { bar.update($0, of: $1, label: "Earned histories") }
        }
        if habitRuns > 0 {
            result.habits = try HabitComparison(
                a: comparison.rulesA, b: comparison.rulesB, runs: habitRuns, days: habitDays,
                seed: seed, ignoring: options.ignoredHabits
            ).run { bar.update($0, of: $1, label: "habit histories") }
        }
        if property != nil || !lineExpectations.isEmpty {
            let expectations = lineExpectations.map { e in
                e.app == .earned ? (e, runs: economyRuns, days: economyDays) : (e, runs: habitRuns, days: habitDays)
            }
            result.properties = properties.run(runs: propertyRuns, expectations: expectations, folders: noExplain ? nil : (dirA, dirB)) {
                name, done, all in
                bar.update(done, of: all, label: "histories of \(name)")
            }
        }
        if populationUsers > 0 {
            do {
                result.population = try PopulationComparison.run(
                    folderA: dirA, folderB: dirB, users: populationUsers, days: days,
                    seed: seed, mix: mix, personaFolders: PersonaLoader.folders(personaDir, rules: dirA, dirB), recordsLines: coverage,
                    replicas: populationReplicas, segments: segments, responses: !noResponses,
                    metrics: metricsSource
                ) { bar.update($1, of: $2, label: "users under \($0)") }
            } catch {
                bar.finish()
                throw fail("\(error)")
            }
        }
        bar.finish()
        do {
            try output.removeStaleFiles()
            for finding in result.findings {
                result.replayFiles[finding.kind] = try output.write(finding.script.text, to: finding.kind.fileName)
            }
            for finding in result.economy?.findings ?? [] {
                result.economyFiles[finding.field] = try output.write(
                    EconomyComparison.replayText(finding, nameA: dirA, nameB: dirB),
                    to: finding.fileName)
            }
            for checked in result.properties where !checked.holds {
                result.propertyFiles[checked.fileName] = try output.write(
                    PropertyComparison.replayText(checked, nameA: dirA, nameB: dirB, seed: seed), to: checked.fileName)
            }
            for finding in result.habits?.findings ?? [] {
                result.habitFiles[finding.field] = try output.write(
                    HabitComparison.replayText(finding, nameA: dirA, nameB: dirB), to: finding.fileName)
            }
            output.removeIfUnused()
        } catch {
            throw fail("--out \(out): cannot write the replay files: \(error.localizedDescription)")
        }
        var measured: [(set: String, folder: String, coverage: RuleCoverage)] = []
        if coverage {
            for (index, (set, folder)) in [("A", dirA), ("B", dirB)].enumerated() {
                var counts = hosts[index]?.takeLineCounts() ?? LineCounts()
                counts.add(index == 0 ? comparison.workerLineCounts.a : comparison.workerLineCounts.b)
                if let population = result.population?.lineCounts { counts.add(index == 0 ? population.a : population.b) }
                measured.append((set, folder, try RuleCoverage.measure(folder, counts: counts)))
            }
        }
        var object = result.json
        if coverage, case .object(var members) = object {
            members.append(("coverage", .object(measured.map { ($0.set.lowercased(), $0.coverage.json) })))
            object = .object(members)
        }
        if let html, let page = result.html(json: object) {
            do { try Output.write(page, to: html) } catch { throw fail("\(error)") }
        }
        if json {
            Terminal.print(object.description)
        } else {
            Terminal.line(result.text)
            for (set, folder, coverage) in measured {
                Terminal.line("")
                for line in CoverageReport.lines(
                    coverage, title: "coverage of \(set) (\(folder)) by the comparison:", notRunBy: "the comparison")
                {
                    Terminal.line(line)
                }
            }
        }
        if result.exitCode != 0 { throw ExitCode(result.exitCode) }
    }

    /// Prints the message; the status 2 (invalid input) to throw.
    private func fail(_ message: String) -> ExitCode {
        Terminal.error(message)
        return ExitCode(2)
    }

    /// The folder of the replay files, checked (and created when missing) before anything runs;
    /// exits with status 2 when it cannot be a folder to write in.
    private func prepareOut() throws -> CompareOutput {
        do {
            return try CompareOutput(out, isDefault: out == Self.defaultOut)
        } catch {
            throw fail("\(error)")
        }
    }

    private func parseOptions() throws -> (CompareOptions, [LineExpectation]) {
        var ignored = Set<HistoryField>()
        var ignoredEconomy = Set<EconomyField>()
        var ignoredHabits = Set<HabitField>()
        for name in ignore.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }) {
            guard !name.isEmpty else {
                throw ValidationError(
                    "--ignore: an empty kind in \(ignore.map(ExpectationError.quoted).joined(separator: " ")); give the kinds' names")
            }
            let field = HistoryField(rawValue: name), economic = EconomyField(rawValue: name), habit = HabitField(rawValue: name)
            guard field != nil || economic != nil || habit != nil else {
                var kinds = HistoryField.allCases.map(\.rawValue)
                kinds += EconomyField.allCases.map(\.rawValue).filter { !kinds.contains($0) }
                kinds += HabitField.allCases.map(\.rawValue).filter { !kinds.contains($0) }
                let shown = VisibleText.escaping(SourceFile.excerpt(name, limit: 100))
                throw ValidationError("--ignore \(shown): not a field (one of \(kinds.joined(separator: ", ")))")
            }
            if let field { ignored.insert(field) }
            if let economic { ignoredEconomy.insert(economic) }
            if let habit { ignoredHabits.insert(habit) }
        }
        var expectations: [Expectation] = []
        var lineExpectations: [LineExpectation] = []
        for text in expect {
            if let line = try LineExpectation(text) {
                let runs = line.app == .earned ? (economyRuns, "--economy-runs") : (habitRuns, "--habit-runs")
                guard runs.0 > 0 else {
                    throw ValidationError(
                        "--expect \(ExpectationError.quoted(text)): fields of \(line.app.rawValue) are checked on its histories; "
                            + "\(runs.1) is 0")
                }
                lineExpectations.append(line)
            } else {
                expectations.append(try Expectation(text))
            }
        }
        let options = CompareOptions(
            runs: runs, days: days, seed: seed, ignored: ignored, expectations: expectations, ignoredEconomy: ignoredEconomy,
            ignoredHabits: ignoredHabits, jobs: jobs ?? min(ProcessInfo.processInfo.activeProcessorCount, Simulation.maxJobs))
        return (options, lineExpectations)
    }

    private func runBench(_ comparison: RuleComparison) throws {
        let bar = ProgressBar(label: "histories")
        let measured = try CompareBench.measure(comparison) { n, done, runs in
            bar.update(done, of: runs, label: "histories, walk \(n) of 5")
        }
        bar.finish()
        let walked = measured.walked
        let met = measured.meetsTarget ? "met" : "not met"
        if json {
            Terminal.print(
                JSONValue.object([
                    ("a", .string(dirA)), ("b", .string(dirB)), ("histories", .int(walked.histories)),
                    ("days", .int(days)), ("threads", .int(measured.jobs)), ("seconds", .double(measured.seconds)),
                    ("histories_per_second", .double(measured.historiesPerSecond.rounded())),
                    ("cpu_seconds", .double(measured.cpuSeconds)),
                    ("histories_per_cpu_second", .double(measured.historiesPerCPUSecond.rounded())),
                    ("target_histories_per_second", .double(CompareBench.target)), ("target_met", .bool(measured.meetsTarget)),
                    ("histories_with_differences", .int(walked.differing)),
                    ("histories_stopped_at_rule_error", .object([("a", .int(walked.stoppedA)), ("b", .int(walked.stoppedB))])),
                ]).description)
        } else {
            let threads = measured.jobs == 1 ? "1 thread" : "\(measured.jobs) threads"
            Terminal.print(
                "compare \(dirA) \(dirB): \(walked.histories) histories of \(days) days in \(String(format: "%.3f", measured.seconds)) s (fastest of 3, \(threads)) = \(WholeNumber.text(measured.historiesPerSecond.rounded(.towardZero))) histories/s; \(walked.differing) differ"
            )
            if measured.jobs > 1 {
                Terminal.print(
                    "  CPU (every thread): \(String(format: "%.3f", measured.cpuSeconds)) s = \(WholeNumber.text(measured.historiesPerCPUSecond.rounded(.towardZero))) histories per CPU-second"
                )
            }
            Terminal.print("  target (issue 20): at least \(WholeNumber.text(CompareBench.target)) histories/s: \(met)")
        }
        // The exit status of the walk, as without --bench (the economy and the habits are not run): with
        // expectations, 1 when one broke; else 1 when a field differs.
        let broken = walked.counts.keys.contains { if case .expectation = $0 { true } else { false } }
        let differs = walked.counts.keys.contains { if case .field = $0 { true } else { false } }
        if expect.isEmpty ? differs : broken { throw ExitCode(1) }
    }
}

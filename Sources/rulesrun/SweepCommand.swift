import ArgumentParser
import Foundation
import LuaHost
import RulesEngine
import RulesModel
import RulesSim

struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Simulate variants of a rule set, knobs set to other values, on the same cohort, and report metrics per variant.",
        discussion: """
            Each --set names a knob as `replay --explain` does (the file, then the path in the table it returns) \
            and the values it takes: a list (5,10,15), an integer range (1..5, 0..60/15) or one value. Every \
            combination is a variant (the first knob changing slowest), or with --one-at-a-time each knob is \
            moved alone, the others at the base's values (a sensitivity table ends the report). Each variant is \
            the rule folder with those values written into its tables, validated as any rule set: a value that \
            breaks a constraint is reported and skipped. Every variant runs the same users (--users, --persona, \
            --seed), in memory, so the row of the base's values equals `rulesrun simulate` with the same options; \
            the rows are the same whatever --jobs is. Each metric has its 95% interval and its paired difference \
            to the base (Δ base, * when its interval leaves out 0): over --replicas cohorts (the same for every \
            variant), or with one cohort over 20 groups of its users (batch means, as compare does). With \
            --segments, each variant's metrics follow for each persona's users alone (the metrics of the apps \
            they use), each with its interval and its Δ base over the same users.

            Rows are printed as each variant finishes (--out: the file is rewritten with the rows so far). \
            Ctrl-C stops after the variant running, with the rows finished; a second Ctrl-C stops at once.

            Examples:
              rulesrun sweep 30d --set 'escalation.recover_after[3]=1..5'
              rulesrun sweep 30d --set 'escalation.recover_after[3]=1..4' --set 'escalation.max_reminders_per_day=2,3' --chart sweep.svg
              rulesrun sweep 30d --one-at-a-time --set 'escalation.recover_after[2]=1..4' --set 'pricing.rollover_cap=5,10,20' --metric 'YES rate'
            """
    )

    @Argument(help: "How long to simulate each variant: 30d, 12w, 6m, 1y (as simulate).") var duration: String
    @OptionGroup var ruleFolder: RuleFolderOption
    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "A knob and its values (repeatable).",
            discussion: "e.g. 'escalation.recover_after[3]=1..5', 'pricing.credit_costs[1].credits=5,10,15'.",
            valueName: "knob=values"))
    var knobs: [String] = []
    @Option(
        help: ArgumentHelp(
            "A metric to report, by its label as `compare` prints it or its id "
                + "(repeatable; default: \(Sweep.defaultMetrics().map(\.label).joined(separator: ", ")), then the team's metrics of metrics.lua)."))
    var metric: [String] = []
    @Flag(help: "Move each knob alone around the base's values instead of running every combination.") var oneAtATime = false
    @Option(
        parsing: .unconditional, help: "Users in the cohort, 1 to \(Simulation.maxUsers). (default: 1000)",
        transform: WholeNumber.parser(1...Simulation.maxUsers)) var users = 1000
    @Option(help: ArgumentHelp("A persona name or .lua file, with an optional weight (as simulate).", valueName: "name[:weight]"))
    var persona: [String] = []
    @Option(help: PersonaDirs.help) var personaDir: [String] = []
    @Option(parsing: .unconditional, help: "The seed of every random draw, 0 to \(UInt64.max). (default: 1)", transform: WholeNumber.seed)
    var seed: UInt64 = 1
    @Option(help: "The first simulated day (YYYY-MM-DD).") var start = SimulationConfig.defaultStart.rawValue
    @Option(
        parsing: .unconditional, help: "Worker threads for each variant's users, 1 to \(Simulation.maxJobs). (default: every core)",
        transform: WholeNumber.parser(1...Simulation.maxJobs)) var jobs: Int?
    @OptionGroup var reportOptions: ReportOptions
    @Option(
        parsing: .unconditional,
        help:
            "Cohorts each variant runs (the same for every variant), 1 to \(ReplicaReport.maxReplicas): means with 95% intervals over them. (default: 1)",
        transform: WholeNumber.parser(1...ReplicaReport.maxReplicas)) var replicas = 1
    @Option(help: "Write an SVG chart to this file: each metric against the first knob (a line per value of a second).") var chart: String?
    @Option(help: "Write an HTML page to this file: the response curves (each metric against the first knob) and the report's JSON.")
    var html: String?
    @Flag(
        help:
            "With --out FILE --format json: keep the variants FILE already holds whose inputs are unchanged (rule and persona files, values, cohort) and run the others."
    ) var resume = false

    @Flag(
        help: "Personas without their responses to the rules' decisions: their fixed probabilities alone (docs/simulate.md#responses)."
    )
    var noResponses = false
    @Option(
        help:
            "The team's own metrics: a Lua file of metrics (docs/simulate.md#team-metrics). Default: the rule folder's metrics.lua, when it has one."
    )
    var metrics: String?

    @Flag(
        help:
            "Each variant's metrics for each persona's users alone too, with their 95% intervals and Δ base: in the table, CSV, JSON (each variant's \"segments\") and the HTML page."
    )
    var segments = false

    func validate() throws {
        try BundleRules.refuseRollout(ruleFolder.rules)
        try PersonaDirs.check(personaDir)
    }

    func run() throws {
        let knobs: [SweepKnob]
        let metrics: [Metric]
        let config: SimulationConfig
        do {
            knobs = try self.knobs.map { try SweepKnob($0) }
            config = try self.config()
            // The team's own metrics (the rule folder's metrics.lua) are reported too, and named like the others.
            let team = try SetupFailure.exiting(rules: ruleFolder.rules) {
                try config.metrics.map { try TeamMetrics($0).metrics } ?? []
            }
            metrics = try metric.isEmpty ? Sweep.defaultMetrics(team: team) : metric.map { try Sweep.metric(named: $0, team: team) }
        } catch let error as SweepError {
            throw ValidationError(error.message)
        }
        try reportOptions.check()
        try Output.check(chart, option: "--chart")
        try Output.check(html, option: "--html")
        var outputs = [reportOptions.output]
        if let chart { outputs.append(("--chart \(chart)", chart)) }
        if let html { outputs.append(("--html \(html)", html)) }
        let inputs = ((try? RuleFolder(ruleFolder.rules))?.luaFiles() ?? []).map { ("the rule file \($0.path)", $0.path) }
        try FileIdentity.refuseCollisions(outputs: outputs, inputs: inputs)
        let sweep: Sweep
        do {
            sweep = try SetupFailure.exiting(rules: ruleFolder.rules) {
                try Sweep(
                    config: config, knobs: knobs, mode: oneAtATime ? .oneAtATime : .combinations, metrics: metrics, replicas: replicas,
                    segments: segments)
            }
        } catch let error as SweepError {
            throw ValidationError(error.message)
        }
        if chart != nil || html != nil, let why = SweepChart.unsupported(sweep.plan) {
            throw ValidationError(why.replacingOccurrences(of: "--chart", with: chart != nil ? "--chart" : "--html"))
        }
        StopSignal.install()
        let format = reportOptions.format
        let toFile = reportOptions.out.map { $0 != "-" } ?? false
        // Standard output gets the rows as they finish (JSON: whole, at the end).
        let streams = !toFile && format != .json
        var done: [Int: SweepRow] = [:]
        if resume {
            guard let out = reportOptions.out, out != "-", format == .json else {
                throw ValidationError("--resume reads back the report of an earlier run: give --out FILE and --format json")
            }
            if FileManager.default.fileExists(atPath: WorkingFolder.resolve(out)) {
                let text: String
                do { text = String(decoding: try SourceFile.read(out, maxBytes: 64 << 20), as: UTF8.self) } catch {
                    throw ValidationError("--resume: cannot read \(out): \(error)")
                }
                let found: (rows: [Int: SweepRow], stale: Int)
                do { found = try SweepReport.finishedRows(in: text, file: out, of: sweep) } catch { throw ValidationError(error.message) }
                done = found.rows
                Terminal.error(
                    "sweep: resuming: \(done.count) of \(sweep.plan.variants.count) variants kept from \(out)"
                        + (found.stale > 0 ? "; \(found.stale) run again (their rule or persona files changed)" : ""))
            }
        }
        var report = SweepReport(sweep: sweep, rows: [])
        let console = Console.current
        if streams { console.output(VisibleText.escaping(report.header(format))) }
        let bar = ProgressBar(label: "variants")
        var stopped: String?
        do {
            _ = try sweep.run(reusing: done) { row, done in
                bar.finish()
                report.rows.append(row)
                if streams {
                    console.output(VisibleText.escaping(report.line(row, format)))
                } else if toFile {
                    try Output.write(report.rendered(format), to: reportOptions.out)
                }
                if case .refused(let problems) = row.outcome, toFile || format != .table {
                    let values = zip(sweep.plan.knobs, row.variant.values).map { "\($0.path) = \(SweepKnob.label($1))" }
                    Terminal.error("sweep: the variant \(values.joined(separator: ", ")) is not valid, not run:")
                    for problem in problems { Terminal.error("  \(problem)") }
                }
                if let signal = StopSignal.received() {
                    stopped = signal
                    throw CancellationError()
                }
                bar.update(done, of: sweep.plan.variants.count)
            }
            bar.finish()
        } catch is CancellationError {
            bar.finish()
        } catch let error as InputFileError {
            bar.finish()
            Terminal.error("\(error)")
            throw ExitCode(2)
        }
        if streams {
            if format == .table, report.isComplete { console.output(VisibleText.escaping(report.sensitivity)) }
        } else if !toFile {
            try Output.write(report.rendered(format), to: nil)
        }
        if let chart { try Output.write(SweepChart(report).svg(), to: chart) }
        if let html { try Output.write(SweepChart(report).html(), to: html) }
        if let stopped {
            Terminal.error(
                "sweep: stopped by \(stopped) after \(report.rows.count) of \(sweep.plan.variants.count) variants"
                    + (toFile ? "; \(reportOptions.out!) holds their rows" : ""))
            throw ExitCode(130)
        }
    }

    func config() throws -> SimulationConfig {
        let mix: PersonaMix
        do { mix = persona.isEmpty ? .standard : try PersonaMix(persona) } catch { throw ValidationError(error.description) }
        do {
            guard let start = try? DayID(self.start) else {
                throw SimulationError("--start: expected a day YYYY-MM-DD, found \"\(self.start.prefix(40))\"")
            }
            let duration = try SimulationDuration(self.duration)
            try duration.check(from: start)
            var config = SimulationConfig(
                duration: duration, start: start, users: users, seed: seed, mix: mix,
                personaFolders: PersonaLoader.folders(personaDir, rules: ruleFolder.rules),
                rules: ruleFolder.rules, jobs: jobs ?? min(ProcessInfo.processInfo.activeProcessorCount, Simulation.maxJobs),
                database: nil)
            config.responses = !noResponses
            config.metrics = try SetupFailure.exiting(rules: ruleFolder.rules) {
                try metrics.map(TeamMetrics.source(file:)) ?? TeamMetrics.source(rules: ruleFolder.rules)
            }
            config.findsMetrics = false
            return config
        } catch let error as SimulationError {
            throw ValidationError(error.message)
        }
    }
}

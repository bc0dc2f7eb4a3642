import ArgumentParser
import Foundation
import LuaHost
import RulesBench
import RulesEngine
import RulesModel
import RulesSim
import RulesStore

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run a cohort of synthetic users through the rules for a number of days and report what happened.",
        discussion: """
            Each user follows a persona (a Lua file in examples/personas/, validated like a rule file) on a \
            virtual clock: its commitments, check-ins, shields, habit completions and MIGA gateway events, and \
            (for a persona with an `earned` section) Earned's focus sessions, habits and urges to open a \
            distracting app with its choices at the unlock gate, go through the same Engine.apply as \
            `rulesrun replay` and the apps, and everything is written to an \
            SQLite database (replaced each run unless --append). The same rules, personas and seed give the \
            same report, byte for byte, and the same database content, whatever --jobs is.

            The report has one line per day (users on each tier, reminders sent, YES/NO/MISSED, shields, \
            current-streak percentiles, habit completion rate, exits to focus; with Earned, credits spent, \
            unlocks and the median end-of-day balance) and a summary (Earned: credits earned, spent and \
            forfeited, balance percentiles, unlocks by method, denials by reason, quests by outcome, \
            emergency uses, focus sessions, habit awards suspended). `--format json` \
            keeps the raw counts, so that `rulesrun merge` can add up the reports of shards (--shard i/n).

            Examples:
              rulesrun simulate 30d
              rulesrun simulate 12w --users 5000 --persona steady:70,struggling:30 --seed 7 --chart cohort.svg
              rulesrun simulate 30d --rules examples/graduated-recovery --persona ghost --format csv --out ghost.csv
              rulesrun simulate 30d --users 10000 --shard 2/4 --format json --out part2.json
              rulesrun simulate 30d --users 200 --html report.html
              rulesrun simulate 90d --format jsonl --out days.jsonl
              rulesrun simulate 30d --users 10000 --bench
              rulesrun simulate 30d --users 500 --replicas 10
              rulesrun simulate 30d --users 200 --replicas 5 --html replicas.html
            """
    )

    @Argument(
        help:
            "How long to simulate: 30d, 12w, 6m (calendar months), 1y; at most \(SimulationDuration.maxDays) days (\(SimulationDuration.maxDays)d, \(SimulationDuration.maxDays / 7)w, 120m, 10y)."
    )
    var duration: String
    @OptionGroup var ruleFolder: RuleFolderOption
    @Option(
        parsing: .unconditional, help: "Users in the cohort, 1 to \(Simulation.maxUsers). (default: 1000)",
        transform: WholeNumber.parser(1...Simulation.maxUsers)) var users = 1000
    @Option(
        help: ArgumentHelp(
            "A persona name or .lua file, with an optional weight (repeatable, or a list).",
            discussion:
                "e.g. --persona steady, --persona steady:70,struggling:30, --persona my.lua:2. Default: steady:40,struggling:20,lapsing-then-recovering:20,weekend-skipper:20.",
            valueName: "name[:weight]"))
    var persona: [String] = []
    @Option(help: PersonaDirs.help) var personaDir: [String] = []
    @Option(parsing: .unconditional, help: "The seed of every random draw, 0 to \(UInt64.max). (default: 1)", transform: WholeNumber.seed)
    var seed: UInt64 = 1
    @Option(
        help:
            "The first simulated day (YYYY-MM-DD, \(SimulationDuration.firstSimulatedDay.rawValue) to \(SimulationDuration.lastSimulatedDay.rawValue); the run must end by then too)."
    ) var start = SimulationConfig.defaultStart.rawValue
    @Option(
        help:
            "The SQLite database to write (replaced each run unless --append, if rulesrun wrote it; default \(SimulationConfig.defaultDatabase))."
    ) var db: String?
    @Flag(help: "Add the users to the database instead of replacing it (new users, with the ids after its last user).") var append = false
    @Flag(help: "Keep the database in memory only (nothing written).") var noDb = false
    @Option(
        parsing: .unconditional,
        help: "Worker threads, 1 to \(Simulation.maxJobs), at most one per user and four per core. (default: every core)",
        transform: WholeNumber.parser(1...Simulation.maxJobs)) var jobs: Int?
    @Option(
        help: ArgumentHelp(
            "Run one slice of the users, i/n (1-based), or auto; combine the JSON reports with `rulesrun merge`.",
            discussion:
                "auto reads the slice from a Slurm job array, a Kubernetes Indexed Job or GNU parallel (docs/scale-out.md).",
            valueName: "i/n|auto")) var shard: String?
    @Option(
        parsing: .unconditional,
        help: "With --shard auto: the number of shards (Kubernetes, GNU parallel; or set \(ShardEnvironment.countVariable)).",
        transform: WholeNumber.parser(1...Simulation.maxUsers)) var shardCount: Int?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Write the database as N files, one per slice of the users, each by its own writer: NAME-i-of-N.sqlite beside --db.",
            discussion: "`rulesrun merge --db NAME.sqlite NAME-*-of-N.sqlite` makes the database of the whole run (docs/merge.md)."),
        transform: WholeNumber.parser(1...Simulation.maxJobs)) var dbShards: Int?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Independent cohorts, 1 to \(ReplicaReport.maxReplicas): each metric as the mean with its 95% interval. (default: 1)",
            discussion:
                "Replica 1 has --seed; the others' seeds derive from it (docs/simulate.md#replicas). Nothing is written to a database."),
        transform: WholeNumber.parser(1...ReplicaReport.maxReplicas)) var replicas = 1
    @OptionGroup var reportOptions: ReportOptions
    @Option(
        help:
            "Write an SVG chart to this file, over the run's dates: tier shares, check-ins, reminders per user, current-streak p50 and p90, and (with Earned users) credits, balances, unlocks, denials and quests."
    )
    var chart: String?
    @Option(
        help:
            "Write a self-contained HTML report to this file: the run's parameters, Pressure's and Earned's charts over the run's dates, and the JSON report embedded (with --replicas: means with their interval bands)."
    )
    var html: String?
    @Flag(help: "Use the native Swift reference rules (NativeReference) instead of the Lua rule set.") var reference = false
    @Flag(
        help:
            "Measure throughput instead of printing the report: Lua and --reference, with and without the database (a temporary file unless --db)."
    )
    var bench = false
    @Option(parsing: .unconditional, help: .hidden, transform: WholeNumber.parser(1...Simulation.maxUsers)) var chunkSize = 100
    @Flag(
        help:
            "After the report, which lines and branches of the rule files the cohort ran, and the branches no simulated user reached (in the JSON report: under \"coverage\")."
    )
    var coverage = false
    @Flag(
        help:
            "After the summary, each metric per persona with its 95% interval (from groups of users; with --replicas, over the replicas): in the table, the JSON report (under \"segments\") and the HTML page."
    )
    var segments = false
    @Flag(
        help:
            "Personas without their responses to the rules' decisions (price, fatigue, leaving): their fixed probabilities alone, as if each had responses = false (docs/simulate.md#responses)."
    )
    var noResponses = false
    @Option(
        help:
            "Write the cohort's events to this file as the apps would log them: the replay format (JSON lines), user after user, each user's in time order; rulesrun replay of it reproduces every user's end state."
    )
    var events: String?
    @Option(
        help: ArgumentHelp(
            "Write each simulated user's persona to this CSV file (user,persona): analyze --segments FILE breaks a simulated log down by persona.",
            valueName: "file.csv"))
    var userTable: String?
    @Option(
        help:
            "The team's own metrics: a Lua file of metrics (docs/simulate.md#team-metrics). Default: the rule folder's metrics.lua, when it has one."
    )
    var metrics: String?
    @Option(
        help: ArgumentHelp(
            "With a rollout (a bundle with an experiment): each user's first N days under the control's rules, "
                + "then its arm's rules and its exposure.",
            discussion:
                "A pre-period for analyze's CUPED; fewer days than the run. The arms' figures count from the exposure "
                + "(docs/simulate.md#a-whole-rollout).",
            valueName: "Nd"))
    var exposeAfter: String?

    func validate() throws {
        guard let day = try? DayID(start), (SimulationDuration.firstSimulatedDay...SimulationDuration.lastSimulatedDay).contains(day) else {
            throw ValidationError(
                "--start: expected a day YYYY-MM-DD between \(SimulationDuration.firstSimulatedDay.rawValue) and "
                    + "\(SimulationDuration.lastSimulatedDay.rawValue) (the days a simulation can simulate), found \"\(start.prefix(40))\"")
        }
        if bench, shard != nil { throw ValidationError("--bench runs the whole cohort; leave out --shard") }
        if shardCount != nil, shard != "auto" {
            throw ValidationError("--shard-count gives the number of shards to --shard auto; with --shard i/n, leave it out")
        }
        if let dbShards {
            for (given, option) in [
                (shard != nil, "--shard"), (append, "--append"), (noDb, "--no-db"), (replicas > 1, "--replicas"),
                (coverage, "--coverage"), (segments, "--segments"), (events != nil, "--events"), (userTable != nil, "--user-table"),
            ] where given {
                throw ValidationError(
                    "--db-shards \(dbShards) writes the whole cohort's database in \(dbShards) files; leave out \(option)")
            }
        }
        if replicas > 1 {
            // A replica report is not a shard's: it does not merge.
            for (given, option) in [(shard != nil, "--shard"), (bench, "--bench"), (coverage, "--coverage")]
            where given {
                throw ValidationError("--replicas \(replicas) reports the mean of whole cohorts; leave out \(option)")
            }
            for (given, option) in [(db != nil, "--db"), (append, "--append")] where given {
                throw ValidationError(
                    "--replicas \(replicas) keeps every replica's database in memory (none is written); leave out \(option)")
            }
        }
        if exposeAfter != nil, ruleFolder.rollout == nil {
            throw ValidationError(
                "--expose-after exposes the users of a rollout after a pre-period: "
                    + "give --rules a bundle with an experiment and no arm named")
        }
        if let rollout = ruleFolder.rollout {
            // A rollout runs several rule sets on one cohort: what measures or replicates one refuses it.
            for (given, option) in [(coverage, "--coverage"), (bench, "--bench"), (replicas > 1, "--replicas")] where given {
                throw ValidationError(
                    "\(rollout.bundle) runs experiment \(rollout.experiment.name) as a whole (each user under its arm); leave out \(option), or name one arm (\(rollout.bundle)#\(rollout.armNames[0]))"
                )
            }
        }
        if coverage, bench || reference {
            throw ValidationError(
                "--coverage measures the Lua rule files a simulation runs; leave out \(bench ? "--bench" : "--reference")")
        }
        if bench, reportOptions.out != nil || chart != nil || html != nil || reportOptions.format != .table {
            throw ValidationError("--bench prints its measures, not a report; leave out --out, --chart, --html and --format")
        }
        if bench, noDb {
            throw ValidationError(
                "--bench measures runs with and without the database; leave out --no-db (without --db, the runs with the database write a temporary file, removed afterwards)"
            )
        }
        if bench, append { throw ValidationError("--bench replaces the database at each run; leave out --append") }
        if noDb, db != nil { throw ValidationError("--no-db keeps the database in memory; leave out --db") }
        if noDb, append { throw ValidationError("--append adds to a database; leave out --no-db") }
        if reference, ruleFolder.rules != RuleFolderOption.defaultFolder {
            throw ValidationError("--reference runs the native reference rules, not a rule folder; leave out --rules")
        }
        try PersonaDirs.check(personaDir)
    }

    func config() throws -> SimulationConfig {
        let mix: PersonaMix
        do { mix = persona.isEmpty ? .standard : try PersonaMix(persona) } catch { throw ValidationError(error.description) }
        do {
            let duration = try SimulationDuration(self.duration), start = try DayID(self.start)
            try duration.check(from: start)
            var config = SimulationConfig(
                duration: duration, start: start, users: users, seed: seed, mix: mix,
                personaFolders: PersonaLoader.folders(personaDir, rules: ruleFolder.rules),
                rules: ruleFolder.rules, reference: reference,
                jobs: jobs ?? min(ProcessInfo.processInfo.activeProcessorCount, Simulation.maxJobs),
                shard: try shard.map {
                    $0 == "auto"
                        ? try ShardEnvironment.shard(environment: Console.current.environment, count: shardCount) : try Shard($0)
                } ?? .whole,
                // --bench without --db writes a temporary file (SimulationConfig.benchDatabase()).
                database: noDb || replicas > 1 || (bench && db == nil) ? nil : db ?? SimulationConfig.defaultDatabase, append: append,
                chunkSize: chunkSize,
                recordsLines: coverage)
            config.responses = !noResponses
            config.recordsEvents = events != nil
            config.recordsUserTable = userTable != nil
            if BundleRules.shown(ruleFolder.rules) != ruleFolder.rules { config.rulesName = BundleRules.shown(ruleFolder.rules) }
            config.rollout = ruleFolder.rollout
            if let exposeAfter {
                let days: Int
                do { days = try SimulationDuration(exposeAfter).days(from: start) } catch {
                    throw SimulationError("--expose-after: \(error.message)")
                }
                guard days < config.days else {
                    throw SimulationError(
                        "--expose-after \(exposeAfter) is \(days) days, the run \(config.days): "
                            + "expected fewer days than the run, so that each user has a day under its arm")
                }
                config.exposeAfter = days
            }
            if let metrics { config.metrics = try SetupFailure.exiting(rules: ruleFolder.rules) { try TeamMetrics.source(file: metrics) } }
            return config
        } catch let error as SimulationError {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        let config = try config()
        // Two outputs that are one file are named as such, however the paths are spelled.
        try refuseCollisions(config)
        try reportOptions.check()
        try Output.check(chart, option: "--chart")
        try Output.check(html, option: "--html")
        try Output.check(events, option: "--events")
        try Output.check(userTable, option: "--user-table")
        if events != nil || userTable != nil, replicas > 1 || bench {
            throw ValidationError(
                "\(events != nil ? "--events writes one run's events" : "--user-table writes one run's users"); "
                    + "leave out \(bench ? "--bench" : "--replicas")")
        }
        if Console.current.handlesSignals { InterruptCleanup.installSignalHandlers(command: "simulate") }
        // --db-shards N: how many files the bench's sharded run writes (2 by default).
        if bench { return try SimulationBench(config: config, shards: dbShards ?? 2).run() }
        let (simulation, shards): (Simulation?, DatabaseShards?) = try SetupFailure.exiting(rules: ruleFolder.rules) {
            if let dbShards { return (nil, try DatabaseShards(config: config, count: dbShards)) }
            return (try Simulation(config: config), nil)
        }
        // The user table (`--user-table`): its header, then each chunk's rows in user order.
        var table = "user,persona\n"
        let addRows: ((String) throws -> Void)? = userTable == nil ? nil : { table += $0 }
        let bar = ProgressBar(label: "users")
        var report: SimulationReport
        do {
            if let shards {
                report = try shards.run { done, total in bar.update(done, of: total) }
                bar.finish()
                if let database = config.database {
                    let files = DatabaseShards.paths(of: database, count: shards.count)
                    Terminal.error(
                        "simulate: wrote \(files.count) databases, \(files[0]) … \(files[files.count - 1]); `rulesrun merge \(ShellQuote.option("--db", database)) \(files.map(ShellQuote.path).joined(separator: " "))` makes the whole run's"
                    )
                }
            } else if let simulation, replicas > 1 {
                var replicated = try ReplicaReport.run(simulation, replicas: replicas) { done, total in bar.update(done, of: total) }
                bar.finish()
                if segments { replicated.breakdown = SegmentBreakdown(replicas: replicated.reports) }
                try Output.write(replicated.rendered(reportOptions.format), to: reportOptions.out)
                if let chart { try Output.write(replicated.svg(), to: chart) }
                if let html { try Output.write(replicated.html(), to: html) }
                for report in replicated.reports {
                    try FailureNotice.report(
                        report, command: "rulesrun simulate", rules: reference ? nil : ruleFolder.rules, personaFolders: personaDir)
                }
                return
            } else if segments || config.rollout != nil {
                // The same report, its users also counted in groups for the intervals of the
                // segments and of a rollout's arms.
                let groups = min(Sweep.maxGroups, simulation!.config.shard.users(of: config.users).count)
                let progress = { (done: Int, total: Int) in bar.update(done, of: total) }
                let run =
                    try events.map { events in
                        try Output.stream(to: events) { write in
                            try withoutActuallyEscaping(write) { write in
                                try simulation!.run(seed: config.seed, groups: groups, progress: progress, events: write, userTable: addRows)
                            }
                        }
                    } ?? simulation!.run(seed: config.seed, groups: groups, progress: progress, userTable: addRows)
                bar.finish()
                report = run.report
                let byGroup = groups == 1 ? [] : run.groups
                if segments { report.breakdown = SegmentBreakdown(run.report, groups: byGroup) }
                if let rollout = config.rollout {
                    report.armBreakdown = SegmentBreakdown(run.report, groups: byGroup, arms: rollout, preperiodDays: config.exposeAfter)
                }
            } else if let events {
                report = try Output.stream(to: events) { write in
                    try withoutActuallyEscaping(write) { write in
                        try simulation!.run(progress: { done, total in bar.update(done, of: total) }, events: write, userTable: addRows)
                    }
                }
                bar.finish()
            } else {
                report = try simulation!.run(progress: { done, total in bar.update(done, of: total) }, userTable: addRows)
                bar.finish()
            }
        } catch let error as InputFileError {
            // A persona's or a team metric's day() failed or returned something out of range: invalid input.
            bar.finish()
            Terminal.error("\(error)")
            throw ExitCode(2)
        } catch {
            bar.finish()
            Terminal.error("simulate: \(error)")
            throw ExitCode(1)
        }
        var measured: RuleCoverage?
        if let counts = report.lineCounts {
            measured = try RuleCoverage.measure(ruleFolder.rules, counts: counts)
            if reportOptions.format == .json { report.coverage = measured?.json }
        }
        try reportOptions.write(report)
        if let measured, reportOptions.format != .json {
            let text = CoverageReport.lines(
                measured, title: "coverage of the rule files by the simulated users:", notRunBy: "any simulated user")
            if reportOptions.out == nil {
                Terminal.line("")
                for line in text { Terminal.line(line) }
            } else {
                for line in text { Terminal.error(line) }
            }
        }
        if let chart { try Output.write(SVGChart(report).svg(), to: chart) }
        if let userTable { try Output.write(table, to: userTable) }
        if let html {
            var plain = report
            plain.coverage = nil
            try Output.write(plain.html(), to: html)
        }
        try FailureNotice.report(
            report, command: "rulesrun simulate", rules: reference ? nil : ruleFolder.rules, personaFolders: personaDir)
    }

    /// Refuses outputs (the report, the chart, the database and the files beside it) that are one
    /// file, or that are an input (a persona file, a file of the rule set).
    private func refuseCollisions(_ config: SimulationConfig) throws {
        var outputs = [reportOptions.output]
        if let chart { outputs.append(("--chart \(chart)", chart)) }
        if let html { outputs.append(("--html \(html)", html)) }
        if let events { outputs.append(("--events \(events)", events)) }
        if let userTable { outputs.append(("--user-table \(userTable)", userTable)) }
        for database in config.database.map({ database in dbShards.map { DatabaseShards.paths(of: database, count: $0) } ?? [database] })
            ?? []
        {
            for file in Store.files(of: database) + Store.files(of: database + ".rulesrun-new") + [database + ".rulesrun-lock"] {
                outputs.append(("--db \(database)", file))
            }
        }
        var inputs: [(name: String, path: String)] = config.mix.entries.compactMap { entry in
            (try? PersonaLoader.resolve(entry.reference, folders: config.personaFolders)).map { ("the persona file \($0)", $0) }
        }
        if !reference, let folder = try? RuleFolder(ruleFolder.rules) {
            inputs += (folder.luaFiles() + [folder.root.appendingPathComponent("extends")]).map { ("the rule file \($0.path)", $0.path) }
        }
        try FileIdentity.refuseCollisions(outputs: outputs, inputs: inputs)
    }
}

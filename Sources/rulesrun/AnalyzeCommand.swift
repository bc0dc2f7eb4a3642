import ArgumentParser
import Foundation
import LuaHost
import RulesSim
import RulesStore
#if canImport(Glibc)
    import Glibc
#endif

struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Measure what a rollout did, from the apps' event log: each metric per arm, against the control.",
        discussion: """
            EVENTS is the apps' log in replay's format (one JSON event per line, docs/replay.md) with the `exposure` \
            events the engine writes (or `simulate --rules FILE.bundle --events FILE` wrote), or a database of rulesrun \
            (an SQLite file, known by its header: what simulate --db, replay --db or an app's Engine(store:) wrote), \
            read as the log it implies, a user at a time (`rulesrun events DB` prints that log; docs/analyze.md, "A \
            database as the log", says which events it gives back). --rules names the bundle that was live (its \
            experiment, with no arm named). Each user exposed to one arm is replayed through that \
            arm's rules, and each metric is computed per user as `simulate` computes it, from the day of its exposure \
            (its local days; the days before it are the pre-period CUPED uses).

            The report starts with the sample-ratio check (chi-square of the users per arm against the allocation; a \
            mismatch at p < 0.001 marks every result untrustworthy), then per metric each arm's value and each other \
            arm against the control: the difference and the relative lift with their intervals (Welch's for a \
            per-user mean, the delta method for a ratio such as a rate per user-day; CUPED when users have days before \
            their exposure; --sequential for anytime-valid intervals, for teams that look every day). Retention on day N \
            leaves out the users the log does not follow for N days. docs/analyze.md explains each method.

            What the log cannot give (lines that are not events, events out of order, users with no exposure, \
            exposed to an unknown arm or to two arms, or under another revision of the bundle) is counted, with the \
            first lines as examples; those events or users are left out, never in silence. Exit status: 0; 1 when the \
            sample ratio mismatches; 2 when the input cannot be read.

            --html FILE also writes the report as one self-contained HTML page (no network needed): the sample-ratio \
            verdict first (a red banner when it mismatches), the users per arm against the allocation and what the log \
            could not give, then per arm after the control a forest plot of every metric's relative lift with its \
            interval, all on one scale (with --prediction, the predicted lift drawn under each observed one), then the \
            table, and the JSON report embedded for tools. docs/analyze.md, "The HTML report", explains it.

            Examples:
              rulesrun simulate 28d --rules rollout.bundle --events log.jsonl --no-db
              rulesrun analyze log.jsonl --rules rollout.bundle
              rulesrun analyze log.jsonl --rules rollout.bundle --days 14 --format json --out analysis.json
              rulesrun analyze log.jsonl --rules rollout.bundle --prediction sim.json --html analysis.html
            """
    )

    @Argument(help: "The event log (JSON lines), - for standard input, or a database of rulesrun (SQLite).") var events: String
    @Option(help: "The bundle that was live: a bundle file with an experiment (no #ARM).") var rules: String
    @Option(help: "Count at most this many days after each user's exposure (default: every whole day the log has).") var days: Int?
    @Option(help: "\(ReportFormat.listed) (jsonl: as json). (default: table)", transform: ReportFormat.parser)
    var format: ReportFormat = .table
    @Option(help: "Write the report to this file instead of standard output.") var out: String?
    @Option(help: ArgumentHelp("Also write the report as a self-contained HTML page to this file.", valueName: "file"))
    var html: String?
    @Option(help: "The intervals' confidence level, between 0.5 and 0.999.") var level = 0.95
    @Flag(help: "Leave out CUPED (the adjustment by each user's days before its exposure).") var noCuped = false
    @Option(
        help: ArgumentHelp(
            "Anytime-valid intervals (confidence sequences), tuned for this many users in all (0: the users analysed).",
            valueName: "users"))
    var sequential: Int?
    @Option(
        help: ArgumentHelp(
            "What the simulation predicted: the JSON report of `compare A B --json` (B − A for the first arm after the control) or of `simulate --rules FILE.bundle --format json` (every arm); each predicted difference is printed beside the observed one.",
            valueName: "file"))
    var prediction: String?
    @Option(
        help: ArgumentHelp(
            "Analyse only shard i of n of the log's users (by a hash of the user's name); `rulesrun merge` adds the shards' JSON reports up.",
            valueName: "i/n"))
    var shard: String?
    @Option(
        help: ArgumentHelp(
            "The team's metrics file (as simulate's --metrics); by default the control arm's metrics.lua, if it has one.",
            valueName: "file"))
    var metrics: String?
    @Option(
        help: ArgumentHelp(
            "A CSV file of the users' segments: a header user,DIMENSION… and a row per user (simulate --user-table writes user,persona); every metric is also broken down by each dimension's values.",
            valueName: "file.csv"))
    var segments: String?
    @Option(help: "Worker threads (default: the cores).") var jobs: Int?
    @Option(help: "The seed of the rules' math.random for a simulated user (uN), as simulate's --seed.") var seed: UInt64 = 1

    func validate() throws {
        if let days, !(1...RolloutAnalysis.maxDays).contains(days) {
            throw ValidationError("--days: expected 1 to \(RolloutAnalysis.maxDays), found \(days)")
        }
        guard (0.5...0.999).contains(level) else { throw ValidationError("--level: expected 0.5 to 0.999, found \(level)") }
        if let sequential, sequential < 0 { throw ValidationError("--sequential: expected a number of users (0 or more), found \(sequential)") }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs: expected 1 to 256, found \(jobs)") }
    }

    func run() throws {
        let folder = try BundleRules.folder(rules, rollout: true)
        guard let rollout = BundleRules.rollout(of: folder) else {
            throw ValidationError(
                "--rules \(rules): expected a bundle with an experiment and no arm named (the rollout that was live); "
                    + "`rulesrun bundle inspect` shows a bundle's experiment")
        }
        try Output.check(out, option: "--out")
        try Output.check(html, option: "--html")
        try FileIdentity.refuseCollisions(
            outputs: [(out.map { "--out \($0)" } ?? "the report (standard output)", out ?? "-")]
                + (html.map { [("--html \($0)", $0)] } ?? []),
            inputs: [("the events \(events)", events), ("the bundle \(rules)", rules)]
                + (prediction.map { [("the prediction \($0)", $0)] } ?? []) + (segments.map { [("the segments \($0)", $0)] } ?? []))
        var userSegments: UserSegments?
        if let segments {
            do {
                let bytes = try SourceFile.read(WorkingFolder.resolve(segments), maxBytes: UserSegments.maxBytes)
                userSegments = try UserSegments(csv: bytes, name: segments)
            } catch let error as InputFileError {
                Terminal.error("\(error)")
                throw ExitCode(2)
            } catch {
                Terminal.error("\(segments): \(error)")
                throw ExitCode(2)
            }
        }
        let teamMetrics: TeamMetrics.Source?
        do {
            teamMetrics = try metrics.map { try TeamMetrics.source(file: $0) } ?? TeamMetrics.source(rules: rollout.folders[0])
            if let teamMetrics { _ = try TeamMetrics(teamMetrics) }
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(2)
        }
        var predicted: Prediction?
        if let prediction {
            do {
                let url = URL(fileURLWithPath: WorkingFolder.resolve(prediction))
                let size = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
                guard size <= Prediction.maxBytes else { throw AnalysisError("\(prediction): larger than \(Prediction.maxBytes) bytes") }
                predicted = try Prediction(json: try Data(contentsOf: url), source: prediction)
            } catch let error as AnalysisError {
                throw ValidationError("--prediction \(error.message)")
            } catch {
                throw ValidationError("--prediction \(prediction): cannot read it: \(error.localizedDescription)")
            }
        }
        let part: Shard
        do { part = try shard.map { try Shard($0) } ?? .whole } catch { throw ValidationError("--shard: \(error)") }
        if part != .whole, format != .json {
            throw ValidationError("--shard \(part) writes a shard's report for `rulesrun merge`: add --format json")
        }
        let jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let analysis: RolloutAnalysis
        if events != "-", DatabaseLog.isDatabase(WorkingFolder.resolve(events)) {
            analysis = try Self.analyze(
                database: events, rollout: rollout, days: days, seed: seed, jobs: jobs, shard: part, metrics: teamMetrics,
                segments: userSegments)
        } else {
            var log = try Self.read(events, shard: part)
            do {
                analysis = try RolloutAnalysis(
                    input: &log, rollout: rollout, days: days, seed: seed, jobs: jobs, shard: part, metrics: teamMetrics,
                    segments: userSegments)
            } catch {
                Terminal.error("analyze: \(error)")
                throw ExitCode(2)
            }
        }
        guard analysis.users.reduce(0, +) > 0 || part != .whole else {
            Terminal.error(
                "\(events): no user of the log is in an arm of experiment \(rollout.experiment.name) revision \(rollout.revision): "
                    + analysis.problems.lines.joined(separator: "; "))
            throw ExitCode(2)
        }
        let tuning = sequential.map { Double($0 == 0 ? analysis.users.reduce(0, +) : $0) }
        var report = AnalysisReport(analysis, source: events, level: level, cuped: !noCuped, sequential: tuning)
        report.prediction = predicted
        let text: String
        switch format {
        case .table: text = report.text()
        case .json, .jsonl: text = report.json()
        case .csv: text = report.csv()
        }
        try Output.write(text, to: out)
        if let html { try Output.write(report.html(), to: html) }
        if report.untrustworthy, part == .whole {
            Terminal.error("analyze: sample ratio mismatch (p = \(AnalysisReport.pValue(report.srm!.pValue))): the results are untrustworthy")
            throw ExitCode(1)
        }
    }

    /// Reads the log of JSON lines at `events` (`-`: standard input), the users of `shard`;
    /// `emptyShard`: a shard may hold none of the log's users (`fit --shard`).
    static func read(_ events: String, shard: Shard, emptyShard: Bool = false) throws -> EventLog {
        let fd = try ReplayCommand.openEvents(events)
        defer { if fd != STDIN_FILENO { close(fd) } }
        var log = EventLog()
        log.shard = shard
        var reader = LineReader(fd: fd)
        var number = 0
        do {
            while let line = try reader.next() {
                number += 1
                try log.add(line: line, number: number)
            }
        } catch let error as LineReader.ReadError {
            Terminal.error("\(events): \(error)")
            throw ExitCode(2)
        } catch let error as AnalysisError {
            Terminal.error("\(events): \(error.message)")
            throw ExitCode(2)
        }
        guard !log.users.isEmpty || (emptyShard && log.logEvents > 0) else {
            let problems = log.problems.isEmpty ? "" : ": " + log.problems.lines.joined(separator: "; ")
            Terminal.error("\(events): no events" + problems)
            throw ExitCode(2)
        }
        return log
    }

    /// Analyses the database at `path` as the log it implies (``DatabaseLog``), a user at a time.
    static func analyze(
        database path: String, rollout: Rollout, days: Int?, seed: UInt64, jobs: Int, shard: Shard, metrics: TeamMetrics.Source?,
        segments: UserSegments?
    ) throws -> RolloutAnalysis {
        let log: DatabaseLog
        do { log = try DatabaseLog(path: path, file: WorkingFolder.resolve(path)) } catch {
            Terminal.error("\(error)")
            throw ExitCode(2)
        }
        defer { log.close() }
        log.shard = shard
        guard log.userCount > 0 else {
            Terminal.error("\(path): no users (an empty database of rulesrun)")
            throw ExitCode(2)
        }
        var input = log
        do {
            return try RolloutAnalysis(
                input: &input, rollout: rollout, days: days, seed: seed, jobs: jobs, shard: shard, metrics: metrics, segments: segments)
        } catch let error as StoreError {
            Terminal.error("\(error.message)")
            throw ExitCode(2)
        } catch {
            Terminal.error("analyze: \(error)")
            throw ExitCode(2)
        }
    }
}

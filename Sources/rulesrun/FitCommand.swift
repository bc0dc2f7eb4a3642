import ArgumentParser
import Foundation
import LuaHost
import RulesEngine
import RulesModel
import RulesSim

struct FitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit",
        abstract:
            "Estimate a persona's responses from the apps' event log: leaving, habits and streaks, Pressure's commitments and check-ins, the unlock gate and prices, Earned's habits.",
        discussion: """
            EVENTS is the apps' log in replay's format (docs/replay.md), or a database of rulesrun read as the log it \
            implies (as analyze reads one: docs/analyze.md); --rules the rule set that was live (a folder or a \
            bundle; a bundle with an experiment replays each user under the arm of its exposure, and leaves out, counted, \
            the users it cannot give an arm, as analyze does). Each user is replayed through its rules, which gives each \
            choice the state it was made in: each day, what the leaving response reads (unlocks denied, reminders, \
            engagement, the tier at the day's end) and whether the user left at its end; each due habit task, its streak \
            and freezes at the day's start and the completions made; each opening of Earned's unlock gate, its options, \
            prices and the balance held, and the kind chosen (the persona's earned.gate weights and price response); \
            each Pressure day, its schedule, tier and reminders, whether the user committed, and when it checked in \
            with what (commit, answer, reminder_response by tier, the fatigue response, reminder_yes_share); each \
            Earned habit-day, the balance as it began and whether the habit was completed (the habits' rates, the \
            earning response). \
            The parameters are estimated by maximum likelihood, \
            with 95% intervals; a parameter the log cannot inform (no user ever had an unlock denied, say) is reported as \
            not identified and keeps the persona's value. docs/fit.md explains the models.

            --persona names the persona whose values are the priors (default: the response's defaults); --out writes that \
            persona with the fitted values, a file --persona of simulate, sweep and compare takes. --segments fits the \
            users as latent segments (each its own base chances and share; auto: the number by BIC), one persona file \
            each. --check users:P holds P% of the users out of the fit and compares them, metric by metric, with as many \
            users simulated from the fitted personas. --predict RULES predicts every metric under other rules for a new \
            cohort of the fitted users, from draws of the fitted parameters, with 95% intervals, and under the log's rules \
            (the baseline) with the difference. --html writes the report as one self-contained page (the check's \
            forest plot and per-day curves, held-out against simulated). A larger log is fitted by user shards: \
            --shard i/n --format json replays the users of shard i of n (by a hash of the name) and writes their \
            statistics; --merge fits the log from every shard's, byte for byte the unsharded fit.

            Examples:
              rulesrun simulate 30d --users 2000 --no-db --events log.jsonl
              rulesrun fit log.jsonl
              rulesrun fit log.jsonl --rules my-rules --persona steady --out fitted-steady.lua
              rulesrun fit log.jsonl --persona steady --segments auto --check users:20 --out fitted.lua --html fit.html
              rulesrun fit log.jsonl --persona steady --predict rules-b --draws 40
              rulesrun fit log.jsonl --persona steady --shard 1/2 --format json --out fit1.json   (and 2/2)
              rulesrun fit log.jsonl --persona steady --merge fit1.json fit2.json --out fitted.lua
            """
    )

    @Argument(help: "The event log (JSON lines), a database of rulesrun, or - for standard input.") var events: String
    @Option(help: "The rules that were live: a rule folder or a bundle (default: the default rules).") var rules = "@default"
    @Option(help: "The persona whose values are the priors, and that --out writes with the fitted values (a name or a file).")
    var persona: String?
    @Option(help: PersonaDirs.help) var personaDir: [String] = []
    @Option(help: ArgumentHelp("Write the persona with the fitted values to this file (needs --persona).", valueName: "file.lua"))
    var out: String?
    @Option(help: "table or json. (default: table)", transform: ReportFormat.parser) var format: ReportFormat = .table
    @Option(help: "Worker threads (default: the cores).") var jobs: Int?
    @Option(
        help: ArgumentHelp(
            "How many latent segments the users are: a number, auto (1 to 4, the least BIC) or auto:N.",
            valueName: "n|auto"))
    var segments = "1"
    @Option(
        help: ArgumentHelp(
            "users:P: hold out P% of the users (1 to 50) from the fit, and compare them with as many simulated from the fitted"
                + " personas (needs --persona); days:D: hold out the log's last D days, and compare each choice on them with the fit's"
                + " prediction. Both: repeat the option, or users:P,days:D.",
            valueName: "users:P|days:D"))
    var check: [String] = []
    @Option(
        help: ArgumentHelp(
            "Predict every metric under these rules (a rule folder or a bundle) for a new cohort of the fitted users"
                + " (needs --persona).",
            valueName: "rules"))
    var predict: String?
    @Option(
        help: ArgumentHelp(
            "With --predict: the days predicted, 1 to \(FitPrediction.maxDays) (default: the log's days).", valueName: "d"))
    var predictDays: Int?
    @Option(
        help: ArgumentHelp(
            "With --predict: the users of the cohort, 2 to \(Simulation.maxUsers) (default: as many as were fitted).",
            valueName: "n"))
    var predictUsers: Int?
    @Option(
        help: ArgumentHelp(
            "With --predict: the draws of the fitted parameters, 2 to \(FitPrediction.maxDraws)."
                + " (default: \(FitPrediction.defaultDraws))",
            valueName: "r"))
    var draws: Int?
    @Flag(
        inversion: .prefixedNo,
        help: "With --predict: also predict under the log's rules (--rules), with the same draws and seeds, and the difference.")
    var baseline = true
    @Option(help: "The seed of the rules' math.random for a simulated user (uN), as simulate's --seed; and of --predict's draws.")
    var seed: UInt64 = 1
    @Option(
        help: ArgumentHelp(
            "Hold a parameter at the persona's value rather than estimate it, named as response.parameter"
                + " (leaving.denied, habits.rate[read], answers.per_reminder; repeat the option).",
            valueName: "response.parameter"))
    var fix: [String] = []
    @Option(
        help: ArgumentHelp(
            "Also write the report as one self-contained HTML page (with --check: the metrics' differences and per-day curves).",
            valueName: "file.html"))
    var html: String?
    @Option(
        help: ArgumentHelp(
            "Replay only shard i of n of the log's users (by a hash of the user's name) and write their statistics"
                + " (--format json; to --out if given) for fit --merge.",
            valueName: "i/n"))
    var shard: String?
    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Fit the log from its shards' statistics (fit --shard i/n --format json, every shard once), EVENTS naming the log"
                + " they were made from (not read again); the options are the shards'.",
            valueName: "shard.json"))
    var merge: [String] = []

    func validate() throws {
        if let shard {
            let part: Shard
            do { part = try Shard(shard) } catch { throw ValidationError("--shard: \(error.message)") }
            guard format == .json else {
                throw ValidationError("--shard \(part) writes the shard's statistics for fit --merge: add --format json")
            }
            for (option, given) in [("--merge", !merge.isEmpty), ("--predict", predict != nil), ("--html", html != nil)] where given {
                throw ValidationError("\(option) is for the whole log's fit: give it to fit --merge of the shards, not to --shard")
            }
        } else if out != nil, persona == nil {
            throw ValidationError("--out writes a persona with the fitted values: name it with --persona")
        }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs: expected 1 to 256, found \(jobs)") }
        guard format == .table || format == .json else { throw ValidationError("--format: expected table or json") }
        _ = try Self.segments(segments)
        if try Self.checks(check).users != nil, persona == nil {
            throw ValidationError("--check users:P simulates the fitted persona: name the persona fitted with --persona")
        }
        let predicting = [
            ("--predict-days", predictDays != nil), ("--predict-users", predictUsers != nil), ("--draws", draws != nil),
        ]
        for (option, given) in predicting where given && predict == nil {
            throw ValidationError("\(option) is for a prediction: name the rules predicted with --predict")
        }
        if predict != nil, persona == nil {
            throw ValidationError("--predict simulates the fitted persona: name the persona fitted with --persona")
        }
        if let draws, !(2...FitPrediction.maxDraws).contains(draws) {
            throw ValidationError("--draws: expected 2 to \(FitPrediction.maxDraws) draws, found \(draws)")
        }
        if let predictDays, !(1...FitPrediction.maxDays).contains(predictDays) {
            throw ValidationError("--predict-days: expected 1 to \(FitPrediction.maxDays) days, found \(predictDays)")
        }
        if let predictUsers, !(2...Simulation.maxUsers).contains(predictUsers) {
            throw ValidationError("--predict-users: expected 2 to \(Simulation.maxUsers) users, found \(predictUsers)")
        }
    }

    func run() throws {
        if let unknown = fix.first(where: { !PersonaFit.canFix($0) }) {
            let (names, forms) = PersonaFit.fixableNames
            throw ValidationError(
                "--fix \(unknown): no fit has a parameter named so; the parameters: \((names + forms).joined(separator: ", "))")
        }
        try PersonaDirs.check(personaDir)
        try Output.check(out, option: "--out")
        try Output.check(html, option: "--html")
        let jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let (replay, folder) = try Self.replay(rules, option: nil, jobs: jobs)
        let predicted = try predict.map { try Self.replay($0, option: "--predict", jobs: jobs).replay }
        var prior = PersonaFit.Prior()
        var base: (text: String, path: String)?
        if let persona {
            do {
                let path = try PersonaLoader.resolve(persona, folders: PersonaLoader.folders(personaDir, rules: folder))
                let loaded = try PersonaLoader.load(path: path, host: try LuaHost())
                prior = PersonaFit.Prior(loaded.spec)
                let bytes = try SourceFile.read(path, maxBytes: LuaLimits.default.maxSourceBytes)
                base = (String(decoding: bytes, as: UTF8.self), persona)
            } catch let error as InputFileError {
                Terminal.error("\(error)")
                throw ExitCode(2)
            }
        }
        try FileIdentity.refuseCollisions(
            outputs: (out.map { [("--out \($0)", $0)] } ?? []) + (html.map { [("--html \($0)", $0)] } ?? []),
            inputs: [("the events \(events)", events)] + merge.map { ("the shard \($0)", $0) })
        var fit: PersonaFit
        let (heldOut, laterDays) = try Self.checks(check)
        let header = self.header(replay: replay, persona: base?.text)
        do {
            let segments = try Self.segments(segments)
            let statistics: FitStatistics
            if !merge.isEmpty {
                let shards = try merge.map { path in
                    do throws(SimulationError) {
                        return try MergeCommand.read(
                            path, expected: "a shard of rulesrun fit --shard i/n --format json", maxBytes: AnalysisReport.maxJSONBytes)
                    } catch {
                        throw ValidationError("\(path): \(error.message)")
                    }
                }
                do throws(FitError) {
                    statistics = try FitStatistics.merge(shards, names: merge, header: header, prior: prior, laterDays: laterDays)
                } catch {
                    Terminal.error("fit --merge: \(error.message)")
                    throw ExitCode(2)
                }
            } else {
                let part = try shard.map { try Shard($0) } ?? .whole
                let read = try Self.statistics(
                    events, shard: part, replay: replay, prior: prior, seed: seed, heldOut: heldOut, laterDays: laterDays)
                statistics = read.statistics
                if shard != nil {
                    var members = header
                    members.insert(contentsOf: [("shard", .string(part.description)), ("log", .string(read.log))], at: 2)
                    try Output.write(statistics.json(header: members, perUser: segments != .fixed(1)), to: out)
                    return
                }
            }
            prior.fixed = Set(fix)
            fit = try PersonaFit(statistics, prior: prior, segments: segments, laterDays: laterDays)
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch {
            Terminal.error("fit: \(error)")
            throw ExitCode(2)
        }
        let fixable = (fit.responses + (fit.answers.map { [$0] } ?? [])).flatMap(\.fixable)
        if let unknown = fix.first(where: { !fixable.contains($0) }) {
            Terminal.error(
                "fit: --fix \(unknown): no parameter of this fit is named so; the parameters: \(fixable.joined(separator: ", "))")
            throw ExitCode(2)
        }
        for line in fit.problems.lines { Terminal.error("\(events): \(line)") }
        if let laterDays, laterDays >= fit.days {
            Terminal.error(
                "fit: --check days:\(laterDays): the log has \(fit.days) day(s); hold out fewer, so that the fit has days before them")
            throw ExitCode(2)
        }
        // The fitted personas: one, or one per segment, each loaded and checked as simulate would.
        let cohort = base.map { FittedCohort(text: $0.text, source: $0.path, log: events) }
        let texts = cohort?.personas(fit) ?? []
        for text in texts {
            do { _ = try PersonaLoader.load(name: "fitted", path: out ?? "fitted.lua", text: text, host: try LuaHost()) } catch {
                Terminal.error("fit: the fitted persona does not load: \(error)")
                throw ExitCode(1)
            }
        }
        if let heldOut, let cohort {
            do { fit.check = try Self.check(fit, heldOut: heldOut, cohort: cohort, replay: replay) } catch {
                Terminal.error("fit: the check on the held-out users: \(error)")
                throw ExitCode(2)
            }
        }
        if let predict, let predicted, let cohort {
            fit.prediction = try self.prediction(fit, cohort: cohort, rules: (predict, predicted), baseline: (rules, replay))
        }
        try Output.write(format == .json ? fit.json(log: events, rules: rules) : fit.text(log: events, rules: rules), to: nil)
        if let html { try Output.write(fit.html(log: events, rules: rules), to: html) }
        guard let out, base != nil else { return }
        // One file, or one per segment (`fitted.lua`: fitted-1.lua, fitted-2.lua, …).
        let files = fit.personaCount == 1 ? [out] : (1...fit.personaCount).map { Self.file(out, segment: $0) }
        try FileIdentity.refuseCollisions(outputs: files.map { ("--out \($0)", $0) }, inputs: [("the events \(events)", events)])
        for (file, text) in zip(files, texts) { try Output.write(text, to: file) }
        if files.count > 1 {
            Terminal.error("fit: wrote \(files.joined(separator: ", ")); simulate their users with --persona \(fit.mix(files))")
        }
    }

    /// The statistics of the users of `shard` of the log `events` (replay's JSON lines, or a database
    /// of rulesrun), with what tells the log from another (its end, its events or users).
    static func statistics(
        _ events: String, shard: Shard, replay: ArmReplay, prior: PersonaFit.Prior, seed: UInt64,
        heldOut: PredictiveCheck.HeldOut?, laterDays: Int?
    ) throws -> (statistics: FitStatistics, log: String) {
        var replay = replay
        replay.shard = shard
        if events != "-", DatabaseLog.isDatabase(WorkingFolder.resolve(events)) {
            var log: DatabaseLog
            do { log = try DatabaseLog(path: events, file: WorkingFolder.resolve(events)) } catch {
                Terminal.error("\(error)")
                throw ExitCode(2)
            }
            defer { log.close() }
            log.shard = shard
            let statistics = try FitStatistics(
                input: &log, replay: replay, prior: prior, seed: seed, heldOut: heldOut, laterDays: laterDays)
            return (statistics, "a database of \(log.userCount) users ending at \(log.end)")
        }
        var log = try AnalyzeCommand.read(events, shard: shard, emptyShard: shard != .whole)
        let statistics = try FitStatistics(input: &log, replay: replay, prior: prior, seed: seed, heldOut: heldOut, laterDays: laterDays)
        return (statistics, "a log of \(log.logEvents) events ending at \(log.end)")
    }

    /// What a shard's statistics begin with, and what `--merge` compares each shard's with: the
    /// log's name, the rules (named, and a digest of their files), the persona (named, and a digest
    /// of its file) and the options that change the statistics.
    func header(replay: ArmReplay, persona text: String?) -> [(String, JSONValue)] {
        var rulesDigest = FNV64()
        for (folder, snapshot) in replay.rules {
            for (name, contents) in snapshot?.sourceContents ?? (try? RuleSet.sourceContents(folder)) ?? [] {
                rulesDigest.add(name)
                rulesDigest.add(contents)
            }
            for knob in snapshot?.overrides ?? [] {
                rulesDigest.add(knob.path)
                rulesDigest.add("\(knob.value)")
            }
        }
        if let rollout = replay.rollout {
            rulesDigest.add("rollout \(rollout.experiment.name) \(rollout.experiment.salt) \(rollout.revision)")
            for arm in rollout.experiment.arms { rulesDigest.add("\(arm.name) \(arm.buckets)") }
        }
        let personaDigest = text.map { text in
            var digest = FNV64()
            digest.add(text)
            return JSONValue.string(digest.hex)
        }
        let (users, days) = (try? Self.checks(check)) ?? (nil, nil)
        let checked = (users.map { ["users:\($0.percent)"] } ?? []) + (days.map { ["days:\($0)"] } ?? [])
        return [
            ("report", .string(FitStatistics.report)), ("version", .int(FitStatistics.version)), ("events", .string(events)),
            ("rules", .string(rules)),
            ("rules_digest", .string(rulesDigest.hex)), ("persona", persona.map(JSONValue.string) ?? .null),
            ("persona_digest", personaDigest ?? .null), ("seed", .string("\(seed)")), ("segments", .string(segments)),
            ("check", .string(checked.joined(separator: ","))),
        ]
    }

    /// The replay of `rules` (a folder or a bundle; `option`: the option that names it, nil for
    /// `--rules`), each rule set validated (with its proofs) before the log is read, as replay and
    /// simulate do: the files proved are the files replayed.
    static func replay(_ rules: String, option: String?, jobs: Int) throws -> (replay: ArmReplay, folder: String) {
        let folder = try BundleRules.folder(rules, rollout: true)
        let rollout = BundleRules.rollout(of: folder)
        var arms: [(folder: String, snapshot: RuleSnapshot?)] = []
        for rules in rollout?.folders ?? [folder] {
            do { arms.append((rules, try RuleSet.load(rules).snapshot)) } catch let error as RuleSetError {
                Terminal.error("\(option.map { "\($0) " } ?? "")\(rules): the rule set is not valid:\n\(error)")
                throw ExitCode(2)
            }
        }
        return (ArmReplay(rules: arms, rollout: rollout, jobs: jobs), folder)
    }

    /// `--check`'s values (each `users:P`, `days:D` or both with a comma): the users held out, the later days held out.
    static func checks(_ values: [String]) throws -> (users: PredictiveCheck.HeldOut?, days: Int?) {
        var users: PredictiveCheck.HeldOut?, days: Int?
        for part in values.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }) {
            if part.hasPrefix("days:") {
                guard let d = Int(part.dropFirst(5)), (1...LaterDaysCheck.maxDays).contains(d) else {
                    throw ValidationError(
                        "--check: expected days:D, D the log's last days held out of the fit (1 to \(LaterDaysCheck.maxDays)), found \(part)"
                    )
                }
                days = d
            } else {
                users = try heldOut(part)
            }
        }
        return (users, days)
    }

    /// `--check users:P`: P % of the users held out (1 to 50).
    static func heldOut(_ text: String) throws -> PredictiveCheck.HeldOut {
        guard text.hasPrefix("users:"), let p = Int(text.dropFirst(6).replacingOccurrences(of: "%", with: "")), (1...50).contains(p) else {
            throw ValidationError(
                "--check: expected users:P, P the percent of the users held out of the fit (1 to 50), or days:D, found \(text)")
        }
        return PredictiveCheck.HeldOut(percent: p)
    }

    /// The held-out users against as many simulated from the fitted personas over the log's days.
    static func check(
        _ fit: PersonaFit, heldOut: PredictiveCheck.HeldOut, cohort: FittedCohort, replay: ArmReplay
    ) throws
        -> PredictiveCheck
    {
        let users = fit.heldOut.first?.n ?? 0
        guard users >= 2, let start = fit.firstDay, fit.days > 0 else {
            throw ValidationError("--check \(heldOut.percent)%: \(users) user(s) held out, at least 2 are needed; hold out more")
        }
        return try PredictiveCheck(
            heldOut: heldOut, observed: fit.heldOut, observedDays: fit.heldOutDays,
            observedStreaks: fit.heldOutStreaks, observedUnlockHours: fit.heldOutUnlockHours, observedUsers: users,
            metrics: PersonaFit.checked,
            fit: fit, cohort: cohort, replay: replay, start: start, days: fit.days, seed: 1)
    }

    /// `--predict`: every metric under `rules` (and the log's, `baseline`) for a new cohort from
    /// the day after the log's last, from draws of the fitted parameters.
    func prediction(
        _ fit: PersonaFit, cohort: FittedCohort, rules: (name: String, replay: ArmReplay),
        baseline: (name: String, replay: ArmReplay)
    ) throws -> FitPrediction {
        let identified = (fit.segments.isEmpty ? fit.responses : fit.segments.flatMap(\.responses))
            .contains { $0.parameters.contains(where: \.identified) }
        guard fit.users >= 2, let first = fit.firstDay, fit.days > 0, let start = first.adding(days: fit.days), identified else {
            Terminal.error(
                "fit: --predict \(rules.name): the log gave no fit to draw from (\(fit.users) user(s) fitted"
                    + (identified ? "" : ", no parameter identified") + "); it needs at least 2 users with a whole day"
                    + " and a parameter the log informs")
            throw ExitCode(2)
        }
        do {
            return try FitPrediction(
                fit: fit, cohort: cohort, rules: rules, baseline: self.baseline ? baseline : nil,
                users: predictUsers ?? fit.users, start: start, days: predictDays ?? min(fit.days, FitPrediction.maxDays),
                draws: draws ?? FitPrediction.defaultDraws, seed: seed, metrics: PersonaFit.checked)
        } catch {
            Terminal.error("fit: the prediction under \(rules.name): \(error)")
            throw ExitCode(2)
        }
    }

    /// The persona file of segment `segment` (from 1) for `--out file`: `file` with `-segment` before its extension.
    static func file(_ out: String, segment: Int) -> String {
        let url = URL(fileURLWithPath: out)
        let ext = url.pathExtension
        let stem = ext.isEmpty ? out : String(out.dropLast(ext.count + 1))
        return "\(stem)-\(segment)" + (ext.isEmpty ? "" : ".\(ext)")
    }

    /// `--segments`: a number, `auto` (1 to 4, the least BIC) or `auto:N` (1 to N).
    static func segments(_ text: String) throws -> PersonaFit.Segments {
        let most = PersonaFit.Segments.most
        if text == "auto" { return .best(upTo: 4) }
        if text.hasPrefix("auto:"), let n = Int(text.dropFirst(5)), (1...most).contains(n) { return .best(upTo: n) }
        if let n = Int(text), (1...most).contains(n) { return .fixed(n) }
        throw ValidationError("--segments: expected 1 to \(most), auto (1 to 4, the least BIC) or auto:N, found \(text)")
    }
}

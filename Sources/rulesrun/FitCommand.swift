import ArgumentParser
import Foundation
import LuaHost
import RulesEngine
import RulesSim

struct FitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit",
        abstract: "Estimate the personas' responses from the apps' event log (so far: leaving, the unlock gate's choice).",
        discussion: """
            EVENTS is the apps' log in replay's format (docs/replay.md), or a database of rulesrun read as the log it \
            implies (as analyze reads one: docs/analyze.md); --rules the rule set that was live (a folder or a \
            bundle; a bundle with an experiment replays each user under the arm of its exposure, the control for a user \
            without one). Each user is replayed through its rules, which gives each of its days what the leaving response \
            reads (unlocks denied, reminders, engagement, the tier at the day's end) and whether the user left at its end \
            (its last active day, before the log's last). The response's parameters are estimated by maximum likelihood, \
            with 95% intervals; a parameter the log cannot inform (no user ever had an unlock denied, say) is reported as \
            not identified and keeps the persona's value. The Earned unlock gate's openings give the persona's gate \
            weights (earned.gate) and its price response (responses.price), fitted the same way on the openings whose \
            choice shows the kind the user wanted. docs/fit.md explains the models.

            --persona names the persona whose values are the priors (default: the response's defaults); --out writes that \
            persona with the fitted values, a file --persona of simulate, sweep and compare takes.

            Examples:
              rulesrun simulate 30d --users 2000 --no-db --events log.jsonl
              rulesrun fit log.jsonl
              rulesrun fit log.jsonl --rules my-rules --persona steady --out fitted-steady.lua
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

    func validate() throws {
        if out != nil, persona == nil { throw ValidationError("--out writes a persona with the fitted values: name it with --persona") }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs: expected 1 to 256, found \(jobs)") }
        guard format == .table || format == .json else { throw ValidationError("--format: expected table or json") }
    }

    func run() throws {
        try PersonaDirs.check(personaDir)
        try Output.check(out, option: "--out")
        let folder = try BundleRules.folder(rules, rollout: true)
        let rollout = BundleRules.rollout(of: folder)
        // Each rule set validated (with its proofs) before the log is read, as replay and simulate do.
        for rules in rollout?.folders ?? [folder] {
            do { _ = try RuleSet.load(rules) } catch let error as RuleSetError {
                Terminal.error("\(rules): the rule set is not valid:\n\(error)")
                throw ExitCode(2)
            }
        }
        var prior = Responses.Leaving()
        var gatePrior = (gate: EarnedPersona.Gate(), price: Responses().price)
        var base: (text: String, path: String)?
        if let persona {
            do {
                let path = try PersonaLoader.resolve(persona, folders: PersonaLoader.folders(personaDir, rules: folder))
                let loaded = try PersonaLoader.load(path: path, host: try LuaHost())
                prior = loaded.spec.responses.leaving ?? prior
                gatePrior = (loaded.spec.earned?.gate ?? gatePrior.gate, loaded.spec.responses.price)
                let bytes = try SourceFile.read(path, maxBytes: LuaLimits.default.maxSourceBytes)
                base = (String(decoding: bytes, as: UTF8.self), persona)
            } catch let error as InputFileError {
                Terminal.error("\(error)")
                throw ExitCode(2)
            }
        }
        try FileIdentity.refuseCollisions(
            outputs: out.map { [("--out \($0)", $0)] } ?? [], inputs: [("the events \(events)", events)])
        let fit: LeavingFit
        let problems: EventLog.Problems
        let jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        do {
            if events != "-", DatabaseLog.isDatabase(WorkingFolder.resolve(events)) {
                var log: DatabaseLog
                do { log = try DatabaseLog(path: events, file: WorkingFolder.resolve(events)) } catch {
                    Terminal.error("\(error)")
                    throw ExitCode(2)
                }
                defer { log.close() }
                fit = try LeavingFit(input: &log, folder: folder, rollout: rollout, prior: prior, jobs: jobs, gate: gatePrior.gate)
                problems = log.problems
            } else {
                var log = try AnalyzeCommand.read(events, shard: .whole)
                fit = try LeavingFit(input: &log, folder: folder, rollout: rollout, prior: prior, jobs: jobs, gate: gatePrior.gate)
                problems = log.problems
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            Terminal.error("fit: \(error)")
            throw ExitCode(2)
        }
        for line in problems.lines { Terminal.error("\(events): \(line)") }
        // The unlock gate's choice, when the log has openings of the gate (docs/fit.md).
        var gate: GateFit?
        if fit.gateChoices.openings > 0 {
            do { gate = try GateFit(fit.gateChoices, gate: gatePrior.gate, price: gatePrior.price) } catch {
                Terminal.error("fit: \(error)")
                throw ExitCode(2)
            }
        }
        let report =
            format == .json ? fit.json(log: events, rules: rules, gate: gate) : fit.text(log: events, rules: rules) + (gate?.text() ?? "")
        try Output.write(report, to: nil)
        if let out, let base {
            let text = fit.persona(from: base.text, source: base.path, log: events, gate: gate)
            // The file written is a persona simulate takes: loaded and checked first.
            do { _ = try PersonaLoader.load(name: "fitted", path: out, text: text, host: try LuaHost()) } catch {
                Terminal.error("fit: the fitted persona does not load: \(error)")
                throw ExitCode(1)
            }
            try Output.write(text, to: out)
        }
    }
}

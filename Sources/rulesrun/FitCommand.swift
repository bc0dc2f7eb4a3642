import ArgumentParser
import Foundation
import LuaHost
import RulesEngine
import RulesSim

struct FitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit",
        abstract: "Estimate a persona's responses from the apps' event log: leaving, the habit tasks' rates and the streak response.",
        discussion: """
            EVENTS is the apps' log in replay's format (docs/replay.md), or a database of rulesrun read as the log it \
            implies (as analyze reads one: docs/analyze.md); --rules the rule set that was live (a folder or a \
            bundle; a bundle with an experiment replays each user under the arm of its exposure, and leaves out, counted, \
            the users it cannot give an arm, as analyze does). Each user is replayed through its rules, which gives each \
            choice the state it was made in: each day, what the leaving response reads (unlocks denied, reminders, \
            engagement, the tier at the day's end) and whether the user left at its end; each due habit task, its streak \
            and freezes at the day's start and the completions made. The parameters are estimated by maximum likelihood, \
            with 95% intervals; a parameter the log cannot inform (no user ever had an unlock denied, say) is reported as \
            not identified and keeps the persona's value. docs/fit.md explains the models.

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
    @Option(
        help: ArgumentHelp(
            "How many latent segments the users are: a number, auto (1 to 4, the least BIC) or auto:N. (default: 1)",
            valueName: "n|auto"))
    var segments = "1"
    @Option(help: "The seed of the rules' math.random for a simulated user (uN), as simulate's --seed.") var seed: UInt64 = 1

    func validate() throws {
        if out != nil, persona == nil { throw ValidationError("--out writes a persona with the fitted values: name it with --persona") }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs: expected 1 to 256, found \(jobs)") }
        guard format == .table || format == .json else { throw ValidationError("--format: expected table or json") }
        _ = try Self.segments(segments)
    }

    func run() throws {
        try PersonaDirs.check(personaDir)
        try Output.check(out, option: "--out")
        let folder = try BundleRules.folder(rules, rollout: true)
        let rollout = BundleRules.rollout(of: folder)
        // Each rule set validated (with its proofs) before the log is read, as replay and simulate
        // do; the files proved are the files replayed.
        var arms: [(folder: String, snapshot: RuleSnapshot?)] = []
        for rules in rollout?.folders ?? [folder] {
            do { arms.append((rules, try RuleSet.load(rules).snapshot)) } catch let error as RuleSetError {
                Terminal.error("\(rules): the rule set is not valid:\n\(error)")
                throw ExitCode(2)
            }
        }
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
            outputs: out.map { [("--out \($0)", $0)] } ?? [], inputs: [("the events \(events)", events)])
        let fit: PersonaFit
        let replay = ArmReplay(rules: arms, rollout: rollout, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        do {
            if events != "-", DatabaseLog.isDatabase(WorkingFolder.resolve(events)) {
                var log: DatabaseLog
                do { log = try DatabaseLog(path: events, file: WorkingFolder.resolve(events)) } catch {
                    Terminal.error("\(error)")
                    throw ExitCode(2)
                }
                defer { log.close() }
                fit = try PersonaFit(input: &log, replay: replay, prior: prior, seed: seed, segments: try Self.segments(segments))
            } else {
                var log = try AnalyzeCommand.read(events, shard: .whole)
                fit = try PersonaFit(input: &log, replay: replay, prior: prior, seed: seed, segments: try Self.segments(segments))
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            Terminal.error("fit: \(error)")
            throw ExitCode(2)
        }
        for line in fit.problems.lines { Terminal.error("\(events): \(line)") }
        try Output.write(format == .json ? fit.json(log: events, rules: rules) : fit.text(log: events, rules: rules), to: nil)
        guard let out, let base else { return }
        // One file, or one per segment (`fitted.lua`: fitted-1.lua, fitted-2.lua, …).
        let files = fit.personaCount == 1 ? [out] : (1...fit.personaCount).map { Self.file(out, segment: $0) }
        try FileIdentity.refuseCollisions(outputs: files.map { ("--out \($0)", $0) }, inputs: [("the events \(events)", events)])
        var texts: [String] = []
        for s in files.indices {
            let text = fit.persona(from: base.text, source: base.path, log: events, segment: s)
            // The file written is a persona simulate takes: loaded and checked first.
            do { _ = try PersonaLoader.load(name: "fitted", path: files[s], text: text, host: try LuaHost()) } catch {
                Terminal.error("fit: the fitted persona does not load: \(error)")
                throw ExitCode(1)
            }
            texts.append(text)
        }
        for (file, text) in zip(files, texts) { try Output.write(text, to: file) }
        if files.count > 1 {
            let mix = zip(files, fit.segments).map { "\($0):\(String(format: "%.1f", 100 * $1.share))" }.joined(separator: ",")
            Terminal.error("fit: wrote \(files.joined(separator: ", ")); simulate their users with --persona \(mix)")
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

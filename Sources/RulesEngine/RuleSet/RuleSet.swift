import BuiltInDefaults
import Foundation
import LuaHost

/// A validated rule set: the typed contents of a rule folder, bound to the Lua state that runs its
/// functions. Like its `LuaHost`, it belongs to one thread at a time; load one per worker.
package final class RuleSet {
    /// Lua instructions that validating one rule set may use in all (a few seconds at most).
    package static let validationInstructionBudget: Int64 = 300_000_000

    /// The days of the longest run (`simulate 10y`): counters and streaks that grow by one a day are
    /// proved up to this many.
    package static let longestRun = 3_660

    /// The states of a state machine explored from a new user's before the proof stops and says
    /// where: escalation's (tier, misses, successes), which grow one way a day (a few thousand for
    /// the longest run), and Pressure's (current, longest) streaks, which grow as a triangle.
    static let maxReachableStates = (transition: 12_000, pressureStreaks: 2_000)

    /// A rule file may keep at most this fraction of the memory limit once loaded (1/8: 8 MiB of
    /// the default 64).
    package static let memoryShareOfAFile = 8

    /// The folder of a rule folder that holds its tests (`rulesrun test`).
    package static let testFolder = "tests"

    /// The folder of a rule folder that holds its own personas (searched by `simulate` for a
    /// persona given by name), not rules.
    package static let personaFolder = "personas"

    /// The file of a rule folder that holds the team's own metrics (read by `simulate`, `compare`
    /// and `sweep`, not by the engine).
    package static let metricsFileName = "metrics.lua"

    /// The file `name` of rule folder `path`: its own, or the nearest one along its `extends`
    /// chain, with the name messages give it; nil when none has it.
    package static func locate(_ name: String, in path: String) -> (url: URL, chunkName: String)? {
        (try? RuleSources(path))?.locate(name)
    }

    /// The files of a rule set.
    package static let fileNames = ["escalation.lua", "streaks.lua", "pricing.lua", "quests.lua", "modes.lua"]

    package let folder: RuleFolder
    package let host: LuaHost
    package var argumentReuse: ArgumentReuse { host.limits.argumentReuse }
    package let escalation: EscalationPolicy
    package let streaks: StreakPolicy
    package let pricing: PricingPolicy
    package let quests: QuestPolicy
    package let modes: ModePolicy

    init(
        folder: RuleFolder, host: LuaHost, escalation: EscalationPolicy, streaks: StreakPolicy, pricing: PricingPolicy,
        quests: QuestPolicy, modes: ModePolicy
    ) {
        self.folder = folder
        self.host = host
        self.escalation = escalation
        self.streaks = streaks
        self.pricing = pricing
        self.quests = quests
        self.modes = modes
    }

    /// The files, as messages name them (`rules/streaks.lua` when inherited through `extends`).
    package private(set) var fileLabels: [String] = RuleSet.fileNames

    /// How many inputs each rule function was evaluated on during validation, by name.
    package private(set) var provedInputs: [(function: String, inputs: Int)] = []

    /// What validation did not prove, one line per function whose domain is not finite or too large
    /// to try in full (`earned.bonus: not proved for streaks above 3660`).
    package private(set) var unproved: [String] = []

    /// What each file returned, by module name (`escalation`, `streaks`, …): `rulesrun test` gives
    /// them to test files as globals.
    package private(set) var modules: [(name: String, value: LuaValue)] = []

    /// The bytes of the files the set was loaded from: loads it again without reading or proving them.
    package private(set) var snapshot = RuleSnapshot(path: "", contents: [:], order: [], overrides: [])

    /// The params each file declares (``RuleParams``), files without params left out, with the
    /// file's label: `validate` prints them.
    package var declaredParams: [(file: String, params: RuleParams)] {
        zip(fileLabels, [escalation.params, streaks.params, pricing.params, quests.params, modes.params])
            .filter { !$0.1.isEmpty }.map { (file: $0.0, params: $0.1) }
    }

    /// What validation proved, for the summary line.
    package var summary: String {
        let total = provedInputs.reduce(0) { $0 + $1.inputs }
        let experimental =
            quests.specVersion == .experimental
            ? "; spec_version \"experimental\": the values v1.1 fixes are not enforced" : ""
        return "\(fileLabels.joined(separator: ", ")); \(provedInputs.count) rule functions proved on \(total) inputs\(experimental)"
    }

    /// The contents of every file the rule set in `path` is made of, its own and those it
    /// inherits through `extends` (each file of the chain, nearest first, with its file name —
    /// not its folder's, which may differ between machines): what a digest of the rules covers.
    /// Read as the set is loaded (``SourceFile``): regular files of at most `maxSourceBytes`.
    package static func sourceContents(_ path: String, limits: LuaLimits = .default) throws -> [(name: String, contents: Data)] {
        let sources = try RuleSources(path)
        return try fileNames.flatMap { name in
            try sources.locateAll(name).map { (name, Data(try SourceFile.read($0.url.path, maxBytes: limits.maxSourceBytes))) }
        }
    }

    /// Loads and validates the rule set in `path`: types, ranges and the documents' hard
    /// constraints, proved over every allowed input. Throws a `RuleSetError` with every problem.
    ///
    /// A folder holds the files it changes; with an `extends` file (one line: the path of another
    /// rule folder, absolute or relative to this one, or `@default`, the built-in rules) the files
    /// it does not hold come from that folder.
    /// `proving: false` skips the proofs, for a set already validated in full (a simulation's
    /// workers load the set the simulation validated). `overrides` give knobs other values
    /// (``KnobOverride``, `sweep --set`): written into the tables the files return before they
    /// are frozen and validated, so that a value breaking a constraint is a problem of its file.
    package static func load(
        _ path: String, limits: LuaLimits = .default, randomSeed: Int64 = 0, proving: Bool = true, overrides: [KnobOverride] = []
    ) throws -> RuleSet {
        try load(path, limits: limits, randomSeed: randomSeed, proving: proving, overrides: overrides, snapshot: nil)
    }

    /// `snapshot`: the bytes of a set already validated (``RuleSnapshot``), read instead of the files.
    /// `proofCalls`: records every call the proofs make, with its arguments (the tests of
    /// ``recordFields`` read what each proof passed).
    static func load(
        _ path: String, limits: LuaLimits, randomSeed: Int64, proving: Bool, overrides: [KnobOverride], snapshot: RuleSnapshot?,
        proofCalls: LuaCallTrace? = nil
    ) throws -> RuleSet {
        let sources = try RuleSources(path)
        guard overrides.count <= KnobOverride.maxOverrides else {
            throw RuleSetError(problems: [
                RuleProblem(
                    file: path, message: "\(overrides.count) knob overrides, more than the \(KnobOverride.maxOverrides) a rule set takes")
            ])
        }
        let host = try LuaHost(limits: limits, randomSeed: randomSeed)
        if let proofCalls { try host.explain(proofCalls) }
        // A snapshot's set had no unknown file when it was validated.
        var problems = snapshot == nil ? unknownFiles(in: sources.folder) : []
        var contents: [String: [UInt8]] = [:]
        var order: [String] = []
        // The names messages give the files read (what a proof's findings can name; their paths cannot).
        var chunkNames: [String: String] = [:]
        func read(_ file: String, chunkName: String) throws -> [UInt8] {
            let bytes = try snapshot?.bytes(file) ?? SourceFile.read(file, maxBytes: limits.maxSourceBytes)
            chunkNames[file] = chunkName
            if contents.updateValue(bytes, forKey: file) == nil { order.append(file) }
            return bytes
        }
        var proofs: [ProofCache.Outcome] = []
        let allOverrides = overrides
        var modules: [(name: String, value: LuaValue)] = []
        // The files whose loading has begun, this one included: a file's proofs run before the files
        // after it are loaded, so the overrides of those cannot change them (nor be in their key).
        var begun: Set<String> = []
        func policy<P: RulePolicy>(_ name: String, _ type: P.Type) -> P? {
            begun.insert(name)
            host.collectGarbage()
            let before = host.memoryInUse
            let overrides = overrides.filter { $0.fileName == name }
            guard let file = RuleFile.load(name, from: sources, host: host, overrides: overrides, problems: &problems, read: read)
            else { return nil }
            // The memory a file keeps is charged to it: one that keeps most of the ceiling would make
            // the files and calls after it fail, innocent as they are.
            host.collectGarbage()
            let kept = host.memoryInUse - before
            if limits.memoryBytes > 0, kept > limits.memoryBytes / RuleSet.memoryShareOfAFile {
                problems.append(
                    RuleProblem(
                        file: file.name,
                        message: "the file keeps \(kept) bytes once loaded, more than the "
                            + "\(limits.memoryBytes / RuleSet.memoryShareOfAFile) a rule file may keep (1/\(RuleSet.memoryShareOfAFile) of the "
                            + "\(limits.memoryBytes)-byte memory limit, which the five files and every call share)"))
                return nil
            }
            // Every field's problem, then the ranges of the fields that decoded, then, only when
            // all hold, the proofs.
            let (decoded, decodingProblems) = file.decode(type)
            guard let policy = decoded else {
                problems += decodingProblems
                return nil
            }
            modules.append((String(name.dropLast(".lua".count)), file.value))
            func ranges(_ policy: P, in file: RuleFile) -> [RuleProblem] {
                policy.params.problems(in: file) + policy.parameterProblems(in: file)
            }
            // A check about a bad field, or whose result depends on a field already reported, is
            // left out: it would judge the placeholder of a bad field, or follow from the other
            // problem (`needs one entry per tier 1…max_tier` when max_tier is bad or out of range).
            // One that an extended file is blamed for but that a nearer file's change caused is the nearer file's.
            let parameterProblems = file.blamingTheCause(
                RuleProblem.leavingOutKnockOns(ranges(policy, in: file), decoding: decodingProblems) { set, setAside in
                    file.decode(type, placeholders: set, setAside: setAside).value.map { ranges($0, in: file) } ?? []
                }
            ) { layer in layer.decode(type).value.map { ranges($0, in: layer) } ?? [] }
            guard decodingProblems.isEmpty else {
                // In the order of the file's lines, whichever check found them.
                problems += RuleProblem.inLineOrder(decodingProblems + parameterProblems)
                return nil
            }
            problems += parameterProblems
            if parameterProblems.isEmpty, proving {
                // A rule's print() would be called on every input: silent while proving.
                let silent = host.printIsSilent
                host.printIsSilent = true
                defer { host.printIsSilent = silent }
                guard proofCalls == nil else {
                    proofs += policy.prove(in: file, host: host).map(ProofCache.Outcome.init)
                    return policy
                }
                let key = ProofCache.Key(
                    policy: name, files: order.map { chunkNames[$0] ?? $0 }, contents: order.map { contents[$0] ?? [] },
                    overrides: allOverrides.filter { begun.contains($0.fileName) }, limits: "\(limits)", randomSeed: randomSeed,
                    randomState: host.randomState)
                proofs += ProofCache.outcomes(key, host: host) { policy.prove(in: file, host: host) }
            }
            return policy
        }
        let escalation = policy("escalation.lua", EscalationPolicy.self)
        let streaks = policy("streaks.lua", StreakPolicy.self)
        let pricing = policy("pricing.lua", PricingPolicy.self)
        let quests = policy("quests.lua", QuestPolicy.self)
        let modes = policy("modes.lua", ModePolicy.self)
        problems += proofs.flatMap(\.problems)
        // Validation stops once for its budget: the function it stopped in, and the others not proved.
        let stopped = proofs.filter { $0.budgetProblem != nil }
        if var first = stopped.first?.budgetProblem {
            if stopped.count > 1 { first.message += "; not proved either: " + stopped.dropFirst().map(\.name).joined(separator: ", ") }
            problems.append(first)
        }
        guard problems.isEmpty, let escalation, let streaks, let pricing, let quests, let modes else {
            throw RuleSetError(problems: problems)
        }
        let ruleSet = RuleSet(
            folder: sources.folder, host: host, escalation: escalation, streaks: streaks, pricing: pricing,
            quests: quests, modes: modes)
        ruleSet.modules = modules
        ruleSet.provedInputs = proofs.map { ($0.name, $0.inputs) }
        ruleSet.unproved = proofs.compactMap { proof in proof.unproved.map { "\(proof.name): not proved for \($0)" } }
        ruleSet.fileLabels = fileNames.map { sources.locate($0)?.chunkName ?? $0 }
        // Resolved (``WorkingFolder``): a simulation's workers load it again on threads of their own.
        let resolved = path == BuiltInDefaults.name ? path : WorkingFolder.resolve(path)
        ruleSet.snapshot = RuleSnapshot(path: resolved, contents: contents, order: order, overrides: overrides)
        return ruleSet
    }

    /// `.lua` files of the folder that are not part of a rule set (a misspelt name, most often).
    /// (The folder `tests/` holds the tests of the rule set, not rules: see `rulesrun test`; the
    /// folder `personas/` holds personas.)
    static func unknownFiles(in folder: RuleFolder) -> [RuleProblem] {
        folder.luaFiles().map { folder.name(of: $0) }.filter {
            !fileNames.contains($0) && $0 != metricsFileName && !$0.hasPrefix(testFolder + "/") && !$0.hasPrefix(personaFolder + "/")
        }.map { name in
            var message = "not a file of a rule set (expected \(fileNames.joined(separator: ", ")))"
            if let suggestion = Suggestion.closest(to: name, among: fileNames) { message += "; did you mean '\(suggestion)'?" }
            return RuleProblem(file: name, message: message)
        }
    }
}

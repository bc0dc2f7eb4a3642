import Foundation
import LuaHost

/// A validated rule set: the typed contents of a rule folder, bound to the Lua state that runs its
/// functions. Like its `LuaHost`, it belongs to one thread at a time; load one per worker.
public final class RuleSet {
    /// Lua instructions that validating one rule set may use in all (a few seconds at most).
    public static let validationInstructionBudget: Int64 = 300_000_000

    /// The files of a rule set.
    public static let fileNames = ["escalation.lua", "streaks.lua", "pricing.lua", "quests.lua", "modes.lua"]

    public let folder: RuleFolder
    public let host: LuaHost
    public let escalation: EscalationPolicy
    public let streaks: StreakPolicy
    public let pricing: PricingPolicy
    public let quests: QuestPolicy
    public let modes: ModePolicy

    init(folder: RuleFolder, host: LuaHost, escalation: EscalationPolicy, streaks: StreakPolicy, pricing: PricingPolicy,
         quests: QuestPolicy, modes: ModePolicy) {
        self.folder = folder
        self.host = host
        self.escalation = escalation
        self.streaks = streaks
        self.pricing = pricing
        self.quests = quests
        self.modes = modes
    }

    /// How many inputs each rule function was evaluated on during validation, by name.
    public private(set) var provedInputs: [(function: String, inputs: Int)] = []

    /// What validation proved, for the summary line.
    public var summary: String {
        let total = provedInputs.reduce(0) { $0 + $1.inputs }
        return "\(RuleSet.fileNames.joined(separator: ", ")); \(provedInputs.count) rule functions proved on \(total) inputs"
    }

    /// Loads and validates the rule set in `path`: types, ranges and the documents' hard
    /// constraints, proved over every allowed input. Throws a `RuleSetError` with every problem.
    public static func load(_ path: String, limits: LuaLimits = .default, randomSeed: Int64 = 0) throws -> RuleSet {
        let folder: RuleFolder
        do {
            folder = try RuleFolder(path)
        } catch let error as LuaError {
            throw RuleSetError(problems: [RuleProblem(file: path, message: error.message)])
        }
        let host = try LuaHost(limits: limits, randomSeed: randomSeed)
        var problems = unknownFiles(in: folder)
        var proofs: [Counterexamples] = []
        var escalation: EscalationPolicy?
        if let file = RuleFile.load("escalation.lua", from: folder, host: host, problems: &problems),
           let policy = file.decode(EscalationPolicy.self, problems: &problems) {
            let parameterProblems = policy.parameterProblems(in: file)
            problems += parameterProblems
            if parameterProblems.isEmpty { proofs += policy.prove(in: file, host: host) }
            escalation = policy
        }
        var streaks: StreakPolicy?
        if let file = RuleFile.load("streaks.lua", from: folder, host: host, problems: &problems),
           let policy = file.decode(StreakPolicy.self, problems: &problems) {
            let parameterProblems = policy.parameterProblems(in: file)
            problems += parameterProblems
            if parameterProblems.isEmpty { proofs += policy.prove(in: file, host: host) }
            streaks = policy
        }
        var pricing: PricingPolicy?
        if let file = RuleFile.load("pricing.lua", from: folder, host: host, problems: &problems),
           let policy = file.decode(PricingPolicy.self, problems: &problems) {
            let parameterProblems = policy.parameterProblems(in: file)
            problems += parameterProblems
            if parameterProblems.isEmpty { proofs += policy.prove(in: file, host: host) }
            pricing = policy
        }
        var quests: QuestPolicy?
        if let file = RuleFile.load("quests.lua", from: folder, host: host, problems: &problems),
           let policy = file.decode(QuestPolicy.self, problems: &problems) {
            let parameterProblems = policy.parameterProblems(in: file)
            problems += parameterProblems
            if parameterProblems.isEmpty { proofs += policy.prove(in: file, host: host) }
            quests = policy
        }
        var modes: ModePolicy?
        if let file = RuleFile.load("modes.lua", from: folder, host: host, problems: &problems),
           let policy = file.decode(ModePolicy.self, problems: &problems) {
            let parameterProblems = policy.parameterProblems(in: file)
            problems += parameterProblems
            if parameterProblems.isEmpty { proofs += policy.prove(in: file, host: host) }
            modes = policy
        }
        problems += proofs.flatMap(\.problems)
        guard problems.isEmpty, let escalation, let streaks, let pricing, let quests, let modes else { throw RuleSetError(problems: problems) }
        let ruleSet = RuleSet(folder: folder, host: host, escalation: escalation, streaks: streaks, pricing: pricing, quests: quests,
                              modes: modes)
        ruleSet.provedInputs = proofs.map { ($0.name, $0.inputs) }
        return ruleSet
    }

    /// `.lua` files of the folder that are not part of a rule set (a misspelt name, most often).
    static func unknownFiles(in folder: RuleFolder) -> [RuleProblem] {
        folder.luaFiles().map { folder.name(of: $0) }.filter { !fileNames.contains($0) }.map { name in
            var message = "not a file of a rule set (expected \(fileNames.joined(separator: ", ")))"
            if let suggestion = Suggestion.closest(to: name, among: fileNames) { message += "; did you mean '\(suggestion)'?" }
            return RuleProblem(file: name, message: message)
        }
    }
}

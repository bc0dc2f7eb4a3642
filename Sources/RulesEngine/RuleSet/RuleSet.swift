import Foundation
import LuaHost

/// A validated rule set: the typed contents of a rule folder, bound to the Lua state that runs its
/// functions. Like its `LuaHost`, it belongs to one thread at a time; load one per worker.
public final class RuleSet {
    /// The files of a rule set.
    public static let fileNames = ["escalation.lua"]

    public let folder: RuleFolder
    public let host: LuaHost
    public let escalation: EscalationPolicy

    init(folder: RuleFolder, host: LuaHost, escalation: EscalationPolicy) {
        self.folder = folder
        self.host = host
        self.escalation = escalation
    }

    /// What validation proved, for the summary line.
    public var summary: String {
        let tiers = min(escalation.maxTier, PressureLimits.maxTier) + 1
        let transitions = (PressureLimits.maxTier + 1) * (EscalationPolicy.counterBound + 1) * (EscalationPolicy.counterBound + 1) * 3
        let schedules = tiers * EscalationPolicy.allWindows.count
        return "\(RuleSet.fileNames.joined(separator: ", ")); \(transitions) transitions and \(schedules) reminder schedules proved"
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
        var escalation: EscalationPolicy?
        if let file = RuleFile.load("escalation.lua", from: folder, host: host, problems: &problems),
           let policy = file.decode(EscalationPolicy.self, problems: &problems) {
            let parameterProblems = policy.parameterProblems(in: file)
            problems += parameterProblems
            if parameterProblems.isEmpty { problems += policy.proofProblems(in: file, host: host) }
            escalation = policy
        }
        guard problems.isEmpty, let escalation else { throw RuleSetError(problems: problems) }
        return RuleSet(folder: folder, host: host, escalation: escalation)
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

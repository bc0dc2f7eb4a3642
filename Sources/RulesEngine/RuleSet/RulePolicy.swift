import LuaHost

/// The typed contents of one rule file, with its own checks: ranges first, then the proofs over
/// every allowed input (run only when the ranges hold).
protocol RulePolicy: Decodable {
    /// The params the file declares (checked by ``RuleParams/problems(in:)`` with the other ranges).
    var params: RuleParams { get }
    func parameterProblems(in file: RuleFile) -> [RuleProblem]
    func prove(in file: RuleFile, host: LuaHost) -> [Counterexamples]
}

extension EscalationPolicy: RulePolicy {}
extension StreakPolicy: RulePolicy {}
extension PricingPolicy: RulePolicy {}
extension QuestPolicy: RulePolicy {}
extension ModePolicy: RulePolicy {}

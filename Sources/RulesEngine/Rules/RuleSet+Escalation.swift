import LuaHost
import RulesModel

extension RuleSet {
    /// Runs escalation.lua's `transition` for one day's result (see `PolicyRules`).
    public func transition(_ state: EscalationCounters, _ result: CommitmentStatus) throws -> EscalationCounters {
        try host.call(escalation.transition, state, CheckInArgument(result: result), returning: EscalationCounters.self)
    }
}

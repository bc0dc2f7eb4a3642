import Foundation

/// Rule sets that pass `validate` and then fail at run time, for the tests of how commands report
/// such failures. Validation tries every state a run reaches, so a rule can only hide a failure
/// where validation says it stops. This transition decides as the default one (the same tiers and
/// counters modulo 64) but keeps more in its counters' high parts: the day's number in
/// `consecutive_successes` and the results so far, one bit a day, in `consecutive_misses`. The
/// states it reaches double each day, so validation stops at its cap (about day 13: "transition:
/// not proved for states reached after day 13"), and the rule fails from day 20, which a run
/// reaches.
enum RuntimeFailure {
    /// `escalation.lua` of a variant; `failure` is line 8, with `day` (1 on the first day) and the
    /// decision `s` in scope; a refused decision is blamed on line 3, the function.
    static func escalation(_ failure: String) -> String {
        """
        local M = base
        local pseudo_code = M.transition
        function M.transition(state, check_in)
          local day = state.consecutive_successes // 64 + 1
          local s = pseudo_code({ current_tier = state.current_tier, consecutive_misses = state.consecutive_misses % 64, consecutive_successes = state.consecutive_successes % 64 }, check_in)
          s.consecutive_misses = s.consecutive_misses + 64 * ((state.consecutive_misses // 64) * 2 + (check_in.result == "YES" and 0 or 1))
          s.consecutive_successes = s.consecutive_successes + 64 * day
          \(failure)
          return s
        end
        return M
        """
    }

    /// An error from day 20 (escalation.lua:8).
    static let error = escalation(#"if day >= 20 then error("boom on day 20") end"#)
    /// A tier the host refuses from day 20.
    static let badTier = escalation("if day >= 20 then s.current_tier = 7 end")
    /// The fields in which this transition differs from the default one before it fails.
    static let counters = ["--ignore", "consecutive_misses", "--ignore", "consecutive_successes"]
}

import LuaHost
import RulesModel

/// modes.lua, typed: which Earned mode is in force at an instant.
package struct ModePolicy: Decodable {
    /// The params the file declares for its own functions (``RuleParams``); none when it has no `params`.
    package var params: RuleParams { declaredParams ?? RuleParams() }
    var declaredParams: RuleParams?
    package var equalBoundsMeanAllDay: Bool
    package var strictnessRank: [String: Int]
    /// `window_active(window, now) -> boolean`.
    package var windowActive: LuaFunction
    /// `mode_active(mode, now) -> boolean`.
    package var modeActive: LuaFunction
    /// `effective_mode(modes, now) -> index | nil`.
    package var effectiveMode: LuaFunction

    enum CodingKeys: String, CodingKey {
        case declaredParams = "params"
        case equalBoundsMeanAllDay = "equal_bounds_mean_all_day"
        case strictnessRank = "strictness_rank"
        case windowActive = "window_active"
        case modeActive = "mode_active"
        case effectiveMode = "effective_mode"
    }

    func parameterProblems(in file: RuleFile) -> [RuleProblem] {
        let names = Strictness.allCases.map(\.rawValue)
        var problems: [RuleProblem] = []
        if Set(strictnessRank.keys) != Set(names) {
            problems.append(
                file.problem(
                    at: "strictness_rank", "strictness_rank: needs exactly GENTLE, STRICT and HARD, found \(strictnessRank.keys.sorted())"))
        } else if !(strictnessRank["GENTLE"]! < strictnessRank["STRICT"]! && strictnessRank["STRICT"]! < strictnessRank["HARD"]!) {
            problems.append(
                file.problem(
                    at: "strictness_rank",
                    "strictness_rank: must rank GENTLE < STRICT < HARD, found \(names.map { "\($0) \(strictnessRank[$0]!)" })"))
        }
        return problems
    }
}

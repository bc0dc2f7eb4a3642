import Foundation

/// The leaving response (``Responses/Leaving``) as `rulesrun fit` estimates it: each user-day up
/// to the user's last active day (before the log's last day, which a simulation does not ask
/// about) is one observation, the user having left at the end of its last; logit P(leave) =
/// logit(base) + denied × unlocks denied + high_tier × [tier ≥ 2] + reminders × reminders +
/// engaged × [engaged], what the replay (``LogUserTally/leavingDays``) gives each day.
enum LeavingFit {
    static let response = LogisticResponse(
        name: "leaving",
        model: "logit P(leave at the end of a day) = logit(base) + denied × unlocks denied + high_tier × [tier ≥ 2]"
            + " + reminders × reminders + engaged × [engaged]",
        terms: [
            .init(name: "base", lua: "persona.responses.leaving.base = %@", covariate: "", probability: true),
            .init(name: "denied", lua: "persona.responses.leaving.denied = %@", covariate: "an unlock denied", range: -10...10),
            .init(name: "high_tier", lua: "persona.responses.leaving.high_tier = %@", covariate: "tier 2 or 3 at its end", range: -10...10),
            .init(name: "reminders", lua: "persona.responses.leaving.reminders = %@", covariate: "a reminder", range: -10...10),
            .init(name: "engaged", lua: "persona.responses.leaving.engaged = %@", covariate: "engagement", range: -10...10),
        ],
        observation: "user-day", outcome: "ended with the user leaving")

    /// The statement that makes the persona's `responses.leaving` a table its values can be set in.
    static let setup = "if type(persona.responses.leaving) ~= \"table\" then persona.responses.leaving = {} end"

    /// One user's observations: its days but the log's last, up to its last active day (those of
    /// `days` only: a day after them the user left on is not seen to end with its leaving).
    static func counts(_ tally: LogUserTally, days: Range<Int> = 0..<LogUserTally.maxDays) -> LogisticFit.Counts {
        var counts = LogisticFit.Counts()
        guard let last = tally.lastDay, tally.days.count >= 2 else { return counts }
        for k in 0...min(last, tally.days.count - 2) where days.contains(k) {
            let day = tally.leavingDays[k]
            let pattern = LogisticFit.Pattern([1, Double(day.denied), day.tier >= 2 ? 1 : 0, Double(day.reminders), day.engaged ? 1 : 0])
            counts[pattern, default: (0, 0)].rows += 1
            counts[pattern, default: (0, 0)].events += k == last ? 1 : 0
        }
        return counts
    }

    /// The design of the users' observations (each user's `counts`), `prior` held where the log cannot inform a parameter.
    static func design(_ users: [LogisticFit.Counts], prior: Responses.Leaving) -> ResponseDesign {
        let pooled = ResponseDesign.pooled(users)
        let days = Int(pooled.values.reduce(0) { $0 + $1.rows }), left = Int(pooled.values.reduce(0) { $0 + $1.events })
        return ResponseDesign(
            response: response, prior: [LogisticResponse.logit(prior.base), prior.denied, prior.highTier, prior.reminders, prior.engaged],
            bases: 1, observed: "user-days observed: \(days) (each user's days but the log's last); users who left: \(left)", setup: setup,
            users: users)
    }
}

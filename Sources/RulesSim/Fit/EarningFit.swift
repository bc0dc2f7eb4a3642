import Foundation
import LuaHost
import RulesEngine

/// Earned's habits and the earning response (``Responses/Earning``) as `rulesrun fit` estimates
/// them: each day an Earned habit is defined, up to the user's last active day, is one observation,
/// completed or not, with logit P(completed) = logit(rate[habit]) + boost × shortfall, where
/// shortfall = max(0, target − balance) / target and the balance is the user's credits as the day
/// began — the persona's `earned.habits` rates and its `earning` response, as a simulation draws
/// them. `target` (a threshold) is held at the persona's. The same `boost` scales a simulated
/// user's focus sessions, which the fit does not read (their number is the persona's).
enum EarningFit {
    /// One observation's pattern before the habits are numbered.
    struct Pattern: Hashable, Sendable {
        var habit: String
        var balance: Int
    }

    typealias Counts = [Pattern: (rows: Double, events: Double)]

    static let name = "earning"

    /// The balance's term, after the habits' rates (`earned.rate[habit]`).
    static let boostTerm = LogisticResponse.Term(
        name: "boost", lua: "persona.responses.earning.boost = %@", covariate: "a balance short of the target", range: 0...10)

    /// The most habits whose rates are fitted (those with the most observations).
    static let maxHabits = 64

    /// One user's observations (those of `days`), the balance capped at `target` (above it, the
    /// shortfall is 0 whatever it is).
    static func counts(_ tally: LogUserTally, target: Int, days: Range<Int> = 0..<LogUserTally.maxDays) -> Counts {
        var counts = Counts()
        guard let last = tally.lastDay, !tally.earnedDone.isEmpty else { return counts }
        for k in 0...min(last, tally.earnedDone.count - 1) where days.contains(k) {
            for (habit, defined) in tally.earnedHabits where defined <= k {
                let pattern = Pattern(habit: habit, balance: min(max(0, tally.earnedBalances[k]), max(0, target)))
                counts[pattern, default: (0, 0)].rows += 1
                counts[pattern, default: (0, 0)].events += tally.earnedDone[k].contains(habit) ? 1 : 0
            }
        }
        return counts
    }

    /// The design of the users' observations (nil when no user had an Earned habit); `rates`: the
    /// persona's by habit, `earning` its response (the priors; off: boost 0, target 50).
    static func design(_ users: [Counts], rates: [String: Double], earning: Responses.Earning?) -> ResponseDesign? {
        let (habits, all) = ResponseDesign.groups(users, of: \.habit, most: maxHabits)
        guard !habits.isEmpty else { return nil }
        let earning =
            earning
            ?? {
                var off = Responses.Earning(); off.boost = 0; return off
            }()
        let byUser = users.map { numbered($0, habits: habits, target: earning.target) }
        let pooled = ResponseDesign.pooled(byUser)
        let days = Int(pooled.values.reduce(0) { $0 + $1.rows }), done = Int(pooled.values.reduce(0) { $0 + $1.events })
        var observed = "Earned habit-days: \(days), completed: \(done)"
        if all > habits.count { observed += "; \(all - habits.count) habits with the fewest left out (at most \(maxHabits))" }
        let response = LogisticResponse(
            name: name,
            model: "logit P(an Earned habit is completed on a day) = logit(rate[habit]) + boost × max(0, \(earning.target) − balance)"
                + " / \(earning.target) (the balance as the day began; target: the persona's)",
            terms: habits.map { habit in
                LogisticResponse.Term(
                    name: "earned.rate[\(habit)]",
                    lua: "for _, h in ipairs(persona.earned and persona.earned.habits or {}) do if h.name == "
                        + "\(KnobOverride.literal(.string(habit))) then h.rate = %@ end end",
                    covariate: "the habit \(habit)", probability: true)
            } + [boostTerm],
            observation: "Earned habit-day", outcome: "was completed")
        return ResponseDesign(
            response: response, prior: habits.map { LogisticResponse.logit(rates[$0] ?? 0.5) } + [earning.boost], bases: habits.count,
            observed: observed, setup: "if type(persona.responses.earning) ~= \"table\" then persona.responses.earning = {} end",
            users: byUser, tasks: habits)
    }

    /// A user's observations with the habits numbered as `habits` (sorted) orders them.
    static func numbered(_ user: Counts, habits: [String], target: Int) -> LogisticFit.Counts {
        ResponseDesign.numbered(user, groups: habits, of: \.habit) { p in
            [target <= 0 ? 0 : Double(max(0, target - p.balance)) / Double(target)]
        }
    }
}

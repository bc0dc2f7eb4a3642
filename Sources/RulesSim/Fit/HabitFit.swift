import Foundation
import LuaHost
import RulesEngine

/// The habit tracker's tasks as `rulesrun fit` estimates them: each completion a due task's day
/// planned (its times per day) is one observation, made or not that day, with logit P(made) =
/// logit(rate[task]) + gradient × ln(1 + streak) + at_stake × [streak ≥ at_risk, no freeze held]
/// + after_break × [within break_days days of a broken streak at stake] — the persona's `habits`
/// rates and its `streak` response (``Responses/Streak``), as a simulation draws them. The streak
/// is the rule set's at the day's start and the freezes those held then (``LogUserTally/habitDays``);
/// `at_risk` and `break_days` (thresholds) are held at the persona's values.
enum HabitFit {
    /// One observation's pattern before the tasks are numbered.
    struct Pattern: Hashable, Sendable {
        var task: String
        var streak: Int
        var atStake: Bool
        var afterBreak: Bool
    }

    typealias Counts = [Pattern: (rows: Double, events: Double)]

    /// The most tasks whose rates are fitted (those with the most observations; the others' are
    /// left out, and said so).
    static let maxTasks = 64

    /// One user's observations: its due tasks' days, up to its last active day.
    static func counts(_ tally: LogUserTally, streak: Responses.Streak, days: Range<Int> = 0..<LogUserTally.maxDays) -> Counts {
        var counts = Counts()
        guard let last = tally.lastDay else { return counts }
        var previous: [String: Int] = [:], broken: [String: Int] = [:]
        for k in 0...min(last, tally.habitDays.count - 1) {
            for day in tally.habitDays[k] {
                // A streak at stake broke when the day starts with none after a day that started with one.
                if day.streak == 0, let before = previous[day.task], before >= streak.atRisk { broken[day.task] = k }
                previous[day.task] = day.streak
                guard day.due > 0, days.contains(k) else { continue }
                let pattern = Pattern(
                    task: day.task, streak: day.streak, atStake: day.streak >= streak.atRisk && day.freezes <= 0,
                    afterBreak: broken[day.task].map { k - $0 < streak.breakDays } ?? false)
                counts[pattern, default: (0, 0)].rows += Double(day.due)
                counts[pattern, default: (0, 0)].events += Double(min(day.done, day.due))
            }
        }
        return counts
    }

    /// The design of the users' observations (each user's `counts`; nil when no user had a due
    /// task); `rates`: the persona's rates by task, `streak` its response, the priors.
    /// The streak's terms, after the tasks' rates (`rate[task]`).
    static let streakTerms: [LogisticResponse.Term] = [
        .init(name: "gradient", lua: "persona.responses.streak.gradient = %@", covariate: "a streak", range: -10...10),
        .init(name: "at_stake", lua: "persona.responses.streak.at_stake = %@", covariate: "a streak at stake", range: -10...10),
        .init(
            name: "after_break", lua: "persona.responses.streak.after_break = %@", covariate: "a streak broken before",
            range: -10...10),
    ]

    static func design(_ users: [Counts], rates: [String: Double], streak: Responses.Streak) -> ResponseDesign? {
        let (tasks, all) = ResponseDesign.groups(users, of: \.task, most: maxTasks)
        guard !tasks.isEmpty else { return nil }
        let numbered = users.map { Self.numbered($0, tasks: tasks) }
        let pooled = ResponseDesign.pooled(numbered)
        let planned = Int(pooled.values.reduce(0) { $0 + $1.rows }), made = Int(pooled.values.reduce(0) { $0 + $1.events })
        var observed = "completions planned on due days: \(planned), made: \(made)"
        if all > tasks.count { observed += "; \(all - tasks.count) tasks with the fewest left out (at most \(maxTasks))" }
        let response = LogisticResponse(
            name: "habits",
            model: "logit P(a planned completion is made) = logit(rate[task]) + gradient × ln(1 + streak)"
                + " + at_stake × [streak ≥ \(streak.atRisk) days, no freeze held] + after_break × [within \(streak.breakDays) days of such"
                + " a streak broken] (at_risk, break_days: the persona's)",
            terms: tasks.map { task in
                LogisticResponse.Term(
                    name: "rate[\(task)]",
                    lua:
                        "for _, h in ipairs(persona.habits or {}) do if h.task == \(KnobOverride.literal(.string(task))) then h.rate = %@ end end",
                    covariate: "the task \(task)", probability: true)
            } + streakTerms,
            observation: "planned completion", outcome: "was made")
        return ResponseDesign(
            response: response,
            prior: tasks.map { LogisticResponse.logit(rates[$0] ?? 0.5) } + [streak.gradient, streak.atStake, streak.afterBreak],
            bases: tasks.count, observed: observed,
            setup: "if type(persona.responses.streak) ~= \"table\" then persona.responses.streak = {} end", users: numbered,
            tasks: tasks)
    }

    /// A user's observations with the tasks numbered as `tasks` (sorted) orders them: each
    /// pattern's covariates in the order of the response's terms (those of other tasks left out).
    static func numbered(_ user: Counts, tasks: [String]) -> LogisticFit.Counts {
        ResponseDesign.numbered(user, groups: tasks, of: \.task) { p in
            [log(1 + Double(p.streak)), p.atStake ? 1 : 0, p.afterBreak ? 1 : 0]
        }
    }
}

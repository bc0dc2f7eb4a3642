import Foundation
import RulesModel

/// Pressure's check-ins as `rulesrun fit` estimates them, as a simulation makes them: on a day
/// with a commitment the user looks at the app once `first_look_minutes` after the deadline
/// (uniform, at the latest a minute before the window closes) and answers YES with probability
/// `answer.yes` (plus `lost_streak.yes` after a lost streak), NO with `answer.no`, else not yet;
/// and a minute or ten (uniform) after each of the day's reminders, where it answers with
/// probability `reminder_response[tier]` moved by the fatigue response (−`per_reminder` on the
/// log-odds per reminder received over the last `fatigue.days` days, today's up to this one),
/// YES for a share `reminder_yes_share` of those answers. The first answer is the check-in; a day
/// none answers is missed. Which look made an answer is not logged: the likelihood of a day is
/// the sum over the looks that could have made it at its minute, each with the chance that no
/// earlier look answered (the looks' times are independent). The look times' ranges, the fatigue
/// window and the lost-streak thresholds are held at the persona's.
struct AnswerFit: Sendable {
    /// One day's observation: its tier (0…3), whether it is within the lost-streak window, the
    /// reminders received on the window's days before it, its reminders' and window close's
    /// minutes after the deadline, and what happened: nil when missed, else the answer's minute
    /// (a representative of the minutes with the same likelihood) and whether it was YES.
    struct Pattern: Hashable, Sendable {
        var tier: Int
        var window: Bool
        var before: Int
        var reminders: [Int]
        var close: Int
        var answer: Int?
        var yes: Bool
    }

    typealias Counts = [Pattern: Double]

    /// The parameters, on the log-odds scale: answer.yes, answer.no (as the share of the first
    /// looks not answered YES), lost_streak's effect on YES, reminder_response by tier (4),
    /// per_reminder, reminder_yes_share.
    static let size = 9
    static let tiers = 4

    static let response = LogisticResponse(
        name: "answers",
        model: "first look (first_look_minutes after the deadline): P(YES) = σ(logit(answer.yes) + lost_streak × [window]),"
            + " P(NO) = (1 − answer.yes) × no_share; a look 1–10 min after each reminder: P(answer) = σ(logit(reminder_response[tier])"
            + " − per_reminder × reminders received), YES for reminder_yes_share; the first answer is the check-in",
        terms: [
            .init(name: "answer.yes", lua: "persona.answer.yes = %@", covariate: "", probability: true),
            .init(name: "answer.no_share", lua: "persona.answer.no = (1 - persona.answer.yes) * %@", covariate: "", probability: true),
            .init(
                name: "lost_streak", lua: "persona.lost_streak.yes = \(CommitFit.probabilityAdded(to: "persona.answer.yes"))",
                covariate: "a streak lost recently"),
        ]
            + (0..<tiers).map { t in
                .init(name: "reminder_response[\(t)]", lua: "persona.reminder_response[\(t + 1)] = %@", covariate: "", probability: true)
            } + [
                .init(
                    name: "per_reminder", lua: "persona.responses.fatigue.per_reminder = %@",
                    covariate: "reminders received", range: 0...5),
                .init(name: "reminder_yes_share", lua: "persona.reminder_yes_share = %@", covariate: "", probability: true),
            ],
        observation: "committed day", outcome: "answered")

    /// The statement that makes the tables the parameters are set in.
    static let setup =
        "persona.answer = persona.answer or { yes = 0, no = 0 }; persona.lost_streak = persona.lost_streak or {}; "
        + "persona.reminder_response = persona.reminder_response or { 0.3, 0.3, 0.3, 0.3 }; "
        + "if type(persona.responses.fatigue) ~= \"table\" then persona.responses.fatigue = {} end"

    /// What the model holds at the persona's values.
    struct Held: Sendable {
        /// The first look's minutes after the deadline (inclusive).
        var firstLook: ClosedRange<Int> = 60...600
        var lost = PersonaSpec.LostStreak()
        var fatigueDays = 7

        init() {}

        init(_ persona: PersonaSpec) {
            let look = persona.firstLookMinutes
            if look.count == 2 { firstLook = min(look[0], look[1])...max(look[0], look[1]) }
            lost = persona.lostStreak
            fatigueDays = persona.responses.fatigue?.days ?? fatigueDays
        }
    }

    /// One user's committed days (those of `days`), up to its last active day; `window`: its
    /// ``CommitFit/windows(_:lost:)``; `left`: its check-ins at a minute no look makes (left out, counted).
    static func counts(_ tally: LogUserTally, held: Held, window: [Bool], days: Range<Int>, left: inout Int) -> Counts {
        var counts = Counts()
        guard let last = tally.lastDay, !tally.pressureDays.isEmpty else { return counts }
        let minute = Millis.minute
        for k in 0...min(last, tally.pressureDays.count - 1) where days.contains(k) {
            let day = tally.pressureDays[k]
            guard day.seen, day.counts, day.committed, day.close > day.deadline else { continue }
            let before = tally.leavingDays[max(0, k - held.fatigueDays + 1)..<k].reduce(0) { $0 + $1.reminders }
            func offset(_ t: EpochMillis) -> Int {
                let d = t - day.deadline
                return Int(d >= 0 ? d / minute : -((-d + minute - 1) / minute))
            }
            var pattern = Pattern(
                tier: min(max(day.tier, 0), tiers - 1), window: window[k], before: before,
                reminders: day.notifications ? day.reminders.map { offset($0) } : [], close: offset(day.close), answer: nil, yes: false)
            if let answer = day.answer {
                guard let minute = representative(offset(answer.at), pattern, held: held) else {
                    left += 1
                    continue
                }
                (pattern.answer, pattern.yes) = (minute, answer.yes)
            }
            counts[pattern, default: 0] += 1
        }
        return counts
    }

    /// The minute whose likelihood an answer at minute `t` has (the same for every minute between
    /// two changes of the looks' chances), nil when no look can answer then.
    static func representative(_ t: Int, _ p: Pattern, held: Held) -> Int? {
        guard t < p.close else { return nil }
        let first = held.firstLook.clamped(to: Int.min...(p.close - 1))
        var breaks: Set<Int> = [first.lowerBound, first.upperBound + 1, p.close - 1, p.close]
        for r in p.reminders { for k in 1...11 { breaks.insert(r + k) } }
        let inFirst = first.contains(t) || t == p.close - 1 && held.firstLook.upperBound >= p.close - 1
        let inReminder = p.reminders.contains { (($0 + 1)...($0 + 10)).contains(t) }
        guard inFirst || inReminder else { return nil }
        return breaks.filter { $0 <= t }.max() ?? t
    }

    var estimates: [Double]
    var covariance: [[Double]]
    var logLikelihood: Double
    var observations: Double
    var answered: Double
    /// When the observed information is not positive definite (no covariance): the free
    /// parameter with the least information.
    var weakest: Int?

    /// The maximum-likelihood fit of `counts` (pooled), the parameters `fixed` (non-nil) held;
    /// `start`: where the steps start. Each step is Newton's with the outer product of the days'
    /// gradients for the information (Berndt, Hall, Hall and Hausman 1974), halved until the
    /// likelihood does not fall; the covariance is the inverse of the observed information at
    /// the maximum (central differences of the exact gradient).
    init(_ counts: Counts, held: Held, start: [Double], fixed: [Double?]) throws {
        let schedules = Self.schedules(counts, held: held)
        let free = (0..<Self.size).filter { fixed[$0] == nil }
        var theta = (0..<Self.size).map { fixed[$0] ?? min(8, max(-8, start[$0])) }
        guard var current = Self.evaluate(schedules, theta) else {
            throw FitError("the answers' model gives a logged check-in no chance")
        }
        for _ in 0..<200 where !free.isEmpty {
            let info = free.map { a in free.map { current.outer[a][$0] } }
            guard let step = LogisticFit.solve(info, free.map { current.gradient[$0] }) else { break }
            var scale = 1.0, moved = false
            while scale > 1e-6 {
                var next = theta
                for (a, j) in free.enumerated() { next[j] = min(30, max(-30, theta[j] + scale * step[a])) }
                if let e = Self.evaluate(schedules, next), e.value >= current.value - 1e-12 * abs(current.value) {
                    moved = zip(next, theta).contains { abs($0 - $1) >= 1e-9 }
                    (theta, current) = (next, e)
                    break
                }
                scale /= 2
            }
            if !moved { break }
        }
        // The observed information: minus the Hessian, by central differences of the exact gradient.
        var info = Array(repeating: Array(repeating: 0.0, count: free.count), count: free.count)
        for (a, j) in free.enumerated() {
            let h = 1e-5 * max(1, abs(theta[j]))
            var up = theta, down = theta
            up[j] += h
            down[j] -= h
            guard let gu = Self.evaluate(schedules, up)?.gradient, let gd = Self.evaluate(schedules, down)?.gradient else {
                throw FitError("the answers' likelihood has no value next to its maximum")
            }
            for (b, i) in free.enumerated() { info[a][b] = -(gu[i] - gd[i]) / (2 * h) }
        }
        for a in free.indices {
            for b in 0..<a { (info[a][b], info[b][a]) = ((info[a][b] + info[b][a]) / 2, (info[a][b] + info[b][a]) / 2) }
        }
        var covariance = Array(repeating: Array(repeating: 0.0, count: Self.size), count: Self.size)
        if let inverse = LogisticFit.inverse(info) {
            for (a, i) in free.enumerated() { for (b, j) in free.enumerated() { covariance[i][j] = inverse[a][b] } }
        } else {
            // Not positive definite: the parameter the log informs least (``fitted`` holds it and refits).
            weakest = free.indices.min { info[$0][$0] < info[$1][$1] }.map { free[$0] }
        }
        (estimates, self.covariance, logLikelihood) = (theta, covariance, current.value)
        observations = counts.values.reduce(0, +)
        answered = counts.reduce(0) { $0 + ($1.key.answer == nil ? 0 : $1.value) }
    }

    /// A total order of patterns (the sum's order: the same result every run).
    static func order(_ a: Pattern, _ b: Pattern) -> Bool {
        if a.tier != b.tier { return a.tier < b.tier }
        if a.window != b.window { return !a.window }
        if a.before != b.before { return a.before < b.before }
        if a.close != b.close { return a.close < b.close }
        if a.reminders != b.reminders { return a.reminders.lexicographicallyPrecedes(b.reminders) }
        if a.answer != b.answer { return (a.answer ?? -1) < (b.answer ?? -1) }
        return !a.yes && b.yes
    }
}

extension AnswerFit {
    /// The parameters' priors (log-odds scale) from a persona's values.
    static func prior(
        answer: PersonaSpec.Answer = .init(yes: 0, no: 0), lost: PersonaSpec.LostStreak = .init(),
        reminderResponse: [Double] = [0.3, 0.3, 0.3, 0.3], yesShare: Double = 0.7, fatigue: Responses.Fatigue? = .init()
    ) -> [Double] {
        let yes = LogisticResponse.logit(answer.yes)
        let noShare = answer.yes < 1 ? answer.no / (1 - answer.yes) : 0
        return [yes, LogisticResponse.logit(noShare), LogisticResponse.logit(answer.yes + lost.yes) - yes]
            + (0..<tiers).map {
                LogisticResponse.logit(reminderResponse.isEmpty ? 0.3 : reminderResponse[min($0, reminderResponse.count - 1)])
            }
            + [fatigue?.perReminder ?? 0, LogisticResponse.logit(yesShare)]
    }

    /// The response fitted to `counts` (the users' committed days pooled; nil when there are
    /// none), `prior` held where the log cannot inform a parameter; `outside`: the check-ins at
    /// a minute no look makes, left out.
    /// `fixed`: the names `fit --fix` holds (``FittedResponse/fixable``).
    static func fitted(_ counts: Counts, prior: [Double], held: Held, outside: Int, fixed: Set<String> = []) throws -> FittedResponse? {
        let days = counts.values.reduce(0, +)
        guard days > 0 else { return nil }
        var reasons = Self.response.terms.map { fixed.contains("\(Self.response.name).\($0.name)") ? FittedResponse.held : nil }
        let window = counts.keys.contains { $0.window }
        if !window {
            reasons[2] =
                held.lost.days > 0
                ? "no committed day within \(held.lost.days) days of a lost streak of \(held.lost.minStreak) days or more"
                : "the persona's lost_streak.days is 0: no day is after a lost streak"
        }
        // What the reminders' looks saw: the tiers, and the reminders received at them.
        var tiers = Set<Int>(), received = Set<Int>()
        for p in counts.keys {
            for r in p.reminders where r + 1 < p.close {
                tiers.insert(p.tier)
                for t in (r + 1)...min(r + 10, p.close - 1) { received.insert(p.before + p.reminders.count { $0 <= t }) }
            }
        }
        for t in 0..<Self.tiers where !tiers.contains(t) { reasons[3 + t] = "no committed day at tier \(t) had a reminder" }
        if tiers.isEmpty {
            reasons[8] = "no committed day had a reminder"
            reasons[7] = reasons[8]
        } else if received.count < 2 {
            reasons[7] = "every reminder's look came after as many reminders received: fatigue cannot be told from the response"
        }
        // Fitted with what the log cannot inform held at the prior; a parameter the log sends to
        // the edge of its range (its choices all one way) is then held too, and the rest refitted.
        var fit: AnswerFit
        while true {
            let fixed = (0..<size).map { reasons[$0] == nil ? nil : prior[$0] }
            fit = try AnswerFit(counts, held: held, start: prior.map { min(4, max(-4, $0)) }, fixed: fixed)
            let edge = (0..<size).filter { reasons[$0] == nil && abs(fit.estimates[$0]) >= 15 }
            for j in edge { reasons[j] = "the log's choices go all one way: its estimate runs to the edge of its range" }
            if !edge.isEmpty { continue }
            let weak = fit.weakest.map { [$0] } ?? (0..<size).filter { reasons[$0] == nil && !(fit.covariance[$0][$0] < 100) }
            for j in weak { reasons[j] = "the log barely informs it (its standard error on the log-odds scale would pass 10)" }
            if weak.isEmpty { break }
        }
        let answered = Int(fit.answered)
        var observed = "committed days: \(Int(days)), answered: \(answered), missed: \(Int(days) - answered)"
        if outside > 0 { observed += "; check-ins at a minute no look makes, left out: \(outside)" }
        var response = Self.response.fitted(
            estimates: fit.estimates, covariance: fit.covariance, reasons: reasons, observed: observed, observations: fit.observations,
            events: fit.answered, logLikelihood: fit.logLikelihood)
        response.setup = setup
        return response
    }
}

import Foundation
import RulesEngine
import RulesModel

/// What `rulesrun fit` takes from a log's users replayed (``PersonaFit``), before any estimate:
/// each response's choices by pattern of covariates (per user, or pooled), the unlock gate's
/// openings, the held-out users' tallies (`--check users:P`), the later days' choices by pattern
/// (`--check days:D`), and what the log could not give. Every part is a sum over the users, so the
/// statistics of a log's user shards (`fit --shard i/n`) add up to the whole log's (``merged(_:)``).
package struct FitStatistics: Sendable {
    /// The users fitted (those with a whole day, not held out).
    package var users = 0
    /// Each user's observations of leaving and of its habits, in the input's order, at their
    /// ``LoggedUser/position``; `pooled`: all the users' summed in one entry (a shard's, without segments).
    var leaving: [LogisticFit.Counts] = []
    var habits: [HabitFit.Counts] = []
    /// Each user's Pressure commitments and Earned habits (``CommitFit``, ``EarningFit``), as `leaving`.
    var commit: [LogisticFit.Counts] = []
    var earning: [EarningFit.Counts] = []
    var positions: [Int] = []
    var pooled = false
    /// The openings of the unlock gate.
    var choices: GateFit.Choices
    /// Pressure's committed days by schedule and outcome (``AnswerFit``; pooled), and the
    /// check-ins at a minute no look makes (left out).
    var answers = AnswerFit.Counts()
    var outside = 0
    /// The earning response's target (the persona's), which its observations' balances are capped at.
    var target: Int
    /// Events a rule failed on, and events the rules refused, while replaying.
    var failures = RuleFailures()
    var refusals = Refusals()
    /// What the input could not give (and the users without an arm), and the users with no whole day.
    var problems = EventLog.Problems()
    var noDays = EventLog.Problems()
    /// The held-out users' moments per metric of ``PersonaFit/checked``, their totals day by day,
    /// and their Pressure streaks at the log's end.
    var observed: [MetricMoments]
    var observedDays: [DayTotals] = []
    var observedStreaks: [Int] = []
    /// The held-out users' unlocks by local hour.
    var observedUnlockHours = Array(repeating: 0, count: 24)
    /// The first day of the users replayed, and the most days counted for one.
    var firstDay: DayID?
    var days = 0
    /// Each later day held out: the fitted users' observations on it, pooled; and each user's, as
    /// `leaving` (what a mixture's check weighs by the user's segments).
    var later: [PersonaFit.Later]
    var laterByUser: [[PersonaFit.Later]] = []

    /// No user yet; `prior`: the persona's values (its gate preferences count the openings, its
    /// earning target caps the balances).
    init(prior: PersonaFit.Prior, laterDays: Int?) {
        choices = GateFit.Choices(preferences: prior.gate)
        target = prior.earning?.target ?? Responses.Earning().target
        observed = PersonaFit.checked.map { _ in MetricMoments() }
        later = Array(repeating: PersonaFit.Later(), count: laterDays ?? 0)
    }

    /// The statistics of the users of `input` (those of `replay`'s shard) replayed by `replay`
    /// (``PersonaFit/init(input:replay:prior:seed:segments:heldOut:laterDays:)`` says what each is).
    package init<Input: AnalysisInput>(
        input: inout Input, replay: ArmReplay, prior: PersonaFit.Prior, seed: UInt64, heldOut: PredictiveCheck.HeldOut?,
        laterDays: Int?
    ) throws {
        self.init(prior: prior, laterDays: laterDays)
        let end = input.end
        let target = self.target
        let streak = prior.streak
        let measured = PersonaFit.checked
        var problems = EventLog.Problems()
        var sums = self
        try replay.run(&input, problems: &problems) { worker, assigned -> PersonaFit.User in
            let tally = try worker.tally(assigned, seed: seed, logEnd: end)
            if let heldOut, heldOut.holds(assigned.user.name) {
                let part = RolloutAnalysis.UserPart(tally, days: nil, metrics: measured, quantiles: [.finalStreakP50])
                return PersonaFit.User(
                    replayed: part != nil, firstDay: tally.firstDay, days: tally.days.count, leaving: [:], habits: [:], commit: [:],
                    earning: [:], failures: tally.failures, refusals: tally.refusals, heldOut: part, unlockHours: tally.unlockHours)
            }
            // With later days held out: the fit's days are those before the log's last `laterDays`
            // (the user's from `cut`), and each of those days' observations is kept apart.
            let count = tally.days.count, cut = laterDays.map { max(0, count - $0) } ?? count
            var gate = tally.gate
            gate.openings.removeAll { $0.day >= cut }
            let days = laterDays.map { held in
                (0..<held).map { j -> PersonaFit.Later in
                    let k = count - held + j
                    guard k >= 0 else { return PersonaFit.Later() }
                    let day = k..<(k + 1)
                    var outside = 0
                    return PersonaFit.Later(
                        leaving: LeavingFit.counts(tally, days: day), habits: HabitFit.counts(tally, streak: streak, days: day),
                        commit: CommitFit.counts(tally, lost: prior.held.lost, days: day),
                        earning: EarningFit.counts(tally, target: target, days: day),
                        answers: AnswerFit.counts(tally, held: prior.held, days: day, left: &outside))
                }
            }
            var outside = 0
            let answers = AnswerFit.counts(tally, held: prior.held, days: 0..<cut, left: &outside)
            return PersonaFit.User(
                replayed: !tally.days.isEmpty, firstDay: tally.firstDay, days: count, leaving: LeavingFit.counts(tally, days: 0..<cut),
                habits: HabitFit.counts(tally, streak: streak, days: 0..<cut),
                commit: CommitFit.counts(tally, lost: prior.held.lost, days: 0..<cut),
                earning: EarningFit.counts(tally, target: target, days: 0..<cut), answers: answers, outside: outside,
                failures: tally.failures, refusals: tally.refusals, gate: gate, later: days ?? [])
        } add: { assigned, user in
            sums.add(user, of: assigned.user)
        }
        self = sums
        self.problems = problems
    }

    /// Adds one user's replay (`logged`: the user, in the input's order).
    mutating func add(_ user: PersonaFit.User, of logged: LoggedUser) {
        failures.add(user.failures)
        refusals.add(user.refusals, place: logged.position)
        guard user.replayed else {
            noDays.note(.noDays, line: logged.line(0), place: logged.position, logged.name)
            return
        }
        firstDay = min(firstDay ?? user.firstDay, user.firstDay)
        days = max(days, user.days)
        if let part = user.heldOut {
            for m in observed.indices { observed[m] += part.moments[m] }
            DayTotals.add(part.days, into: &observedDays)
            Histogram.add(part.histograms[0], to: &observedStreaks)
            for h in 0..<24 { observedUnlockHours[h] += user.unlockHours[h] }
            return
        }
        users += 1
        for (j, day) in user.later.enumerated() { later[j].add(day) }
        if !later.isEmpty { laterByUser.append(user.later) }
        choices.add(user.gate)
        leaving.append(user.leaving)
        habits.append(user.habits)
        commit.append(user.commit)
        earning.append(user.earning)
        answers.merge(user.answers, uniquingKeysWith: +)
        outside += user.outside
        positions.append(logged.position)
    }

    /// The users' observations summed in one entry (what the fit of the users as one segment reads).
    mutating func pool() {
        guard !pooled else { return }
        (leaving, habits, positions, pooled) = ([ResponseDesign.pooled(leaving)], [ResponseDesign.pooled(habits)], [], true)
        (commit, earning, laterByUser) = ([ResponseDesign.pooled(commit)], [ResponseDesign.pooled(earning)], [])
    }

    /// The statistics of a log from those of its user shards (each user in one of them), whatever
    /// their order: as replaying the whole log gives them (each user's observations in the input's
    /// order, when kept per user; the examples of what the log could not give, the whole log's first).
    package static func merged(_ parts: [FitStatistics]) -> FitStatistics {
        guard var whole = parts.first else { preconditionFailure("merged: no part") }
        whole.problems = EventLog.Problems.merged(parts.map(\.problems))
        whole.noDays = EventLog.Problems.merged(parts.map(\.noDays))
        whole.refusals = Refusals.merged(parts.map(\.refusals))
        for part in parts.dropFirst() {
            whole.users += part.users
            whole.failures.add(part.failures)
            whole.choices.add(part.choices)
            for m in whole.observed.indices { whole.observed[m] += part.observed[m] }
            DayTotals.add(part.observedDays, into: &whole.observedDays)
            Histogram.add(part.observedStreaks, to: &whole.observedStreaks)
            for h in 0..<24 { whole.observedUnlockHours[h] += part.observedUnlockHours[h] }
            whole.answers.merge(part.answers, uniquingKeysWith: +)
            whole.outside += part.outside
            whole.firstDay = [whole.firstDay, part.firstDay].compactMap { $0 }.min()
            whole.days = max(whole.days, part.days)
            for j in whole.later.indices { whole.later[j].add(part.later[j]) }
        }
        if parts.contains(where: \.pooled) {
            whole.leaving = [ResponseDesign.pooled(parts.flatMap(\.leaving))]
            whole.habits = [ResponseDesign.pooled(parts.flatMap(\.habits))]
            whole.commit = [ResponseDesign.pooled(parts.flatMap(\.commit))]
            whole.earning = [ResponseDesign.pooled(parts.flatMap(\.earning))]
            (whole.positions, whole.pooled, whole.laterByUser) = ([], true, [])
        } else {
            let users = parts.flatMap { part in
                part.positions.indices.map { u in
                    (
                        part.positions[u], part.leaving[u], part.habits[u], part.commit[u], part.earning[u],
                        part.laterByUser.isEmpty ? [] : part.laterByUser[u]
                    )
                }
            }
            .sorted { $0.0 < $1.0 }
            (whole.positions, whole.leaving, whole.habits) = (users.map(\.0), users.map(\.1), users.map(\.2))
            (whole.commit, whole.earning) = (users.map(\.3), users.map(\.4))
            whole.laterByUser = whole.later.isEmpty ? [] : users.map(\.5)
        }
        return whole
    }
}

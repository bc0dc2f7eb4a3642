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
    /// Each user's observations on the fit's days, in the input's order, at their
    /// ``LoggedUser/position``; `pooled`: all the users' summed in one entry (a shard's, without segments).
    var byUser: [FitObservations] = []
    var positions: [Int] = []
    var pooled = false
    /// The openings of the unlock gate.
    var choices: GateFit.Choices
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
    /// `byUser` (what a mixture's check weighs by the user's segments).
    var later: [FitObservations]
    var laterByUser: [[FitObservations]] = []

    /// No user yet; `prior`: the persona's values (its gate preferences count the openings, its
    /// earning target caps the balances).
    init(prior: PersonaFit.Prior, laterDays: Int?) {
        choices = GateFit.Choices(preferences: prior.gate)
        target = prior.earning?.target ?? Responses.Earning().target
        observed = PersonaFit.checked.map { _ in MetricMoments() }
        later = Array(repeating: FitObservations(), count: laterDays ?? 0)
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
        let measured = PersonaFit.checked
        var problems = EventLog.Problems()
        var sums = self
        try replay.run(&input, problems: &problems) { worker, assigned -> PersonaFit.User in
            let tally = try worker.tally(assigned, seed: seed, logEnd: end)
            if let heldOut, heldOut.holds(assigned.user.name) {
                let part = RolloutAnalysis.UserPart(tally, days: nil, metrics: measured, quantiles: [.finalStreakP50])
                return PersonaFit.User(
                    replayed: part != nil, firstDay: tally.firstDay, days: tally.days.count, failures: tally.failures,
                    refusals: tally.refusals, heldOut: part, unlockHours: tally.unlockHours)
            }
            // With later days held out: the fit's days are those before the log's last `laterDays`
            // (the user's from `cut`), and each of those days' observations is kept apart.
            let count = tally.days.count, cut = laterDays.map { max(0, count - $0) } ?? count
            var gate = tally.gate
            gate.openings.removeAll { $0.day >= cut }
            let days = laterDays.map { held in
                (0..<held).map { j -> FitObservations in
                    let k = count - held + j
                    return k >= 0 ? FitObservations(tally, days: k..<(k + 1), prior: prior, target: target) : FitObservations()
                }
            }
            return PersonaFit.User(
                replayed: !tally.days.isEmpty, firstDay: tally.firstDay, days: count,
                observations: FitObservations(tally, days: 0..<cut, prior: prior, target: target), failures: tally.failures,
                refusals: tally.refusals, gate: gate, later: days ?? [])
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
        byUser.append(user.observations)
        positions.append(logged.position)
    }

    /// Pressure's committed days of every user fitted, and their check-ins at a minute no look makes.
    var answers: (counts: AnswerFit.Counts, outside: Int) {
        byUser.reduce(into: (AnswerFit.Counts(), 0)) {
            $0.0.merge($1.answers, uniquingKeysWith: +)
            $0.1 += $1.outside
        }
    }

    /// The users' observations summed in one entry (what the fit of the users as one segment reads).
    mutating func pool() {
        guard !pooled else { return }
        (byUser, positions, pooled, laterByUser) = ([FitObservations.pooled(byUser)], [], true, [])
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
            whole.firstDay = [whole.firstDay, part.firstDay].compactMap { $0 }.min()
            whole.days = max(whole.days, part.days)
            for j in whole.later.indices { whole.later[j].add(part.later[j]) }
        }
        if parts.contains(where: \.pooled) {
            (whole.byUser, whole.positions, whole.pooled, whole.laterByUser) = (
                [FitObservations.pooled(parts.flatMap(\.byUser))], [], true, []
            )
        } else {
            let users = parts.flatMap { part in
                part.positions.indices.map { u in (part.positions[u], part.byUser[u], part.laterByUser.isEmpty ? [] : part.laterByUser[u]) }
            }
            .sorted { $0.0 < $1.0 }
            (whole.positions, whole.byUser) = (users.map(\.0), users.map(\.1))
            whole.laterByUser = whole.later.isEmpty ? [] : users.map(\.2)
        }
        return whole
    }
}

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
    var positions: [Int] = []
    var pooled = false
    /// The openings of the unlock gate.
    var choices: GateFit.Choices
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
    /// The first day of the users replayed, and the most days counted for one.
    var firstDay: DayID?
    var days = 0
    /// Each later day held out: the fitted users' observations on it, pooled.
    var later: [(leaving: LogisticFit.Counts, habits: HabitFit.Counts)]

    /// No user yet; `gate`: the persona's gate preferences (what the openings are counted by).
    init(gate: EarnedPersona.Gate, laterDays: Int?) {
        choices = GateFit.Choices(preferences: gate)
        observed = PersonaFit.checked.map { _ in MetricMoments() }
        later = Array(repeating: (LogisticFit.Counts(), HabitFit.Counts()), count: laterDays ?? 0)
    }

    /// The statistics of the users of `input` (those of `replay`'s shard) replayed by `replay`
    /// (``PersonaFit/init(input:replay:prior:seed:segments:heldOut:laterDays:)`` says what each is).
    package init<Input: AnalysisInput>(
        input: inout Input, replay: ArmReplay, prior: PersonaFit.Prior, seed: UInt64, heldOut: PredictiveCheck.HeldOut?,
        laterDays: Int?
    ) throws {
        self.init(gate: prior.gate, laterDays: laterDays)
        let end = input.end
        let streak = prior.streak
        let measured = PersonaFit.checked
        var problems = EventLog.Problems()
        var sums = self
        try replay.run(&input, problems: &problems) { worker, assigned -> PersonaFit.User in
            let tally = try worker.tally(assigned, seed: seed, logEnd: end)
            if let heldOut, heldOut.holds(assigned.user.name) {
                let part = RolloutAnalysis.UserPart(tally, days: nil, metrics: measured, quantiles: [.finalStreakP50])
                return PersonaFit.User(
                    replayed: part != nil, firstDay: tally.firstDay, days: tally.days.count, leaving: [:], habits: [:],
                    failures: tally.failures,
                    refusals: tally.refusals, heldOut: part)
            }
            // With later days held out: the fit's days are those before the log's last `laterDays`
            // (the user's from `cut`), and each of those days' observations is kept apart.
            let count = tally.days.count, cut = laterDays.map { max(0, count - $0) } ?? count
            var gate = tally.gate
            gate.openings.removeAll { $0.day >= cut }
            let days = laterDays.map { held in
                (0..<held).map { j -> (leaving: LogisticFit.Counts, habits: HabitFit.Counts) in
                    let k = count - held + j
                    guard k >= 0 else { return ([:], [:]) }
                    return (LeavingFit.counts(tally, days: k..<(k + 1)), HabitFit.counts(tally, streak: streak, days: k..<(k + 1)))
                }
            }
            return PersonaFit.User(
                replayed: !tally.days.isEmpty, firstDay: tally.firstDay, days: count, leaving: LeavingFit.counts(tally, days: 0..<cut),
                habits: HabitFit.counts(tally, streak: streak, days: 0..<cut), failures: tally.failures, refusals: tally.refusals,
                gate: gate, later: days ?? [])
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
            return
        }
        users += 1
        for (j, day) in user.later.enumerated() {
            LogisticFit.add(day.leaving, into: &later[j].leaving)
            LogisticFit.add(day.habits, into: &later[j].habits)
        }
        choices.add(user.gate)
        leaving.append(user.leaving)
        habits.append(user.habits)
        positions.append(logged.position)
    }

    /// The users' observations summed in one entry (what the fit of the users as one segment reads).
    mutating func pool() {
        guard !pooled else { return }
        (leaving, habits, positions, pooled) = ([ResponseDesign.pooled(leaving)], [ResponseDesign.pooled(habits)], [], true)
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
            whole.firstDay = [whole.firstDay, part.firstDay].compactMap { $0 }.min()
            whole.days = max(whole.days, part.days)
            for j in whole.later.indices {
                LogisticFit.add(part.later[j].leaving, into: &whole.later[j].leaving)
                LogisticFit.add(part.later[j].habits, into: &whole.later[j].habits)
            }
        }
        if parts.contains(where: \.pooled) {
            whole.leaving = [ResponseDesign.pooled(parts.flatMap(\.leaving))]
            whole.habits = [ResponseDesign.pooled(parts.flatMap(\.habits))]
            (whole.positions, whole.pooled) = ([], true)
        } else {
            let users = parts.flatMap { part in part.positions.indices.map { (part.positions[$0], part.leaving[$0], part.habits[$0]) } }
                .sorted { $0.0 < $1.0 }
            (whole.positions, whole.leaving, whole.habits) = (users.map(\.0), users.map(\.1), users.map(\.2))
        }
        return whole
    }
}

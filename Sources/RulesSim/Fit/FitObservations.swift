import RulesEngine
import RulesModel

/// One user's observations of each response over some of its days (or the sum of users'): what
/// the fit estimates from (the days before those held out), what each later day held out is
/// checked against (`--check days:D`), and what a shard carries per user or pooled.
struct FitObservations: Sendable {
    var leaving = LogisticFit.Counts()
    var habits = HabitFit.Counts()
    var commit = LogisticFit.Counts()
    var earning = EarningFit.Counts()
    /// Pressure's committed days by schedule and outcome, and the check-ins at a minute no look
    /// makes (left out, counted).
    var answers = AnswerFit.Counts()
    var outside = 0

    init() {}

    /// `tally`'s observations on its days `days` (`prior`: the persona's thresholds and the
    /// streak response; `target`: the earning target the balances are capped at).
    init(_ tally: LogUserTally, days: Range<Int>, prior: PersonaFit.Prior, target: Int) {
        let window = CommitFit.windows(tally.pressureDays, lost: prior.held.lost)
        leaving = LeavingFit.counts(tally, days: days)
        habits = HabitFit.counts(tally, streak: prior.streak, days: days)
        commit = CommitFit.counts(tally, window: window, days: days)
        earning = EarningFit.counts(tally, target: target, days: days)
        answers = AnswerFit.counts(tally, held: prior.held, window: window, days: days, left: &outside)
    }

    /// Adds another user's (or shard's) observations.
    mutating func add(_ other: FitObservations) {
        LogisticFit.add(other.leaving, into: &leaving)
        LogisticFit.add(other.habits, into: &habits)
        LogisticFit.add(other.commit, into: &commit)
        LogisticFit.add(other.earning, into: &earning)
        answers.merge(other.answers, uniquingKeysWith: +)
        outside += other.outside
    }

    /// The sum of `list`.
    static func pooled(_ list: [FitObservations]) -> FitObservations {
        list.reduce(into: FitObservations()) { $0.add($1) }
    }

    /// The observations of `design`'s response, its covariates in its terms' order (`target`: the
    /// earning target).
    func counts(of design: ResponseDesign, target: Int) -> LogisticFit.Counts {
        switch design.response.name {
        case CommitFit.response.name: commit
        case LeavingFit.response.name: leaving
        case EarningFit.name: EarningFit.numbered(earning, habits: design.tasks, target: target)
        default: HabitFit.numbered(habits, tasks: design.tasks)
        }
    }
}

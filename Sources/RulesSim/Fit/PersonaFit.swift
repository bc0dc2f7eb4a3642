import Foundation
import RulesEngine
import RulesModel

/// A persona's responses fitted to an event log (`rulesrun fit`): each user is replayed alone
/// through the rules it ran under (``ArmReplay``, as `analyze` replays it: under a rollout, the
/// arm of its exposure), which gives each of its choices the state and the decisions it was made
/// on (``LogUserTally``); each response's parameters are the maximum-likelihood estimates of its
/// choices (``LeavingFit``, ``HabitFit``), with 95 % intervals, or not identified, with why.
package struct PersonaFit: Sendable {
    /// The users replayed with at least one whole day.
    package var users: Int
    /// The responses fitted, in order: leaving, then the habit tracker's (when the log has due tasks).
    package var responses: [FittedResponse]
    /// The unlock gate's choice, when the log has openings of the gate (fitted for the users as one segment).
    package var gate: GateFit?
    /// Pressure's check-ins, when the log has committed days (``AnswerFit``; the users as one segment).
    package var answers: FittedResponse?
    /// The segments of the mixture chosen (``fitSegments(_:)``), none when the users are one segment.
    package var segments: [Segment] = []
    /// The numbers of segments tried, in order.
    package var candidates: [Candidate] = []
    /// The mixture's joint sampling distribution (``drawn(seed:draw:)``), with segments.
    var sampling: FitSampling?
    /// Each response's observations, user by user (what a mixture of segments is fitted to).
    var designs: [ResponseDesign] = []
    /// With segments: each user's chances of being in each (``SegmentMixture/memberships``).
    var memberships: [[Double]] = []
    /// Events a rule failed on while replaying.
    package var failures: RuleFailures
    /// The check on the held-out users, once made (`fit --check users:P`).
    package var check: PredictiveCheck?
    /// The check on the later days held out (`fit --check days:D`).
    package var later: LaterDaysCheck?
    /// The prediction under another rule set, once made (`fit --predict`).
    package var prediction: FitPrediction?
    /// The held-out users' moments, per metric of ``checked`` (none held out: every n is 0).
    package var heldOut: [MetricMoments] = []
    /// The held-out users' totals day by day (each user's own days from its first).
    package var heldOutDays: [DayTotals] = []
    /// The held-out users by Pressure streak at the log's end, those still there (`[v]`: users with v days).
    package var heldOutStreaks: [Int] = []
    /// The held-out users' unlocks by local hour (``LogUserTally/unlockHours``).
    package var heldOutUnlockHours = Array(repeating: 0, count: 24)
    /// The first day of the users replayed (each user's local), and the most days counted for one.
    package var firstDay: DayID?
    package var days = 0
    /// The events the rules refused while replaying (each changed nothing: what the user did is
    /// what the rules accepted).
    package var refusals: Refusals
    /// What the log could not give, and the users that could not be replayed under an arm.
    package var problems: EventLog.Problems

    /// The values a parameter the log cannot inform keeps (a persona's, else the defaults).
    package struct Prior: Sendable {
        package var leaving = Responses.Leaving()
        package var streak = Responses.Streak()
        /// The habit tasks' rates, by task.
        package var rates: [String: Double] = [:]
        /// The unlock gate's preferences and weights, and the price response (nil: off).
        package var gate = EarnedPersona.Gate()
        package var price: Responses.Price? = Responses.Price()
        /// Pressure's: the chance of committing, the lost-streak window, the answers' parameters
        /// (``AnswerFit/prior(answer:lost:reminderResponse:yesShare:fatigue:)``) and what their model holds.
        package var commit = 0.0
        /// Earned's habits' rates by name, and the earning response (nil: off).
        package var earnedRates: [String: Double] = [:]
        package var earning: Responses.Earning? = Responses.Earning()
        var answers = AnswerFit.prior()
        var held = AnswerFit.Held()
        /// The parameters `fit --fix` holds at these values (`response.parameter`: ``FittedResponse/fixable``).
        package var fixed: Set<String> = []

        package init() {}

        /// The values of `persona` (its responses switched off: their defaults, but the price
        /// response's, which the gate's fit reads as off).
        package init(_ persona: PersonaSpec) {
            leaving = persona.responses.leaving ?? leaving
            streak = persona.responses.streak ?? streak
            for habit in persona.habits { rates[habit.task] = habit.rate }
            gate = persona.earned?.gate ?? gate
            price = persona.responses.price
            commit = persona.commit
            for habit in persona.earned?.habits ?? [] { earnedRates[habit.name] = habit.rate }
            earning = persona.responses.earning
            answers = AnswerFit.prior(
                answer: persona.answer, lost: persona.lostStreak, reminderResponse: persona.reminderResponse,
                yesShare: persona.reminderYesShare, fatigue: persona.responses.fatigue)
            held = AnswerFit.Held(persona)
        }
    }

    /// Fits the users of `input` (a log in memory, a database read a user at a time) replayed by
    /// `replay` (its arms' rules, `seed` the seed of each user's `math.random` stream: ``RuleDraws``).
    /// `segments`: how many latent segments the users are fitted as.
    /// `heldOut`: the users left out of the fit, each counted for the metrics of the registry
    /// instead (``PredictiveCheck``). `laterDays`: the log's last days left out of the fit, each
    /// user's choices on them predicted from the fit (``LaterDaysCheck``).
    package init<Input: AnalysisInput>(
        input: inout Input, replay: ArmReplay, prior: Prior = Prior(), seed: UInt64 = 1, segments: Segments = .fixed(1),
        heldOut: PredictiveCheck.HeldOut? = nil, laterDays: Int? = nil
    ) throws {
        let statistics = try FitStatistics(
            input: &input, replay: replay, prior: prior, seed: seed, heldOut: heldOut, laterDays: laterDays)
        try self.init(statistics, prior: prior, segments: segments, laterDays: laterDays)
    }

    /// The fit of `statistics` (a log's users replayed, or the sum of its shards': ``FitStatistics``).
    package init(_ statistics: FitStatistics, prior: Prior = Prior(), segments: Segments = .fixed(1), laterDays: Int? = nil) throws {
        let s = statistics
        users = s.users
        designs = [LeavingFit.design(s.byUser.map(\.leaving), prior: prior.leaving)]
        if let design = HabitFit.design(s.byUser.map(\.habits), rates: prior.rates, streak: prior.streak) { designs.append(design) }
        if let design = CommitFit.design(s.byUser.map(\.commit), commit: prior.commit, lost: prior.held.lost) { designs.append(design) }
        if let design = EarningFit.design(s.byUser.map(\.earning), rates: prior.earnedRates, earning: prior.earning) {
            designs.append(design)
        }
        for d in designs.indices {
            let r = designs[d].response
            designs[d].held = Set(r.terms.indices.filter { prior.fixed.contains("\(r.name).\(r.terms[$0].name)") })
        }
        responses = try designs.map { try $0.fit(users: s.users) }
        // The unlock gate's choice, when the log has openings of the gate, and Pressure's
        // check-ins, when it has committed days (the users as one segment).
        if s.choices.openings > 0 { gate = try GateFit(s.choices, gate: prior.gate, price: prior.price) }
        let (counts, outside) = s.answers
        answers = try AnswerFit.fitted(counts, prior: prior.answers, held: prior.held, outside: outside, fixed: prior.fixed)
        failures = s.failures
        refusals = s.refusals
        heldOut = s.observed
        heldOutDays = s.observedDays
        heldOutStreaks = s.observedStreaks
        heldOutUnlockHours = s.observedUnlockHours
        (firstDay, days) = (s.firstDay, s.days)
        problems = s.problems + s.noDays
        if segments != .fixed(1), s.pooled {
            throw FitError("--segments fits each user's observations: these statistics hold the users' pooled (fit without --segments)")
        }
        try fitSegments(segments)
        if let laterDays {
            let mixture =
                self.segments.isEmpty
                ? nil
                : LaterDaysCheck.Mixture(
                    memberships: memberships,
                    byUser: designs.map { design in s.laterByUser.map { days in days.map { $0.counts(of: design, target: s.target) } } },
                    betas: designs.indices.map { d in self.segments.map { $0.responses[d].scaled } })
            later = LaterDaysCheck(
                days: laterDays, responses: responses,
                counts: designs.map { design in s.later.map { $0.counts(of: design, target: s.target) } },
                mixture: mixture, answers: answers.map { ($0, s.later.map(\.answers), prior.held) })
        }
    }

    /// What one user's replay gives the responses.
    struct User: Sendable {
        /// False: the user had no whole day before the log's end.
        var replayed: Bool
        /// Its first day (local) and the days counted.
        var firstDay: DayID
        var days: Int
        /// Its observations on the fit's days.
        var observations = FitObservations()
        var failures: RuleFailures
        var refusals: Refusals
        /// A held-out user's part for the metrics (``checked``).
        var heldOut: RolloutAnalysis.UserPart?
        /// A held-out user's unlocks by hour.
        var unlockHours: [Int] = []
        /// Its openings of the unlock gate.
        var gate = GateOpenings()
        /// Its observations on each of the later days held out (``LaterDaysCheck``).
        var later: [FitObservations] = []
    }

    /// The metrics a predictive check compares: the registry's ratios.
    package static let checked = RolloutAnalysis.measured(team: [])

    /// The response named `name`.
    package subscript(_ name: String) -> FittedResponse? { responses.first { $0.name == name } }

    /// The `--fix` names a fit can have whatever its log (`leaving.denied`), and the forms of those
    /// named by the log's tasks and habits (`habits.rate[TASK]`): for refusing a name before the fit.
    package static let fixableNames: (names: [String], forms: [String]) = (
        [LeavingFit.response, CommitFit.response, AnswerFit.response].flatMap { r in r.terms.map { "\(r.name).\($0.name)" } }
            + HabitFit.streakTerms.map { "habits.\($0.name)" } + ["\(EarningFit.name).\(EarningFit.boostTerm.name)"],
        ["habits.rate[TASK]", "\(EarningFit.name).earned.rate[HABIT]"]
    )

    /// Whether some fit can have a parameter named `name` (``fixableNames``).
    package static func canFix(_ name: String) -> Bool {
        fixableNames.names.contains(name)
            || fixableNames.forms.contains { form in
                let prefix = form.prefix { $0 != "[" } + "["
                return name.hasPrefix(prefix) && name.hasSuffix("]") && name.count > prefix.count + 1
            }
    }
}

extension PersonaFit {
    /// How many latent segments (``SegmentMixture``) the users are fitted as.
    package enum Segments: Sendable, Equatable {
        /// This many.
        case fixed(Int)
        /// From 1 to this many, the one with the least BIC.
        case best(upTo: Int)

        /// The most segments fitted.
        package static let most = 8
    }

    /// One segment of a mixture: its share of the users with its 95 % interval, and its responses.
    package struct Segment: Sendable {
        package var share: Double
        package var low: Double
        package var high: Double
        package var responses: [FittedResponse]
    }

    /// A number of segments tried: its fit's log-likelihood, free parameters and BIC, or why it
    /// could not be fitted.
    package struct Candidate: Sendable {
        package var segments: Int
        package var logLikelihood: Double?
        package var parameters: Int?
        package var bic: Double?
        /// EM's iterations from the best start.
        package var iterations: Int?
        package var failure: String?
    }

    /// Fits the mixtures `choice` asks for and keeps the chosen one in `segments` (none for a
    /// choice of one segment: `responses` is then the fit).
    mutating func fitSegments(_ choice: Segments) throws {
        let counts: [Int]
        switch choice {
        case .fixed(let k): counts = k == 1 ? [] : [k]
        case .best(let most): counts = Array(1...max(1, most))
        }
        guard !counts.isEmpty else { return }
        let free = responses.map { $0.parameters.map(\.identified) }
        var fits: [SegmentMixture] = []
        for k in counts {
            do {
                let mixture = try SegmentMixture(designs, free: free, segments: k)
                fits.append(mixture)
                candidates.append(
                    Candidate(
                        segments: k, logLikelihood: mixture.logLikelihood, parameters: mixture.parameters, bic: mixture.bic,
                        iterations: mixture.iterations))
            } catch {
                candidates.append(Candidate(segments: k, failure: "\(error)"))
            }
        }
        guard let chosen = fits.min(by: { ($0.bic, $0.segments) < ($1.bic, $1.segments) }) else {
            throw FitError("no number of segments could be fitted: " + candidates.compactMap(\.failure).joined(separator: "; "))
        }
        guard chosen.segments > 1 else { return }
        sampling = chosen.sampling
        memberships = chosen.memberships
        segments = (0..<chosen.segments).map { s in
            let share = chosen.shares[s]
            let responses = designs.indices.map { d in
                designs[d].response.fitted(
                    estimates: chosen.estimates[d][s], covariance: chosen.covariances[d][s],
                    reasons: self.responses[d].parameters.enumerated().map { j, p in
                        j < designs[d].bases && chosen.absent[d][s][j] ? "this segment's users have no observation of it" : p.reason
                    },
                    observed: "about \(Int(chosen.expectedUsers[s].rounded())) users; \(designs[d].observed) (all segments)",
                    observations: chosen.expected[d][s].observations, events: chosen.expected[d][s].events,
                    logLikelihood: chosen.logLikelihood)
            }
            return Segment(
                share: share.share, low: share.low, high: share.high,
                responses: zip(responses, designs).map { response, design in
                    var response = response
                    response.setup = design.setup
                    return response
                })
        }
    }
}

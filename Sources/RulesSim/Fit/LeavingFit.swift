import Foundation
import RulesEngine
import RulesModel
import Synchronization

/// The leaving response (``Responses/Leaving``) fitted to an event log (`rulesrun fit`): each user
/// is replayed through the rules it ran under (``LogUserTally``, as `analyze` replays it), which
/// gives each of its days what the response reads (unlocks denied, reminders, engagement, the tier
/// at the day's end), and whether the user left at its end (its last active day, before the log's
/// last day). The response is a logistic regression of those days: logit P(leave) = logit(base) +
/// denied × unlocks denied + high_tier × [tier ≥ 2] + reminders × reminders + engaged × [engaged],
/// fitted by maximum likelihood (``LogisticFit``), with 95 % Wald intervals.
package struct LeavingFit: Sendable {
    /// One parameter's estimate.
    package struct Parameter: Sendable {
        package var name: String
        package var estimate: Double
        package var low: Double
        package var high: Double
        /// False: the log cannot inform it; `estimate` is the prior (the persona's value).
        package var identified: Bool
        /// Why it is not identified.
        package var reason: String?
    }

    package var parameters: [Parameter]
    package var users: Int
    /// User-days observed (each a chance to leave), and the users who left.
    package var userDays: Int
    package var left: Int
    package var logLikelihood: Double
    /// Events a rule failed on while replaying.
    package var failures: RuleFailures
    /// The users' openings of the Earned unlock gate, read with the persona's preferences (``GateFit``).
    package var gateChoices: GateFit.Choices

    /// What each parameter's covariate is, in messages.
    static let covariates = ["", "an unlock denied", "tier 2 or 3 at its end", "a reminder", "engagement"]

    /// The parameters' names, as a persona file's `responses.leaving` has them.
    package static let names = ["base", "denied", "high_tier", "reminders", "engaged"]

    /// Fits the users of `input` (a log in memory, a database read a user at a time), each
    /// replayed under `folder`, or under `rollout`'s arm of its first exposure to the experiment
    /// (its control for a user without one); `prior`: the values of the parameters the log cannot
    /// inform. Users are replayed a chunk at a time on `jobs` threads; the fit is the same
    /// whatever their number.
    package init<Input: AnalysisInput>(
        input: inout Input, folder: String, rollout: Rollout? = nil, prior: Responses.Leaving = .init(), jobs: Int = 1,
        gate: EarnedPersona.Gate = .init()
    ) throws {
        let folders = rollout?.folders ?? [folder]
        let jobs = max(1, jobs)
        // Each worker's engines (one per arm), made once.
        let engines = try (0..<jobs).map { _ in
            try folders.map { folder -> Engine in
                let engine = Engine(rules: try RuleSet.load(folder, proving: false))
                // One user per batch: its rows are never written.
                engine.userID = { _ in UserID(1) }
                return engine
            }
        }
        let shared = Shared(engines)
        let end = input.end
        var counts: [LogisticFit.Pattern: (rows: Double, events: Double)] = [:]
        var failures = RuleFailures()
        var gateChoices = GateFit.Choices(preferences: gate)
        var fitted = 0, days = 0, left = 0
        while true {
            let chunk = try input.nextUsers(upTo: 2048)
            if chunk.isEmpty { break }
            let busy = min(jobs, chunk.count)
            let results = Mutex(Array(repeating: Part(gate: GateFit.Choices(preferences: gate)), count: busy))
            let failed = Mutex<(any Error)?>(nil)
            DispatchQueue.concurrentPerform(iterations: busy) { w in
                do {
                    var part = Part(gate: GateFit.Choices(preferences: gate))
                    for u in stride(from: w, to: chunk.count, by: busy) {
                        let user = chunk[u]
                        let arm = rollout.map { Self.arm(of: user.events, in: $0) } ?? 0
                        let tally = try LogUserTally(
                            name: user.name, events: user.events, exposure: nil, engine: shared.engines[w][arm], logEnd: end)
                        part.add(tally)
                    }
                    let mine = part
                    results.withLock { $0[w] = mine }
                } catch {
                    failed.withLock { $0 = $0 ?? error }
                }
            }
            if let error = failed.withLock({ $0 }) { throw error }
            for part in results.withLock({ $0 }) {
                for (pattern, c) in part.counts {
                    counts[pattern, default: (0, 0)].rows += c.rows
                    counts[pattern, default: (0, 0)].events += c.events
                }
                failures.add(part.failures)
                gateChoices.add(part.gate)
                fitted += part.users
                days += part.days
                left += part.left
            }
        }
        let base = min(max(prior.base, 1e-9), 1 - 1e-9)
        let fixed = [Foundation.log(base / (1 - base)), prior.denied, prior.highTier, prior.reminders, prior.engaged]
        let fit = try LogisticFit(counts, fixed: fixed)
        let z = Distribution.normalQuantile(0.975)
        func reason(_ j: Int) -> String? {
            if fit.identified[j] { return nil }
            if fit.events == 0 { return "no user left in the log" }
            if fit.events == fit.observations { return "every user observed left after its first day" }
            if let s = fit.separated[j] {
                let days = "user-day \(s.above ? "with" : "without") \(Self.covariates[j])"
                return s.none ? "no \(days) ended with the user leaving" : "every \(days) ended with the user leaving"
            }
            if fit.confounded[j] {
                let before = Self.names[..<j].enumerated().filter { fit.identified[$0.offset] }.map(\.element)
                return "in this log it follows \(before.joined(separator: ", ")): their effects cannot be told apart"
            }
            return "no user-day had \(Self.covariates[j])"
        }
        parameters = Self.names.indices.map { j in
            let e = fit.estimates[j], se = fit.standardErrors[j]
            var p = Parameter(
                name: Self.names[j], estimate: e, low: e - z * se, high: e + z * se, identified: fit.identified[j],
                reason: reason(j))
            if j == 0 {
                // The intercept is logit(base): its interval maps to base's.
                let sigmoid = { (x: Double) in 1 / (1 + exp(-x)) }
                (p.estimate, p.low, p.high) = (sigmoid(e), sigmoid(e - z * se), sigmoid(e + z * se))
            }
            return p
        }
        self.users = fitted
        userDays = days
        self.left = left
        logLikelihood = fit.logLikelihood
        self.failures = failures
        self.gateChoices = gateChoices
    }

    /// The arm of the user's first exposure to `rollout`'s experiment, its control without one.
    static func arm(of events: [EngineEvent], in rollout: Rollout) -> Int {
        for event in events {
            if let exposure = event.kind.exposure, exposure.experiment == rollout.experiment.name,
                let arm = rollout.armNames.firstIndex(of: exposure.arm)
            {
                return arm
            }
        }
        return 0
    }

    /// One worker's user-days, by pattern of covariates, of a chunk's users.
    private struct Part {
        var counts: [LogisticFit.Pattern: (rows: Double, events: Double)] = [:]
        var failures = RuleFailures()
        var users = 0, days = 0, left = 0
        var gate: GateFit.Choices

        /// A user's days but the last counted (a simulation does not ask then), up to its last active day.
        mutating func add(_ tally: LogUserTally) {
            failures.add(tally.failures)
            gate.add(tally.gate)
            guard let last = tally.lastDay, tally.days.count >= 2 else { return }
            users += 1
            for k in 0...min(last, tally.days.count - 2) {
                let day = tally.leavingDays[k]
                let pattern = LogisticFit.Pattern([1, Double(day.denied), day.tier >= 2 ? 1 : 0, Double(day.reminders), day.engaged ? 1 : 0])
                let leaves = k == last ? 1.0 : 0
                counts[pattern, default: (0, 0)].rows += 1
                counts[pattern, default: (0, 0)].events += leaves
                days += 1
                left += Int(leaves)
            }
        }
    }

    /// The workers' engines, each used only by its own worker.
    private final class Shared: @unchecked Sendable {
        let engines: [[Engine]]
        init(_ engines: [[Engine]]) { self.engines = engines }
    }
}

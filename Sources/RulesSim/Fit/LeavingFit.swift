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

    /// What each parameter's covariate is, in messages.
    static let covariates = ["", "an unlock denied", "tier 2 or 3 at its end", "a reminder", "engagement"]

    /// The parameters' names, as a persona file's `responses.leaving` has them.
    package static let names = ["base", "denied", "high_tier", "reminders", "engaged"]

    /// Fits the users of `log`, each replayed under `folders[arm(user)]`; `prior`: the values of
    /// the parameters the log cannot inform.
    package init(
        log: EventLog, folders: [String], arm: @Sendable (String) -> Int, prior: Responses.Leaving = .init(), jobs: Int = 1
    ) throws {
        let users = log.users
        let jobs = max(1, min(jobs, users.count))
        let results = Mutex(Array(repeating: ([LogisticFit.Pattern: (rows: Double, events: Double)](), RuleFailures(), 0, 0, 0), count: jobs))
        let failed = Mutex<(any Error)?>(nil)
        let end = log.end
        DispatchQueue.concurrentPerform(iterations: jobs) { w in
            do {
                let engines = try folders.map { folder -> Engine in
                    let engine = Engine(rules: try RuleSet.load(folder, proving: false))
                    // One user per batch: its rows are never written.
                    engine.userID = { _ in UserID(1) }
                    return engine
                }
                var counts: [LogisticFit.Pattern: (rows: Double, events: Double)] = [:]
                var failures = RuleFailures()
                var fitted = 0, days = 0, left = 0
                for u in stride(from: w, to: users.count, by: jobs) {
                    let user = users[u]
                    let tally = try LogUserTally(name: user, events: log.events[user]!, exposure: nil, engine: engines[arm(user)], logEnd: end)
                    failures.add(tally.failures)
                    guard let last = tally.lastDay, tally.days.count >= 2 else { continue }
                    fitted += 1
                    // Simulate asks at the end of each day but the last: the last is censored.
                    for k in 0...min(last, tally.days.count - 2) {
                        let day = tally.leavingDays[k]
                        let pattern = LogisticFit.Pattern([
                            1, Double(day.denied), day.tier >= 2 ? 1 : 0, Double(day.reminders), day.engaged ? 1 : 0,
                        ])
                        let leaves = k == last ? 1.0 : 0
                        counts[pattern, default: (0, 0)].rows += 1
                        counts[pattern, default: (0, 0)].events += leaves
                        days += 1
                        left += Int(leaves)
                    }
                }
                let mine = (counts, failures, fitted, days, left)
                results.withLock { $0[w] = mine }
            } catch {
                failed.withLock { $0 = $0 ?? error }
            }
        }
        if let error = failed.withLock({ $0 }) { throw error }
        var counts: [LogisticFit.Pattern: (rows: Double, events: Double)] = [:]
        var failures = RuleFailures()
        var fitted = 0, days = 0, left = 0
        for part in results.withLock({ $0 }) {
            for (pattern, c) in part.0 {
                counts[pattern, default: (0, 0)].rows += c.rows
                counts[pattern, default: (0, 0)].events += c.events
            }
            failures.add(part.1)
            fitted += part.2
            days += part.3
            left += part.4
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
    }
}

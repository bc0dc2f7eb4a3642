import Foundation
import RulesModel

/// Pressure's commitment as `rulesrun fit` estimates it: each day that counts (the user existed
/// at its deadline), up to the user's last active day, is one observation, committed or not, with
/// logit P(commit) = logit(commit) + lost_streak × [within lost_streak.days days after a streak of
/// at least lost_streak.min_streak days was lost] — the persona's `commit` and `lost_streak.commit`
/// (a simulation adds the latter to the former: the persona file gets the difference the fitted
/// log-odds make, so the two agree). `min_streak` and `days` (thresholds) are held at the persona's.
enum CommitFit {
    static let response = LogisticResponse(
        name: "commit",
        model: "logit P(commit on a day that counts) = logit(commit) + lost_streak × [within lost_streak.days days of a lost streak"
            + " of at least lost_streak.min_streak days] (the persona's lost_streak.commit: the probability this adds)",
        terms: [
            .init(name: "commit", lua: "persona.commit = %@", covariate: "", probability: true),
            .init(
                name: "lost_streak", lua: "persona.lost_streak.commit = \(probabilityAdded(to: "persona.commit"))",
                covariate: "a streak lost recently"),
        ],
        observation: "day that counts", outcome: "had a commitment")

    /// The Lua expression of the probability that adding `%@` to the log-odds of `base` adds.
    static func probabilityAdded(to base: String) -> String {
        "1 / (1 + math.exp(-(math.log(\(base) / (1 - \(base))) + %@))) - \(base)"
    }

    /// The statement that makes the persona's `lost_streak` a table its values can be set in.
    static let setup = "persona.lost_streak = persona.lost_streak or {}"

    /// Per day of `days`: whether it is within `lost.days` days after one on which the user lost a
    /// streak of at least `lost.minStreak` days (the day after the loss is the first).
    static func windows(_ days: [LogUserTally.PressureDay], lost: PersonaSpec.LostStreak) -> [Bool] {
        var lostOn: Int?
        return days.indices.map { d in
            defer { if days[d].lost >= max(1, lost.minStreak) { lostOn = d } }
            return lostOn.map { d - $0 <= lost.days } ?? false
        }
    }

    /// One user's observations: its days that count, up to its last active day (those of `days` only);
    /// `window`: its ``windows(_:lost:)``.
    static func counts(_ tally: LogUserTally, window: [Bool], days: Range<Int>) -> LogisticFit.Counts {
        var counts = LogisticFit.Counts()
        guard let last = tally.lastDay, !tally.pressureDays.isEmpty else { return counts }
        for k in 0...min(last, tally.pressureDays.count - 1) where days.contains(k) {
            let day = tally.pressureDays[k]
            guard day.seen, day.counts else { continue }
            let pattern = LogisticFit.Pattern([1, window[k] ? 1 : 0])
            counts[pattern, default: (0, 0)].rows += 1
            counts[pattern, default: (0, 0)].events += day.committed ? 1 : 0
        }
        return counts
    }

    /// The design of the users' observations (each user's `counts`; nil when no user had a day
    /// that counts), `commit` and `lost` the persona's (the priors).
    static func design(_ users: [LogisticFit.Counts], commit: Double, lost: PersonaSpec.LostStreak) -> ResponseDesign? {
        let pooled = ResponseDesign.pooled(users)
        guard !pooled.isEmpty else { return nil }
        let days = Int(pooled.values.reduce(0) { $0 + $1.rows }), made = Int(pooled.values.reduce(0) { $0 + $1.events })
        let within = Int(pooled.filter { $0.key.x[1] != 0 }.values.reduce(0) { $0 + $1.rows })
        let base = LogisticResponse.logit(commit)
        return ResponseDesign(
            response: response, prior: [base, LogisticResponse.logit(commit + lost.commit) - base], bases: 1,
            observed: "days that count: \(days), with a commitment: \(made); within \(lost.days) days of a lost streak: \(within)",
            setup: setup, users: users)
    }
}

import Foundation
import RulesModel

/// A check of a fit on days it did not see (`fit --check days:D`): the log's last D days of every
/// user are left out of the fit; each user is still replayed through them (its state on them is
/// the rules' own), and each choice a response models on them (a user-day that ends with leaving or
/// not, a planned completion made or not) is predicted from the fitted parameters and that state:
/// the events expected are the sum of the choices' probabilities, against those observed. The
/// difference's 95 % interval counts the choices' own chance (a sum of Bernoulli variances) and the
/// parameters' uncertainty (the delta method through the fit's covariance), widened by half a count
/// (the continuity correction of a whole number's normal interval); one that leaves 0 out is
/// a change the fitted responses do not reproduce (users who tire, a novelty that wears off).
package struct LaterDaysCheck: Sendable {
    /// The days held out.
    package var days: Int
    /// The most days `--check days:D` holds out.
    package static let maxDays = 365
    /// Per response: its choices on the days held out, or why there is none to check.
    package var rows: [Row]

    /// One response's choices on the days held out.
    package struct Row: Sendable {
        package var response: String
        /// All the days': choices, events observed, events expected, the difference's interval.
        package var total: Day
        /// Day by day (the first held out first).
        package var byDay: [Day]
        package var reason: String?
    }

    /// The choices of one day (or of all), the events observed and expected, and the 95 %
    /// interval of observed − expected.
    package struct Day: Sendable {
        package var choices: Double
        package var observed: Double
        package var expected: Double
        package var low: Double
        package var high: Double

        /// Whether the interval leaves 0 out.
        package var differs: Bool { low > 0 || high < 0 }
    }

    /// `counts`: per response (in the order of `responses`), per day held out, the choices by
    /// pattern of covariates (in the order of the response's terms). `segments`: the segments of
    /// the fit (with more than one, the check is not made: each user's segment is not known).
    /// `answers`: Pressure's check-in response with its committed days on each day held out (a
    /// committed day answered or missed is its choice).
    /// `mixture`: the segments, when the fit has more than one (each user's choices are then
    /// expected from its chances of being in each).
    init(
        days: Int, responses: [FittedResponse], counts: [[LogisticFit.Counts]], mixture: Mixture? = nil,
        answers: (response: FittedResponse, byDay: [AnswerFit.Counts], held: AnswerFit.Held)? = nil
    ) {
        self.days = days
        rows = zip(responses, counts).enumerated().map { d, pair in
            let (response, byDay) = pair
            if let reason = Self.unchecked(response) { return Row(response: response.name, total: .empty, byDay: [], reason: reason) }
            if let mixture {
                let users = mixture.byUser[d], betas = mixture.betas[d]
                let total = mixture.day(users.map { ResponseDesign.pooled($0) }, betas: betas)
                return Row(
                    response: response.name, total: total,
                    byDay: (0..<days).map { j in mixture.day(users.map { $0.isEmpty ? [:] : $0[j] }, betas: betas) },
                    reason: total.choices == 0 ? "no choice of this response on the days held out" : nil)
            }
            let beta = response.scaled
            let days = byDay.map { Self.day($0, beta: beta, covariance: response.covariance) }
            let total = Self.day(ResponseDesign.pooled(byDay), beta: beta, covariance: response.covariance)
            return Row(
                response: response.name, total: total, byDay: days,
                reason: total.choices == 0 ? "no choice of this response on the days held out" : nil)
        }
        if let (response, byDay, held) = answers {
            if let reason = Self.unchecked(response) {
                rows.append(Row(response: response.name, total: .empty, byDay: [], reason: reason))
            } else {
                let total = Self.day(answered: byDay.reduce(into: AnswerFit.Counts()) { $0.merge($1, uniquingKeysWith: +) }, response, held)
                rows.append(
                    Row(
                        response: response.name, total: total, byDay: byDay.map { Self.day(answered: $0, response, held) },
                        reason: total.choices == 0 ? "no committed day on the days held out" : nil))
            }
        }
    }

    /// Why `response` is not checked: no parameter identified (the fit predicts nothing: the
    /// persona's values are kept).
    static func unchecked(_ response: FittedResponse) -> String? {
        response.parameters.contains(where: \.identified) ? nil : "no parameter identified: the fit predicts nothing"
    }

    /// A fit's segments as the later days' check reads them: each user's chances of being in each
    /// (given its choices on the fit's days), per response each user's choices on each later day
    /// (`byUser[response][user][day]`, the users in the fit's order), and each segment's parameters.
    struct Mixture {
        var memberships: [[Double]]
        var byUser: [[[LogisticFit.Counts]]]
        var betas: [[[Double]]]

        /// The events expected of `users`' choices (one entry per user, in the fit's order): each
        /// user's, its segments' expectations weighed by its chances of being in each; the variance
        /// of a user's count that of a mixture (Σ w (V + E²) − (Σ w E)², its choices dependent
        /// through its segment). The parameters' own uncertainty is not counted.
        func day(_ users: [LogisticFit.Counts], betas: [[Double]]) -> Day {
            var n = 0.0, y = 0.0, e = 0.0, variance = 0.0
            for (u, counts) in users.enumerated() where !counts.isEmpty {
                // In a fixed order: the same sums, to the last bit, every run.
                let patterns = counts.keys.sorted { $0.x.lexicographicallyPrecedes($1.x) }
                var mean = 0.0, second = 0.0
                for (s, beta) in betas.enumerated() {
                    var es = 0.0, vs = 0.0
                    for pattern in patterns {
                        let c = counts[pattern]!
                        let eta = zip(beta, pattern.x).reduce(0) { $0 + $1.0 * $1.1 }
                        let p = 1 / (1 + exp(-eta))
                        (es, vs) = (es + c.rows * p, vs + c.rows * p * (1 - p))
                    }
                    let w = memberships[u][s]
                    (mean, second) = (mean + w * es, second + w * (vs + es * es))
                }
                n += counts.values.reduce(0) { $0 + $1.rows }
                y += counts.values.reduce(0) { $0 + $1.events }
                e += mean
                variance += max(0, second - mean * mean)
            }
            return LaterDaysCheck.interval(choices: n, observed: y, expected: e, chance: variance, gradient: [], covariance: [])
        }
    }

    /// The committed days of `counts` answered (not missed), expected from the check-in response
    /// at its estimates (``AnswerFit``), and the interval of observed − expected.
    static func day(answered counts: AnswerFit.Counts, _ response: FittedResponse, _ held: AnswerFit.Held) -> Day {
        let theta = response.scaled
        let th = AnswerFit.parameters(theta)
        var n = 0.0, y = 0.0, e = 0.0, chance = 0.0
        var gradient = SIMD16<Double>.zero
        for schedule in AnswerFit.schedules(counts, held: held) {
            let missed = AnswerFit.Chances(schedule, th).missed
            let days = schedule.outcomes.reduce(0) { $0 + $1.days }, p = 1 - missed.v
            n += days
            y += schedule.outcomes.reduce(0) { $0 + ($1.answer == nil ? 0 : $1.days) }
            e += days * p
            chance += days * p * (1 - p)
            gradient -= missed.g * days
        }
        return interval(
            choices: n, observed: y, expected: e, chance: chance, gradient: theta.indices.map { gradient[$0] },
            covariance: response.covariance)
    }

    /// The expected events of `counts` at `beta` (log-odds) and the interval of observed − expected.
    static func day(_ counts: LogisticFit.Counts, beta: [Double], covariance: [[Double]]) -> Day {
        var n = 0.0, y = 0.0, e = 0.0, chance = 0.0
        var gradient = Array(repeating: 0.0, count: beta.count)
        for pattern in counts.keys.sorted(by: { $0.x.lexicographicallyPrecedes($1.x) }) {
            let c = counts[pattern]!
            let eta = zip(beta, pattern.x).reduce(0) { $0 + $1.0 * $1.1 }
            let p = 1 / (1 + exp(-eta))
            n += c.rows
            y += c.events
            e += c.rows * p
            chance += c.rows * p * (1 - p)
            for j in pattern.x.indices where pattern.x[j] != 0 { gradient[j] += c.rows * p * (1 - p) * pattern.x[j] }
        }
        return interval(choices: n, observed: y, expected: e, chance: chance, gradient: gradient, covariance: covariance)
    }

    /// The day of `choices` with `observed` events where `expected` were, the choices' own
    /// variance `chance`, and the expected count's `gradient` in the parameters of this `covariance`.
    static func interval(
        choices n: Double, observed y: Double, expected e: Double, chance: Double, gradient: [Double], covariance: [[Double]]
    ) -> Day {
        var parameters = 0.0
        for i in gradient.indices where i < covariance.count {
            for j in gradient.indices where j < covariance[i].count { parameters += gradient[i] * covariance[i][j] * gradient[j] }
        }
        // The count observed is a whole number: the normal interval widened by half a count (the
        // continuity correction), which matters where few events are expected (a few users leaving).
        let half = Distribution.normalQuantile(0.975) * (chance + max(0, parameters)).squareRoot() + 0.5
        return Day(choices: n, observed: y, expected: e, low: y - e - half, high: y - e + half)
    }
}

extension LaterDaysCheck.Day {
    static let empty = Self(choices: 0, observed: 0, expected: 0, low: 0, high: 0)

    var json: JSONValue {
        .object([
            ("choices", .double(choices)), ("observed", .double(observed)), ("expected", .double(expected)),
            ("low", .double(low)), ("high", .double(high)), ("agrees", .bool(!differs)),
        ])
    }
}

extension LaterDaysCheck {
    /// The section of the text report.
    package var text: String {
        var out = "\ncheck on days the fit did not see: the log's last \(days) day\(days == 1 ? "" : "s") of each user held out;"
        out += " each choice on them predicted from the fit and the user's state as replayed\n"
        return out + PersonaFit.table([Self.header] + tableRows, left: [0, 6])
    }

    /// The table of the text and HTML reports: its header, and a row per response.
    static let header = ["response", "choices", "observed", "expected", "difference", "95% interval", ""]
    var tableRows: [[String]] {
        rows.map { row in
            guard row.reason == nil else { return [row.response, "–", "–", "–", "–", "–", row.reason ?? ""] }
            let t = row.total
            return [
                row.response, String(format: "%.0f", t.choices), String(format: "%.0f", t.observed), String(format: "%.1f", t.expected),
                String(format: "%+.1f", t.observed - t.expected), String(format: "[%+.1f, %+.1f]", t.low, t.high),
                t.differs ? "differs" : "agrees",
            ]
        }
    }

    /// The section of the JSON report.
    package var json: JSONValue {
        .object([
            ("days", .int(days)),
            (
                "responses",
                .array(
                    rows.map { row in
                        var members: [(String, JSONValue)] = [("response", .string(row.response))]
                        if let reason = row.reason {
                            members.append(("reason", .string(reason)))
                        } else {
                            members += [("total", row.total.json), ("by_day", .array(row.byDay.map(\.json)))]
                        }
                        return .object(members)
                    })
            ),
        ])
    }
}

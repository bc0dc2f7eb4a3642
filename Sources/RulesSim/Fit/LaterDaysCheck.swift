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
    init(days: Int, responses: [FittedResponse], counts: [[LogisticFit.Counts]], segments: Int) {
        self.days = days
        rows = zip(responses, counts).map { response, byDay in
            guard segments <= 1 else {
                return Row(
                    response: response.name, total: Day.empty, byDay: [],
                    reason: "not made with \(segments) segments (each user's segment is not known)")
            }
            let beta = response.scaled
            let days = byDay.map { Self.day($0, beta: beta, covariance: response.covariance) }
            let total = Self.day(ResponseDesign.pooled(byDay), beta: beta, covariance: response.covariance)
            return Row(
                response: response.name, total: total, byDay: days,
                reason: total.choices == 0 ? "no choice of this response on the days held out" : nil)
        }
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

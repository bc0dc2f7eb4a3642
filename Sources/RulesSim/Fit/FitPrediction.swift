import Foundation
import RulesEngine
import RulesModel

/// The prediction of a fit under another rule set (`fit --predict RULES`): a new cohort of the
/// fitted population — as many users as asked, from a start over some days — simulated under the
/// rules from the fitted personas (``FittedCohort``) once per draw of their parameters
/// (``PersonaFit/drawn(seed:draw:)``), each draw with its own simulation seed; each metric of the
/// registry gives one value per draw. The prediction is the draws' mean, with the 95 % predictive
/// interval mean ± t(0.975, R − 1) × sd × √(1 + 1/R) of R draws: the interval a normal sample of R
/// gives for one more value (the truth: one cohort, whose parameters and users are as uncertain
/// as a draw's). With a baseline (the log's rules), each draw is simulated under both with the
/// same parameters and seed (common random numbers), and the difference is predicted the same way.
package struct FitPrediction: Sendable {
    /// One prediction: the draws' mean and standard deviation, the interval, and the draws that
    /// gave a value.
    package struct Estimate: Sendable {
        package var mean: Double
        package var sd: Double
        package var low: Double
        package var high: Double
        package var draws: Int

        /// Of `values`, nil with fewer than 2.
        init?(_ values: [Double]) {
            let r = values.count
            guard r >= 2 else { return nil }
            mean = values.reduce(0, +) / Double(r)
            let m = mean
            sd = (values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(r - 1)).squareRoot()
            let half = Distribution.tQuantile(0.975, degreesOfFreedom: Double(r - 1)) * sd * (1 + 1 / Double(r)).squareRoot()
            (low, high, draws) = (mean - half, mean + half, r)
        }

        var json: JSONValue {
            .object([
                ("mean", .double(mean)), ("sd", .double(sd)), ("low", .double(low)), ("high", .double(high)),
                ("draws", .int(draws)),
            ])
        }
    }

    /// One metric: under the rules, under the baseline's, and the difference.
    package struct Row: Sendable {
        package var metric: Metric
        package var predicted: Estimate?
        package var baseline: Estimate?
        package var difference: Estimate?
    }

    /// The rule set (as named), and the baseline's (nil: none).
    package var rules: String
    package var baseline: String?
    package var users: Int
    package var start: DayID
    package var days: Int
    package var draws: Int
    package var rows: [Row]

    /// The draws by default, and the most draws and days.
    package static let defaultDraws = 40
    package static let maxDraws = 1000
    package static let maxDays = 366

    /// The stream of each draw's simulation seed ("COHORT").
    static let cohortStream: UInt64 = 0x434F_484F_5254

    /// Predicts `metrics` under `rules` (and `baseline`) for `users` users from `start` over
    /// `days` days, from `draws` draws of `fit` (`seed`: the draws' and, through them, each
    /// simulation's; the same prediction every run, whatever the jobs).
    package init(
        fit: PersonaFit, cohort: FittedCohort, rules: (name: String, replay: ArmReplay),
        baseline: (name: String, replay: ArmReplay)?, users: Int, start: DayID, days: Int, draws: Int, seed: UInt64,
        metrics: [Metric]
    ) throws {
        var predicted = metrics.map { _ in [Double]() }, before = predicted, difference = predicted
        for r in 0..<draws {
            let drawn = fit.drawn(seed: seed, draw: r)
            var random = SimRandom(seed: seed, user: r, stream: Self.cohortStream)
            let simulationSeed = UInt64(random.unit() * 0x1p53)
            let simulate = { (replay: ArmReplay) in
                try cohort.counted(
                    drawn, users: users, replay: replay, start: start, days: days, seed: simulationSeed, metrics: metrics
                ).moments
            }
            let b = try simulate(rules.replay)
            let a = try baseline.map { try simulate($0.replay) }
            for m in metrics.indices {
                if let value = b[m].value { predicted[m].append(value) }
                if let value = a?[m].value {
                    before[m].append(value)
                    if let b = b[m].value { difference[m].append(b - value) }
                }
            }
        }
        self.rules = rules.name
        self.baseline = baseline?.name
        (self.users, self.start, self.days, self.draws) = (users, start, days, draws)
        rows = metrics.indices.compactMap { m in
            let row = Row(
                metric: metrics[m], predicted: Estimate(predicted[m]), baseline: Estimate(before[m]),
                difference: Estimate(difference[m]))
            return row.predicted == nil && row.baseline == nil ? nil : row
        }
    }
}

extension FitPrediction {
    /// The section of the text report.
    package var text: String {
        var out = "\nprediction under \(rules): \(users) users simulated from the fitted personas"
        out += " from \(start.rawValue) over \(days) days,"
        out += " \(draws) draws of their parameters"
        out += baseline.map { "; the baseline A: \($0) (the same draws and seeds)\n" } ?? "\n"
        out += PersonaFit.table([header] + tableRows, left: [0])
        out += "(each: the draws' mean, and mean ± t × sd × √(1 + 1/draws), the 95% interval of a new cohort's value)\n"
        return out
    }

    /// The table of the text and HTML reports: its header (A and B − A with a baseline), and a row per metric.
    var header: [String] {
        ["metric"] + (baseline == nil ? [] : ["A", "95% interval"]) + ["B", "95% interval"]
            + (baseline == nil ? [] : ["B − A", "95% interval"])
    }

    var tableRows: [[String]] {
        let shown = { (m: Metric, e: Estimate?, signed: Bool) -> [String] in
            guard let e else { return ["–", ""] }
            let f = { (x: Double) in signed ? PredictiveCheck.signed(m, x) : m.format(x) }
            return [f(e.mean), "[\(f(e.low)), \(f(e.high))]"]
        }
        return rows.map { row in
            var line = [row.metric.label]
            if baseline != nil { line += shown(row.metric, row.baseline, false) }
            line += shown(row.metric, row.predicted, false)
            if baseline != nil { line += shown(row.metric, row.difference, true) }
            return line
        }
    }

    /// The section of the JSON report.
    package var json: JSONValue {
        let metrics: [JSONValue] = rows.map { row in
            var members: [(String, JSONValue)] = [("id", .string(row.metric.id)), ("label", .string(row.metric.label))]
            if let e = row.predicted { members.append(("predicted", e.json)) }
            if let e = row.baseline { members.append(("baseline", e.json)) }
            if let e = row.difference { members.append(("difference", e.json)) }
            return .object(members)
        }
        var members: [(String, JSONValue)] = [("rules", .string(rules))]
        if let baseline { members.append(("baseline", .string(baseline))) }
        members += [
            ("users", .int(users)), ("start", .string(start.rawValue)), ("days", .int(days)), ("draws", .int(draws)),
            ("metrics", .array(metrics)),
        ]
        return .object(members)
    }
}

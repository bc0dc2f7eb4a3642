import Foundation
import RulesModel

extension PredictiveCheck {
    /// A metric day by day (each user's own days from its first): the held-out users' values and
    /// the simulated users' (nil: no user of the metric's app that day).
    package struct Curve: Sendable {
        package var metric: Metric
        package var observed: [Double?]
        package var simulated: [Double?]
    }

    /// The per-day metrics of the registry (the habit tracker's completion rate among them) of the
    /// apps the held-out or the simulated users use, day by day.
    package var curves: [Curve] {
        let apps = Metric.apps(of: [observedDays, simulatedDays].map(RolloutAnalysis.UserPart.summary))
        let metrics = (MetricRegistry.perDay + [.habitCompletionRate]).filter { $0.day != nil && apps.contains($0.app) }
        let days = max(observedDays.count, simulatedDays.count)
        func values(_ metric: Metric, _ totals: [DayTotals]) -> [Double?] {
            (0..<days).map { d in d < totals.count && Self.uses(totals[d], metric.app) ? metric.day!(totals[d]) : nil }
        }
        return metrics.map { Curve(metric: $0, observed: values($0, observedDays), simulated: values($0, simulatedDays)) }
    }

    /// Whether a day's totals count users of `app`.
    static func uses(_ day: DayTotals, _ app: Metric.App) -> Bool {
        switch app {
        case .pressure: day.pressureUsers > 0
        case .habits: day.habitPlanned > 0
        case .miga: day.migaUsers > 0
        case .earned: day.earned.users > 0
        case .cohort: day.users > 0
        }
    }

    /// The curves in the JSON report: per metric, the two series (null: no user that day).
    var curvesJSON: JSONValue {
        func series(_ values: [Double?]) -> JSONValue { .array(values.map { $0.map(JSONValue.double) ?? .null }) }
        return .array(
            curves.map { c in
                .object([
                    ("id", .string(c.metric.id)), ("label", .string(c.metric.label)), ("observed", series(c.observed)),
                    ("simulated", series(c.simulated)),
                ])
            })
    }
}

extension PredictiveCheck {
    /// The Pressure users still there at the log's end by their streak then, in buckets (`0`, `1-2`,
    /// … `30+`), held out and simulated, with Pearson's chi-square test that the two come from one
    /// distribution (over the buckets with a user; it differs at p < 0.05).
    package struct StreakDistribution: Sendable {
        package var buckets: [String]
        package var observed: [Int]
        package var simulated: [Int]
        package var chiSquare: Double
        package var degreesOfFreedom: Int
        package var pValue: Double
        package var differs: Bool { pValue < 0.05 }
    }

    /// Nil when the held-out or the simulated users have no Pressure user.
    package var finalStreaks: StreakDistribution? {
        let o = ReportSummary.streakBuckets(observedStreaks), s = ReportSummary.streakBuckets(simulatedStreaks)
        let no = Double(o.reduce(0) { $0 + $1.1 }), ns = Double(s.reduce(0) { $0 + $1.1 })
        guard no > 0, ns > 0 else { return nil }
        var chi = 0.0, used = 0
        for (a, b) in zip(o.map(\.1), s.map(\.1)) where a + b > 0 {
            used += 1
            let column = Double(a + b), ea = column * no / (no + ns), eb = column * ns / (no + ns)
            chi += (Double(a) - ea) * (Double(a) - ea) / ea + (Double(b) - eb) * (Double(b) - eb) / eb
        }
        let df = max(used - 1, 0)
        return StreakDistribution(
            buckets: o.map(\.0), observed: o.map(\.1), simulated: s.map(\.1), chiSquare: chi, degreesOfFreedom: df,
            pValue: df == 0 ? 1 : Distribution.chiSquareSurvival(chi, degreesOfFreedom: Double(df)))
    }
}

extension PredictiveCheck.StreakDistribution {
    /// The line of the text report.
    var text: String {
        func list(_ counts: [Int]) -> String { zip(buckets, counts).map { "\($0) \($1)" }.joined(separator: ", ") }
        return "Pressure streak at the log's end (users still there, by days): held out \(list(observed)); simulated \(list(simulated));"
            + " chi-square \(String(format: "%.2f", chiSquare)), \(degreesOfFreedom) df, p = \(String(format: "%.3g", pValue)): "
            + (differs ? "differs" : "agrees") + "\n"
    }

    var json: JSONValue {
        .object([
            ("buckets", .array(buckets.map(JSONValue.string))), ("observed", .array(observed.map(JSONValue.int))),
            ("simulated", .array(simulated.map(JSONValue.int))), ("chi_square", .double(chiSquare)), ("df", .int(degreesOfFreedom)),
            ("p_value", .double(pValue)), ("agrees", .bool(!differs)),
        ])
    }
}

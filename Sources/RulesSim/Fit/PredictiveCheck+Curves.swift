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
    /// Held-out and simulated counts over the same buckets (the Pressure users still there at the
    /// log's end by their streak then; the unlocks by hour), with Pearson's chi-square test of
    /// homogeneity, that the two come from one distribution (over the buckets with a count; it
    /// differs at p < 0.05).
    package struct BucketComparison: Sendable {
        /// What is counted, in the report's line ("Pressure streak at the log's end (users still there, by days)").
        package var title: String
        package var buckets: [String]
        package var observed: [Int]
        package var simulated: [Int]
        package var chiSquare: Double
        package var degreesOfFreedom: Int
        package var pValue: Double
        package var differs: Bool { pValue < 0.05 }

        /// Nil when either side counts nothing.
        init?(_ title: String, buckets: [String], observed o: [Int], simulated s: [Int]) {
            let no = Double(o.reduce(0, +)), ns = Double(s.reduce(0, +))
            guard no > 0, ns > 0 else { return nil }
            var chi = 0.0, used = 0
            for (a, b) in zip(o, s) where a + b > 0 {
                used += 1
                let column = Double(a + b), ea = column * no / (no + ns), eb = column * ns / (no + ns)
                chi += (Double(a) - ea) * (Double(a) - ea) / ea + (Double(b) - eb) * (Double(b) - eb) / eb
            }
            let df = max(used - 1, 0)
            (self.title, self.buckets, observed, simulated) = (title, buckets, o, s)
            (chiSquare, degreesOfFreedom) = (chi, df)
            pValue = df == 0 ? 1 : Distribution.chiSquareSurvival(chi, degreesOfFreedom: Double(df))
        }
    }

    /// The Pressure users still there at the log's end by their streak then, in buckets (`0`,
    /// `1-2`, … `30+`); nil when the held-out or the simulated users have no Pressure user.
    package var finalStreaks: BucketComparison? {
        let o = ReportSummary.streakBuckets(observedStreaks), s = ReportSummary.streakBuckets(simulatedStreaks)
        return BucketComparison(
            "Pressure streak at the log's end (users still there, by days)", buckets: o.map(\.0), observed: o.map(\.1),
            simulated: s.map(\.1))
    }

    /// The least held-out and simulated unlocks together in one bucket of hours.
    static let unlocksPerBucket = 20

    /// The unlocks granted by the local hour of the event that granted them, adjacent hours pooled
    /// (from midnight on) until each bucket has ``unlocksPerBucket`` of both sides' together (the
    /// chi-square's approximation wants no small expected count; the rest joins the last bucket);
    /// nil when the held-out or the simulated users had none.
    package var unlockHours: BucketComparison? {
        var buckets: [(first: Int, last: Int, o: Int, s: Int)] = []
        var open: (first: Int, o: Int, s: Int)?
        for h in 0..<24 {
            var b = open ?? (h, 0, 0)
            (b.o, b.s) = (b.o + observedUnlockHours[h], b.s + simulatedUnlockHours[h])
            open = b
            if b.o + b.s >= Self.unlocksPerBucket {
                buckets.append((b.first, h, b.o, b.s))
                open = nil
            }
        }
        if let rest = open {
            if buckets.isEmpty {
                buckets.append((rest.first, 23, rest.o, rest.s))
            } else {
                buckets[buckets.count - 1].last = 23
                (buckets[buckets.count - 1].o, buckets[buckets.count - 1].s) = (buckets.last!.o + rest.o, buckets.last!.s + rest.s)
            }
        }
        return BucketComparison(
            "Unlocks by hour (local, of the event that granted them)",
            buckets: buckets.map {
                $0.first == $0.last ? String(format: "%02d", $0.first) : String(format: "%02d-%02d", $0.first, $0.last)
            },
            observed: buckets.map(\.o), simulated: buckets.map(\.s))
    }
}

extension PredictiveCheck.BucketComparison {
    /// The line of the text report.
    var text: String {
        func list(_ counts: [Int]) -> String { zip(buckets, counts).map { "\($0) \($1)" }.joined(separator: ", ") }
        return "\(title): held out \(list(observed)); simulated \(list(simulated));"
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

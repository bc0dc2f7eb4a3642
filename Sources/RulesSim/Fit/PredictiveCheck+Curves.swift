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

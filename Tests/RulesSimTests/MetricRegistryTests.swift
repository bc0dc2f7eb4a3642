import Foundation
import RulesSim
import Testing

/// The one registry of a run's figures (``MetricRegistry``): what its lists hold, and that a metric
/// reported both for the whole run and per day is one figure.
@Suite struct MetricRegistryTests {
    @Test func everyMetricHasOneSnakeCaseIdAndOneLabel() throws {
        let all = MetricRegistry.all
        #expect(Set(all.map(\.id)).count == all.count)
        #expect(Set(all.map(\.label)).count == all.count)
        for metric in all {
            #expect(metric.id.range(of: "^[a-z][a-z0-9]*(_[a-z0-9]+)*$", options: .regularExpression) != nil, "\(metric.id)")
            // A label is not another metric's id, so that `sweep --metric` finds one metric by either.
            #expect(!all.contains { $0.id == metric.label && $0.id != metric.id }, "\(metric.label)")
        }
        let keys = MetricRegistry.perDay.map(\.seriesKey)
        #expect(Set(keys).count == keys.count)
    }

    @Test func eachListHasTheValuesItPrints() {
        for metric in MetricRegistry.summary + MetricRegistry.watch { #expect(metric.summary != nil, "\(metric.id)") }
        for metric in MetricRegistry.perDay { #expect(metric.day != nil, "\(metric.id)") }
        for chart in DayMetricChart.all {
            for line in chart.lines { #expect(MetricRegistry.perDay.contains { $0.id == line.metric.id }, "\(line.metric.id)") }
        }
        // A report lists the metrics of the apps its users use.
        let withoutEarned = MetricRegistry.only(MetricRegistry.summary, apps: [.pressure, .habits, .miga])
        #expect(!withoutEarned.contains { $0.app == .earned } && withoutEarned.contains { $0.app == .miga })
        let all = MetricRegistry.only(MetricRegistry.summary, apps: Set(Metric.App.allCases))
        #expect(all.count == MetricRegistry.summary.count)
    }

    /// A one-day run: a metric with both values has the same value for the run and for its only day
    /// (one figure under one label, whether reported for a run or day by day).
    @Test func aMetricOfBothListsIsTheSameFigureForTheRunAndForADay() throws {
        let report = try Simulation(config: try SimTestSupport.config(days: 1, users: 20)).run()
        let summary = ReportSummary(report)
        #expect(summary.earnedUserDays > 0)
        let both = MetricRegistry.all.filter { $0.summary != nil && $0.day != nil }
        #expect(both.count >= 8)
        for metric in both {
            let run = metric.value(summary), day = metric.value(report.days[0])
            #expect(abs(run - day) <= 1e-12 * max(1, abs(run)), "\(metric.id): \(run) for the run, \(day) for its day")
        }
    }

    /// A metric with a ratio is the ratio of its two sums, on the whole run and on each group of
    /// its users, and the groups' sums add up to the run's (what `analyze` computes per user):
    /// every metric of the summary has one but the percentiles and the maximum.
    @Test func aMetricsRatioIsItsValueAndItsSumsAddUpOverGroupsOfUsers() throws {
        let simulation = try Simulation(config: try SimTestSupport.config(days: 8, users: 24))
        let (report, groups) = try simulation.run(seed: 1, groups: 6)
        let summary = ReportSummary(report), parts = groups.map(ReportSummary.init)
        let withRatio = MetricRegistry.only(MetricRegistry.summary, apps: Set(Metric.App.allCases), days: 8).filter { $0.ratio != nil }
        let without = MetricRegistry.summary.filter { $0.ratio == nil }.map(\.id)
        #expect(without.allSatisfy { $0.hasSuffix("_p50") || $0.hasSuffix("_p90") || $0.hasPrefix("max_") }, "\(without)")
        #expect(withRatio.count >= 22)
        for metric in withRatio {
            let ratio = metric.ratio!
            let (n, d) = (ratio.numerator(summary), ratio.denominator(summary))
            #expect(d > 0, "\(metric.id)")
            let value = metric.value(summary)
            // A total per user: the run's value is the sum; else the value is the ratio.
            let expected = metric.kind == .total ? value / Double(summary.users) : value
            #expect(abs(n / d - expected) <= 1e-12 * max(1, abs(expected)), "\(metric.id): \(n)/\(d) ≠ \(expected)")
            #expect(parts.reduce(0) { $0 + ratio.numerator($1) } == n, "\(metric.id)")
            #expect(parts.reduce(0) { $0 + ratio.denominator($1) } == d, "\(metric.id)")
        }
    }

    @Test func aMetricIsFoundByItsIdOrItsLabel() {
        #expect(MetricRegistry.metric(named: "yes_rate")?.label == "YES rate")
        #expect(MetricRegistry.metric(named: "YES rate")?.id == "yes_rate")
        #expect(MetricRegistry.metric(named: "tier 3") == nil)
    }
}

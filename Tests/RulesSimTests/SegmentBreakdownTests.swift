import Foundation
import Testing

@testable import RulesSim

/// Each metric per persona (`simulate --segments`): the personas' days add up to the run's, each
/// persona is measured over its own users, and a persona outside a metric's app has no value.
@Suite struct SegmentBreakdownTests {
    @Test func thePersonasDaysAddUpToTheRunsAndEachIsMeasuredAlone() throws {
        let simulation = try Simulation(config: try SimTestSupport.config(days: 3, users: 30, mix: "steady:1,focus-user:1,ghost:1"))
        let (report, groups) = try simulation.run(seed: 5, groups: 6)
        #expect(report.segments.map(\.persona) == ["steady", "focus-user", "ghost"])
        var sum = report.segments[0].days
        for segment in report.segments.dropFirst() { for d in sum.indices { sum[d].add(segment.days[d]) } }
        #expect(sum == report.days)
        #expect(report.segments.map(\.users).reduce(0, +) == 30 && report.segments.allSatisfy { $0.users > 0 })
        // The groups' segments add up to the run's segments.
        for p in report.segments.indices {
            var total = groups[0].segments[p].days
            for g in groups.dropFirst() { for d in total.indices { total[d].add(g.segments[p].days[d]) } }
            #expect(total == report.segments[p].days)
        }
        // A run counted in one group is the same run.
        #expect(try simulation.run(seed: 5, groups: 1).report.days == report.days)

        let breakdown = SegmentBreakdown(report, groups: groups)
        let yes = try #require(breakdown.rows.first { $0.metric.id == Metric.yesRate.id })
        #expect(yes.values[1] == nil, "focus-user does not use Pressure")
        #expect(yes.values[2]?.mean == 0, "ghost never answers")
        let steady = ReportSummary(report.report(of: report.segments[0]))
        #expect(yes.values[0]?.mean == Metric.yesRate.value(steady))
        #expect((2...6).contains(try #require(yes.values[0]).n), "a group without steady users has no rate of its own")
        let exits = try #require(breakdown.rows.first { $0.metric.id == Metric.exitsToFocus.id })
        #expect(exits.values[1] == nil && exits.values[2] == nil && exits.values[0] != nil)
        let table = breakdown.table()
        #expect(table.contains("steady (") && table.contains("focus-user (") && table.contains("  YES rate "), "\(table)")
    }

    @Test func overReplicasEachPersonasFigureIsTheMeanOfItsReplicas() throws {
        let simulation = try Simulation(config: try SimTestSupport.config(days: 2, users: 8, mix: "steady:1,focus-user:1"))
        let replicas = try ReplicaReport.run(simulation, replicas: 3)
        let breakdown = SegmentBreakdown(replicas: replicas.reports)
        let rate = try #require(breakdown.rows.first { $0.metric.id == Metric.habitCompletionRate.id })
        let values = replicas.reports.map { r in Metric.habitCompletionRate.value(ReportSummary(r.report(of: r.segments[1]))) }
        #expect(abs(try #require(rate.values[1]).mean - values.reduce(0, +) / 3) < 1e-12)
        #expect(try #require(rate.values[1]).n == 3)
    }

    /// `compare --segments`: each persona's users under A and B, with the metrics of their apps.
    @Test func aComparisonBrokenDownByPersona() throws {
        let mix = try PersonaMix(["steady:1,focus-user:1"])
        let gentle = SimTestSupport.root.appendingPathComponent("examples/gentle-pricing").path
        let comparison = try PopulationComparison.run(
            folderA: SimTestSupport.rules, folderB: gentle, users: 12, days: 2, seed: 3, mix: mix,
            personaFolders: [SimTestSupport.personas], segments: true)
        #expect(comparison.segments.map(\.persona) == ["steady", "focus-user"])
        #expect(comparison.segments.map(\.users).reduce(0, +) == 12)
        let focus = comparison.segments[1].metrics.map(\.name)
        #expect(!focus.contains(Metric.yesRate.label) && focus.contains(Metric.creditsSpentPerUserDay.label))
        #expect(comparison.segments[0].metrics.map(\.name).contains(Metric.yesRate.label))
        // The rules differ only in Earned's prices: Pressure's figures are the same under A and B.
        let yes = try #require(comparison.segments[0].metrics.first { $0.name == Metric.yesRate.label })
        #expect(yes.a == yes.b)
        #expect(comparison.text.contains("by persona: focus-user ("))
        #expect(comparison.json.description.contains("\"segments\":[{\"persona\":\"steady\""))
        let plain = try PopulationComparison.run(
            folderA: SimTestSupport.rules, folderB: gentle, users: 12, days: 2, seed: 3, mix: mix, personaFolders: [SimTestSupport.personas])
        #expect(plain.segments.isEmpty && !plain.json.description.contains("segments"))
    }
}

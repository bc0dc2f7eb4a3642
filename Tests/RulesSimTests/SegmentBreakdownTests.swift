import Foundation
import Testing

@testable import RulesSim

/// Each metric per persona (`simulate --segments`): the personas' days add up to the run's, each
/// persona is measured over its own users, and a persona outside a metric's app has no value.
@Suite struct SegmentBreakdownTests {
    @Test func thePersonasDaysAddUpToTheRunsAndEachIsMeasuredAlone() throws {
        let simulation = try Simulation(config: try SimTestSupport.config(days: 3, users: 30, mix: "steady:1,focus-user:1,ghost:1"))
        let (report, groups) = try simulation.run(seed: 5, groups: 6)
        #expect(report.segments.map(\.name) == ["steady", "focus-user", "ghost"])
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

    /// A rate's interval comes from the groups of users that use its app: in a cohort of steady and
    /// focus users (no Pressure), a group of focus users alone has no YES rate (not a rate of 0), so
    /// the cohort's YES rate and its interval are the steady users' own, in `compare` as in `simulate`.
    @Test func aRatesIntervalLeavesOutTheGroupsWithoutUsersOfItsApp() throws {
        let mix = try PersonaMix(["steady:1,focus-user:1"])
        let graduated = SimTestSupport.root.appendingPathComponent("examples/graduated-recovery").path
        let comparison = try PopulationComparison.run(
            folderA: SimTestSupport.rules, folderB: graduated, users: 40, days: 5, seed: 1, mix: mix,
            personaFolders: [SimTestSupport.personas], segments: true)
        let cohort = try #require(comparison.metrics.first { $0.name == Metric.yesRate.label })
        let steady = try #require(comparison.segments[0].metrics.first { $0.name == Metric.yesRate.label })
        #expect(cohort.a == steady.a && cohort.b == steady.b)
        let interval = try #require(cohort.interval), own = try #require(steady.interval)
        #expect(interval.n == own.n && interval.low == own.low && interval.high == own.high)
        #expect(interval.n < 20, "some of the 20 groups of 2 users are focus users alone")

        // simulate --segments: steady's Earned rates from the groups with steady users who use Earned (60 % do).
        let simulation = try Simulation(config: try SimTestSupport.config(days: 5, users: 40, mix: "steady:1,focus-user:1"))
        let (report, groups) = try simulation.run(seed: 1, groups: 20)
        let breakdown = SegmentBreakdown(report, groups: groups)
        let spent = try #require(breakdown.rows.first { $0.metric.id == Metric.creditsSpentPerUserDay.id }?.values[0])
        let earning = groups.filter { ReportSummary($0.report(of: $0.segments[0])).earnedUserDays > 0 }.count
        #expect(spent.n == earning && earning < groups.filter { $0.segments[0].users > 0 }.count)
    }
}

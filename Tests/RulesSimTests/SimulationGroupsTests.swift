import Foundation
import RulesSim
import Testing

/// A run reported by groups of users (the batch means of `compare`'s intervals), and replicas.
@Suite struct SimulationGroupsTests {
    @Test func theGroupsAreTheShardsOfTheRunAndTheWholeIsUnchanged() throws {
        let config = try SimTestSupport.config(users: 23, jobs: 3)
        let simulation = try Simulation(config: config)
        let plain = try simulation.run()
        let grouped = try simulation.run(seed: config.seed, groups: 4)
        #expect(grouped.report == plain)
        #expect(grouped.groups.map { $0.run.usersFrom..<$0.run.usersTo } == [0..<5, 5..<11, 11..<17, 17..<23])
        // Each group is the report its users have as a shard of the run.
        for (g, group) in grouped.groups.enumerated() {
            var shard = config
            shard.shard = Shard(index: g + 1, count: 4)
            #expect(group.days == (try Simulation(config: shard).run()).days, "group \(g + 1)")
        }
        #expect(throws: SimulationError.self) { try simulation.run(seed: 1, groups: 0) }
    }

    @Test func anotherSeedIsAnotherCohortAndReplicaOneIsTheRun() throws {
        let config = try SimTestSupport.config(users: 12, jobs: 2)
        let simulation = try Simulation(config: config)
        let replicas = try ReplicaReport.run(simulation, replicas: 3)
        #expect(replicas.reports[0] == (try simulation.run()))
        #expect(replicas.reports[1].run.seed == ReplicaReport.seed(config.seed, replica: 2))
        #expect(replicas.reports[1].days != replicas.reports[0].days)
        let tier3 = try #require(replicas.summary.first { $0.metric.label == "user-days at tier 3" })
        #expect(tier3.values.count == 3 && tier3.estimate.low <= tier3.estimate.mean && tier3.estimate.mean <= tier3.estimate.high)
        #expect(abs(tier3.estimate.mean - tier3.values.reduce(0, +) / 3) < 1e-12)
    }
}

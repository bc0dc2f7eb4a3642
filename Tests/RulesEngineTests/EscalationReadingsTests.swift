import Foundation
import RulesEngine
import RulesModel
import Testing

/// The three readings of the escalation document, each run over the same check-ins.
@Suite struct EscalationReadingsTests {
    static let root = RuleFixture.rulesFolder.deletingLastPathComponent()

    /// The tier after each result, starting at tier 0.
    func tiers(_ folder: String, _ results: [CommitmentStatus]) throws -> [Int] {
        let rules = try RuleSet.load(EscalationReadingsTests.root.appendingPathComponent(folder).path)
        var state = EscalationCounters(tier: 0, misses: 0, successes: 0)
        return try results.map { result in
            state = try rules.transition(state, result)
            return state.tier
        }
    }

    @Test func theDefaultFollowsThePseudoCode() throws {
        // Straight back to tier 0 after the tier's YES days; one NO after a YES at tier 3 sets tier 1.
        #expect(try tiers("rules", [.no, .missed, .no, .yes, .yes, .yes]) == [1, 2, 3, 3, 3, 0])
        #expect(try tiers("rules", [.no, .no, .no, .yes, .no]) == [1, 2, 3, 3, 1])
        #expect(try tiers("rules", [.no, .no, .yes, .yes]) == [1, 2, 2, 0])
    }

    @Test func graduatedRecoveryStepsDownOneTierAtATime() throws {
        #expect(
            try tiers("examples/graduated-recovery", [.no, .no, .no, .yes, .yes, .yes, .yes, .yes, .yes])
                == [1, 2, 3, 3, 3, 2, 2, 1, 0])
    }

    @Test func aMissNeverLowersTheTier() throws {
        #expect(try tiers("examples/miss-never-lowers-tier", [.no, .no, .no, .yes, .no]) == [1, 2, 3, 3, 3])
        #expect(try tiers("examples/miss-never-lowers-tier", [.no, .no, .no, .yes, .yes, .yes, .no]) == [1, 2, 3, 3, 3, 0, 1])
    }
}

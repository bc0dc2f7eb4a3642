import Foundation
import RulesSim
import Testing

/// The seeds of `simulate --replicas K`.
@Suite struct ReplicaSeedTests {
    @Test func replicaOneIsTheSeedAndTheOthersDifferFromItAndEachOther() {
        for seed: UInt64 in [0, 1, 7, .max] {
            #expect(ReplicaReport.seed(seed, replica: 1) == seed)
            let seeds = (1...50).map { ReplicaReport.seed(seed, replica: $0) }
            #expect(Set(seeds).count == 50)
        }
        // Derived, not drawn: the same every time (documented in docs/simulate.md).
        #expect(ReplicaReport.seed(1, replica: 2) == ReplicaReport.seed(1, replica: 2))
        #expect(ReplicaReport.seed(1, replica: 2) != ReplicaReport.seed(2, replica: 2))
    }
}

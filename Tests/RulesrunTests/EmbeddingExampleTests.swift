import Foundation
import Testing

@Suite struct EmbeddingExampleTests {
    /// The example in examples/embedding runs the default escalation rule over a week.
    @Test func theEmbeddingExampleRunsTheDefaultRules() throws {
        let result = try CLI.run(["rules"], executable: "embedding-example")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "max tier 3, recovery after [1, 2, 3] YES days")
        // The seed's pseudo-code: misses set tiers 1, 2, 3; tier 3 needs 3 YES days, then straight to 0.
        #expect(
            lines.dropFirst().map { String($0.split(separator: "-> ").last ?? "") } == [
                "tier 1, misses 1, successes 0",
                "tier 2, misses 2, successes 0",
                "tier 3, misses 3, successes 0",
                "tier 3, misses 0, successes 1",
                "tier 3, misses 0, successes 2",
                "tier 0, misses 0, successes 0",
                "tier 1, misses 1, successes 0",
            ])
    }
}

import RulesSim
import Testing

/// The sample-ratio check: SciPy's `chisquare` (scripts/reference/analysis_reference.py), and how
/// often a fair assignment is flagged.
@Suite struct SampleRatioCheckTests {
    /// 10,000 users assigned 50 / 50 but logged 50 : 45 (5,263 / 4,737) are flagged.
    @Test func aFiftyFortyFiveSplitIsFlagged() throws {
        let check = try SampleRatioCheck(counts: [5263, 4737], expectedBasisPoints: [5000, 5000])
        #expect(close(check.chiSquare, 27.6676) && check.degreesOfFreedom == 1)
        #expect(close(check.pValue, 1.44055401619319e-07))
        #expect(check.flagged)
        let three = try SampleRatioCheck(counts: [3400, 3300, 3200], expectedBasisPoints: [3334, 3333, 3333])
        #expect(close(three.chiSquare, 6.000507160203227) && close(three.pValue, 0.04977444495859851))
        #expect(!three.flagged && three.degreesOfFreedom == 2)
        let atFivePercent = try SampleRatioCheck(
            counts: [3400, 3300, 3200], expectedBasisPoints: [3334, 3333, 3333], threshold: 0.05)
        #expect(atFivePercent.flagged)
    }

    /// 1,000 experiments of 10,000 users each assigned by a fair coin: at most 0.3 % flagged
    /// (p < 0.001 happens to 0.1 % of them).
    @Test func aFairAssignmentIsRarelyFlagged() throws {
        var flagged = 0
        for seed in 0..<1_000 {
            var draws = SyntheticDraws(seed: UInt64(seed))
            let heads = draws.heads(of: 10_000)
            if try SampleRatioCheck(counts: [heads, 10_000 - heads], expectedBasisPoints: [5000, 5000]).flagged { flagged += 1 }
        }
        #expect(flagged <= 3, "\(flagged) of 1,000 flagged")
    }

    /// An arm that should have no user but has some is a mismatch; bad input is named.
    @Test func edgesAndErrors() throws {
        let empty = try SampleRatioCheck(counts: [10, 0, 12], expectedBasisPoints: [5000, 0, 5000])
        #expect(empty.degreesOfFreedom == 1 && !empty.flagged)
        #expect(try SampleRatioCheck(counts: [10, 1, 12], expectedBasisPoints: [5000, 0, 5000]).pValue == 0)
        #expect(throws: AnalysisError("sample ratio: 2 arms counted, but 3 shares expected")) {
            try SampleRatioCheck(counts: [1, 2], expectedBasisPoints: [1, 2, 3])
        }
        #expect(throws: AnalysisError("sample ratio: arm 1's share is 12000 basis points, expected 0 to 10000")) {
            try SampleRatioCheck(counts: [1, 2], expectedBasisPoints: [1, 12_000])
        }
    }
}

import Foundation
import RulesSim
import Testing

/// The 95 % intervals of `simulate --replicas` and `compare`'s population half.
@Suite struct EstimateTests {
    /// Student's t 0.975 quantiles as published (NIST/SEMATECH e-Handbook 1.3.6.7.2; R's qt(0.975, df)).
    @Test(arguments: [
        (1, 12.706), (2, 4.303), (3, 3.182), (4, 2.776), (5, 2.571), (9, 2.262), (10, 2.228), (19, 2.093), (20, 2.086),
        (29, 2.045), (30, 2.042), (31, 2.040), (40, 2.021), (60, 2.000), (100, 1.984), (120, 1.980), (1000, 1.962),
    ])
    func tQuantilesAreThePublishedOnes(df: Int, published: Double) {
        #expect(abs(Estimate.tQuantile975(degreesOfFreedom: df) - published) < 0.0006, "df \(df)")
    }

    @Test func theQuantilesFallTowardsTheNormalsWithoutAJump() {
        let quantiles = (1...500).map { Estimate.tQuantile975(degreesOfFreedom: $0) }
        #expect(zip(quantiles, quantiles.dropFirst()).allSatisfy { $0 > $1 })
        #expect(abs(Estimate.tQuantile975(degreesOfFreedom: 1_000_000) - 1.959964) < 1e-5)
    }

    /// 1, 2, 3, 4, 5: mean 3, s = √2.5, half width t(4) · s / √5 = 2.776445 · 0.707107 = 1.963243.
    @Test func theIntervalOfFiveValues() {
        let e = Estimate.of([1, 2, 3, 4, 5], method: .replicas)
        #expect(e.mean == 3 && e.n == 5 && e.method == .replicas)
        #expect(abs(e.halfWidth - 1.963243) < 1e-5)
        #expect(abs(e.low - 1.036757) < 1e-5 && abs(e.high - 4.963243) < 1e-5)
        #expect(e.excludesZero)
        #expect(!Estimate.of([-1, 2, 0.5], method: .replicas).excludesZero)
    }

    @Test func oneValueOrEqualValuesHaveNoWidth() {
        let one = Estimate.of([0.25], method: .replicas)
        #expect(one.low == 0.25 && one.high == 0.25 && one.method == .single)
        let zeros = Estimate.of([0, 0, 0, 0], method: .userGroups)
        #expect(zeros.low == 0 && zeros.high == 0 && !zeros.excludesZero)
    }

    /// Batch means: the whole's value, with the groups' spread; a total's interval scales with the groups.
    @Test func aroundTheWholeWithTheGroupsSpread() {
        let rate = Estimate.around(10, groups: [9, 11], scale: 1)
        // s = √2, t(1) = 12.706205: half width 12.706205 · √2 / √2.
        #expect(rate.mean == 10 && abs(rate.halfWidth - 12.706205) < 1e-5 && rate.method == .userGroups)
        let total = Estimate.around(20, groups: [9, 11], scale: 2)
        #expect(abs(total.halfWidth - 2 * 12.706205) < 1e-5)
    }
}

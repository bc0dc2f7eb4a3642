import Foundation
import RulesSim
import Testing

/// The comparison of two arms against values computed apart: SciPy's Welch test, and NumPy per user
/// for the delta method, CUPED and the confidence sequence — `python3 scripts/reference/analysis_reference.py`
/// prints each expected value below under the same name.
@Suite struct ArmComparisonTests {
    static let a: [Double] = [3.1, 0.4, 2.7, 5.9, 1.2, 0.0, 4.4, 2.2]
    static let b: [Double] = [4.0, 6.3, 2.9, 7.7, 5.1, 3.3, 6.0, 8.8, 4.9, 5.5]

    /// The ratio metric's users: YES check-ins y of x check-ins, and the pre-period's (a user without
    /// one has (0, 0)).
    static let control = arm(
        y: [3, 5, 0, 7, 2, 4, 6, 1, 5, 3, 0, 8], x: [5, 7, 2, 9, 4, 4, 8, 3, 6, 5, 1, 10],
        cy: [2, 6, 0, 6, 1, 3, 5, 0, 4, 3, 0, 7], cx: [4, 7, 0, 8, 3, 4, 7, 2, 5, 5, 0, 9])
    static let treatment = arm(
        y: [4, 6, 2, 8, 3, 5, 7, 2, 6, 9, 1], x: [5, 7, 3, 9, 4, 5, 8, 3, 6, 10, 2],
        cy: [3, 5, 1, 7, 2, 4, 5, 0, 0, 8, 1], cx: [4, 6, 3, 8, 4, 5, 7, 2, 0, 9, 2])

    static func arm(y: [Double], x: [Double], cy: [Double], cx: [Double]) -> MetricMoments {
        (0..<y.count).reduce(into: MetricMoments()) { $0.add(y: y[$1], x: x[$1], cy: cy[$1], cx: cx[$1]) }
    }

    static func perUser(_ values: [Double]) -> MetricMoments {
        values.reduce(into: MetricMoments()) { $0.add(y: $1, x: 1) }
    }

    /// `scipy.stats.ttest_ind(b, a, equal_var=False)` and its `confidence_interval()`.
    @Test func aPerUserMeanIsWelchsTest() throws {
        let c = try ArmComparison.compare(control: Self.perUser(Self.a), treatment: Self.perUser(Self.b))
        #expect(c.method == .welch)
        let d = c.difference
        #expect(close(d.point / d.standardError, 3.224279250880193))
        #expect(close(d.pValue, 0.00585239197590671))
        #expect(close(d.degreesOfFreedom, 14.57769979629229))
        #expect(close(d.low, 0.9991500129342137) && close(d.high, 4.925849987065784))
        #expect(d.isSignificant)
        let ninety = try ArmComparison.compare(control: Self.perUser(Self.a), treatment: Self.perUser(Self.b), level: 0.9)
        #expect(close(ninety.difference.low, 1.3487101323406552) && close(ninety.difference.high, 4.576289867659343))
        // The relative lift, by the delta method (NumPy).
        let lift = try #require(c.relativeLift)
        #expect(close(lift.point, 1.1909547738693462))
        #expect(close(lift.low, -0.3155880511662379) && close(lift.high, 2.6974975989049303))
        #expect(!lift.isSignificant)
        #expect(c.control.n == 8 && c.treatment.n == 10 && close(c.control.value, 19.9 / 8))
    }

    /// YES check-ins over check-ins, each user's linearized value (y − R x) / x̄ computed in NumPy.
    @Test func aRatioMetricIsTheDeltaMethod() throws {
        let c = try ArmComparison.compare(control: Self.control, treatment: Self.treatment)
        #expect(c.method == .delta && c.cuped == nil)
        #expect(c.control.value == 0.6875 && close(c.treatment.value, 0.8548387096774194))
        let d = c.difference
        #expect(close(d.point, 0.16733870967741937))
        #expect(close(d.degreesOfFreedom, 17.796878779259533))
        #expect(close(d.low, 0.047475157363475795) && close(d.high, 0.28720226199136295))
        #expect(close(d.pValue, 0.008917939198089916))
    }

    /// CUPED on the same metric, with two users who have no pre-period.
    @Test func cupedAdjustsWithThePrePeriod() throws {
        let c = try ArmComparison.compare(control: Self.control, treatment: Self.treatment, cuped: true)
        let cuped = try #require(c.cuped)
        #expect(close(cuped.theta, 0.4553757894450714))
        #expect(close(cuped.varianceReduction, 0.40604971751353325))
        #expect(close(c.difference.point, 0.1514848858967392))
        #expect(close(c.difference.low, 0.059273663860401504) && close(c.difference.high, 0.2436961079330769))
        let lift = try #require(c.relativeLift)
        #expect(close(lift.point, 0.22034165221343882))
        #expect(close(lift.low, 0.05817305059087635) && close(lift.high, 0.3825102538360013))
        // The arms' values are the unadjusted ones.
        #expect(c.control.value == 0.6875)
    }

    /// Without a pre-period in an arm there is nothing to adjust with.
    @Test func cupedWithoutAPrePeriodIsNoAdjustment() throws {
        let none = Self.arm(y: [1, 2, 3], x: [2, 2, 4], cy: [0, 0, 0], cx: [0, 0, 0])
        let c = try ArmComparison.compare(control: Self.control, treatment: none, cuped: true)
        #expect(c.cuped == nil)
        #expect(c == (try ArmComparison.compare(control: Self.control, treatment: none)))
    }

    /// The asymptotic confidence sequence (tuning 5,000, 23 users): wider than the t interval.
    @Test func theSequentialIntervalIsTheConfidenceSequence() throws {
        let c = try ArmComparison.compare(control: Self.control, treatment: Self.treatment, sequential: 5000)
        #expect(close(c.difference.low, -0.5783986807188815) && close(c.difference.high, 0.9130761000737202))
        #expect(c.sequentialTuning == 5000 && !c.difference.isSignificant && c.difference.pValue > 0.05)
        // Relative to the fixed interval the sequence is narrowest near its tuning's sample size: 1.549
        // times as wide at N = S = 5,000, more on either side.
        func ratio(_ n: Int) -> Double {
            ConfidenceSequence.halfWidth(standardError: 1, users: n, alpha: 0.05, tuning: 5000) / 1.959963984540054
        }
        #expect(abs(ratio(5000) - 1.5486044714686569) < 1e-12, "\(ratio(5000))")
        #expect(ratio(1000) > ratio(5000) && ratio(25_000) > ratio(5000))
        // Its p-value is where the sequence touches 0.
        let p = ConfidenceSequence.pValue(estimate: 3, standardError: 1, users: 5000, tuning: 5000)
        #expect(close(ConfidenceSequence.halfWidth(standardError: 1, users: 5000, alpha: p, tuning: 5000), 3, 1e-9))
    }

    /// Arms that cannot be compared say why; a control of value 0 has no relative lift.
    @Test func whatCannotBeCompared() throws {
        let one = Self.perUser([1])
        #expect(throws: AnalysisError("control: 1 user(s), expected at least 2 to estimate a variance")) {
            try ArmComparison.compare(control: one, treatment: Self.perUser(Self.b))
        }
        let noDenominator = Self.arm(y: [0, 0], x: [0, 0], cy: [0, 0], cx: [0, 0])
        #expect(throws: AnalysisError("treatment: Σx = 0, the metric has no denominator in this arm")) {
            try ArmComparison.compare(control: Self.control, treatment: noDenominator)
        }
        #expect(throws: AnalysisError("level: 95.0, expected a number between 0 and 1 (0.95 for 95 %)")) {
            try ArmComparison.compare(control: Self.control, treatment: Self.treatment, level: 95)
        }
        let zeros = try ArmComparison.compare(control: Self.perUser([0, 0, 0]), treatment: Self.perUser([0, 1, 0]))
        #expect(zeros.relativeLift == nil && zeros.difference.point == 1.0 / 3)
        // No variance at all: a point, significant when it is not 0.
        let same = try ArmComparison.compare(control: Self.perUser([2, 2]), treatment: Self.perUser([2, 2, 2]))
        #expect(same.difference.low == 0 && same.difference.high == 0 && same.difference.pValue == 1)
    }
}

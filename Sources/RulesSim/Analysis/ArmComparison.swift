import Foundation

/// A metric compared between two arms, from each arm's `MetricMoments`: each arm's value R = Σy / Σx,
/// the difference B − A (treatment − control) and the relative lift (B − A) / A, each with an interval
/// at `level` (95 % by default) and a two-sided p-value.
///
/// - A per-user mean (every x is 1): Welch's t interval, with the Welch–Satterthwaite degrees of
///   freedom (`Method.welch`).
/// - A ratio (Σy / Σx with x the user's check-ins or user-days): the delta method of Deng, Knoblich &
///   Lu (2018): each arm's variance is that of its users' linearized values (y − R x) / x̄, over n; the
///   t interval takes the Welch–Satterthwaite degrees of freedom of these two variances, which is
///   Welch's own when x ≡ 1 (`Method.delta`).
/// - The relative lift: the delta method for the ratio of the two arms' values, as GrowthBook
///   documents it: var = var_B / R_A² + R_B² var_A / R_A⁴ (no lift when R_A = 0), with the same
///   Welch–Satterthwaite degrees of freedom on its two terms.
/// - CUPED (Deng, Xu, Kohavi & Walker 2013), with the pre-exposure period's (cy, cx) as the
///   covariate: each arm's value becomes R − θ Rc (Rc = Σcy / Σcx of the arm), with the one θ that
///   minimizes the variance of the difference, pooled over both arms on the linearized values
///   (Appendix B of the paper; GrowthBook's ratio-metric θ): θ = Σ cov(L, K) / n ÷ Σ var(K) / n over
///   the arms, K = (cy − Rc cx) / c̄x. The same formula serves per-user means (cx = 1). A user without
///   a pre-period contributes (0, 0) to the pre-period sums, as GrowthBook's ratio metrics do: its K
///   is 0, the arm's mean (mean imputation; GrowthBook fills a per-user mean's missing pre value with
///   0 instead: pass (0, 1) for that). When an arm has no pre-period at all (Σcx = 0), or the
///   covariate does not vary, no adjustment is made (`cuped` is nil). The relative lift under CUPED
///   is the adjusted difference over the control's unadjusted value, its variance by the delta
///   method on (R_B, Rc_B, R_A, Rc_A), as GrowthBook's.
/// - Sequential (`sequential:` the tuning parameter): the fixed-horizon t intervals are replaced by
///   the asymptotic confidence sequence (`ConfidenceSequence`), valid however often it is looked at,
///   and the p-values by the always-valid ones.
package struct ArmComparison: Sendable, Equatable {
    package enum Method: String, Sendable {
        /// Welch's t: every user's x is 1.
        case welch
        /// The delta method: a ratio metric.
        case delta
        /// A percentile's order statistics (``compare(control:treatment:percentile:level:)``).
        case orderStatistics = "order_statistics"
    }

    /// An arm's value (Σy / Σx, unadjusted) and users.
    package struct Arm: Sendable, Equatable {
        package var value: Double
        package var n: Int
    }

    /// An estimate with its interval.
    package struct Interval: Sendable, Equatable {
        package var point: Double
        package var low: Double
        package var high: Double
        /// Two-sided, of the hypothesis that the true value is 0.
        package var pValue: Double
        package var standardError: Double
        /// Welch–Satterthwaite's (the sequential interval does not use it).
        package var degreesOfFreedom: Double

        /// Whether the interval leaves 0 out.
        package var isSignificant: Bool { low > 0 || high < 0 }
    }

    /// What CUPED did.
    package struct Cuped: Sendable, Equatable {
        package var theta: Double
        /// 1 − var(adjusted difference) / var(unadjusted difference).
        package var varianceReduction: Double
    }

    package var control: Arm
    package var treatment: Arm
    package var difference: Interval
    /// Nil when the control's value is 0.
    package var relativeLift: Interval?
    /// Nil when not asked for, or not possible (no pre-period in an arm).
    package var cuped: Cuped?
    package var method: Method
    package var level: Double
    /// The confidence sequence's tuning parameter, when the intervals are sequential.
    package var sequentialTuning: Double?

    /// Compares `treatment` (B) with `control` (A).
    package static func compare(
        control a: MetricMoments, treatment b: MetricMoments, level: Double = 0.95, cuped useCuped: Bool = false,
        sequential tuning: Double? = nil
    ) throws(AnalysisError) -> ArmComparison {
        guard level > 0, level < 1 else {
            throw AnalysisError("level: \(level), expected a number between 0 and 1 (0.95 for 95 %)")
        }
        if let tuning, !(tuning > 0 && tuning.isFinite) {
            throw AnalysisError(
                "sequential tuning: \(tuning), expected a positive number of users (the sample size of the decision)")
        }
        for (name, m) in [("control", a), ("treatment", b)] {
            guard m.n >= 2 else { throw AnalysisError("\(name): \(m.n) user(s), expected at least 2 to estimate a variance") }
            guard m.value != nil else { throw AnalysisError("\(name): Σx = 0, the metric has no denominator in this arm") }
        }
        let armA = LinearizedArm(a), armB = LinearizedArm(b)
        let bounds = Bounds(level: level, tuning: tuning, users: a.n + b.n)

        // θ, when CUPED is asked for and possible.
        var theta = 0.0
        var cuped: Cuped?
        if useCuped, let ka = armA.covariate, let kb = armB.covariate {
            let denominator = ka.varianceK / Double(a.n) + kb.varianceK / Double(b.n)
            if denominator > 0 {
                theta = (ka.covarianceLK / Double(a.n) + kb.covarianceLK / Double(b.n)) / denominator
                let adjusted = armA.variance(l: 1, k: -theta) + armB.variance(l: 1, k: -theta)
                let unadjusted = armA.variance(l: 1, k: 0) + armB.variance(l: 1, k: 0)
                cuped = Cuped(theta: theta, varianceReduction: unadjusted > 0 ? 1 - adjusted / unadjusted : 0)
            }
        }
        let rcA = cuped == nil ? 0 : armA.covariate!.value, rcB = cuped == nil ? 0 : armB.covariate!.value
        let adjustedA = armA.value - theta * rcA, adjustedB = armB.value - theta * rcB

        let difference = bounds.interval(
            point: adjustedB - adjustedA, varianceB: armB.variance(l: 1, k: -theta), nB: b.n,
            varianceA: armA.variance(l: 1, k: -theta), nA: a.n)
        var lift: Interval?
        let r = armA.value
        if r != 0 {
            lift = bounds.interval(
                point: (adjustedB - adjustedA) / r, varianceB: armB.variance(l: 1 / r, k: -theta / r), nB: b.n,
                varianceA: armA.variance(l: -(adjustedB + theta * rcA) / (r * r), k: theta / r), nA: a.n)
        }
        return ArmComparison(
            control: Arm(value: armA.value, n: a.n), treatment: Arm(value: armB.value, n: b.n), difference: difference,
            relativeLift: lift, cuped: cuped, method: a.isPerUserMean && b.isPerUserMean ? .welch : .delta, level: level,
            sequentialTuning: tuning)
    }

    /// How an estimate and the variances of its two arms' terms make an interval.
    private struct Bounds {
        var level: Double
        var tuning: Double?
        var users: Int

        func interval(point: Double, varianceB: Double, nB: Int, varianceA: Double, nA: Int) -> Interval {
            let variance = varianceA + varianceB
            let spread = varianceB * varianceB / Double(nB - 1) + varianceA * varianceA / Double(nA - 1)
            let df = spread > 0 ? variance * variance / spread : Double(nA + nB - 2)
            let se = variance.squareRoot()
            guard se > 0 else {
                return Interval(
                    point: point, low: point, high: point, pValue: point == 0 ? 1 : 0, standardError: 0, degreesOfFreedom: df)
            }
            let half: Double, p: Double
            if let tuning {
                half = ConfidenceSequence.halfWidth(standardError: se, users: users, alpha: 1 - level, tuning: tuning)
                p = ConfidenceSequence.pValue(estimate: point, standardError: se, users: users, tuning: tuning)
            } else {
                half = Distribution.tQuantile((1 + level) / 2, degreesOfFreedom: df) * se
                p = min(1, 2 * Distribution.tUpperTail(abs(point) / se, df))
            }
            return Interval(
                point: point, low: point - half, high: point + half, pValue: p, standardError: se, degreesOfFreedom: df)
        }
    }
}

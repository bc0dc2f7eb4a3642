import Foundation

extension ArmComparison {
    /// A percentile compared between two arms, from each arm's histogram of its users' whole values
    /// (a streak at the end of the user's last day counted: one value per user).
    ///
    /// Each arm's value is the nearest-rank percentile, as `simulate` reports it. Whole values tie
    /// often, and the order statistics of tied values do not tell how the percentile varies: so
    /// the difference is that of the interpolated percentiles, each value v spread evenly over
    /// [v, v + 1) (the percentile of grouped data: v + (n p − users below v) / users at v), whose
    /// standard error comes from the order statistics around it (distribution-free, as
    /// GrowthBook's quantile tests): the positions n p ∓ z √(n p (1 − p)) bound a `level` interval
    /// of the population's percentile, and se = (Q(upper) − Q(lower)) / 2z. The difference B − A
    /// has the normal interval of √(se_A² + se_B²); the relative lift (B − A) / A the delta
    /// method's. Calibrated on whole-valued data in docs/analyze.md. A percentile has no
    /// anytime-valid interval.
    package static func compare(
        control a: [Int], treatment b: [Int], percentile p: Int, level: Double = 0.95
    ) throws(AnalysisError) -> ArmComparison {
        guard level > 0, level < 1 else { throw AnalysisError("level: \(level), expected a number between 0 and 1 (0.95 for 95 %)") }
        guard (1...99).contains(p) else { throw AnalysisError("percentile: \(p), expected 1 to 99") }
        let z = Distribution.normalQuantile((1 + level) / 2)
        func estimate(_ counts: [Int], _ name: String) throws(AnalysisError) -> (value: Double, interpolated: Double, se: Double, n: Int) {
            let n = counts.reduce(0, +)
            guard n >= 2 else { throw AnalysisError("\(name): \(n) user(s), expected at least 2 to estimate a variance") }
            let q = Double(p) / 100, center = Double(n) * q, spread = z * (Double(n) * q * (1 - q)).squareRoot()
            let low = interpolated(at: max(0, center - spread), of: counts),
                high = interpolated(at: min(Double(n), center + spread), of: counts)
            return (Double(Histogram.percentile(p, of: counts)), interpolated(at: center, of: counts), (high - low) / (2 * z), n)
        }
        let ea = try estimate(a, "control"), eb = try estimate(b, "treatment")
        func interval(_ point: Double, _ se: Double) -> Interval {
            guard se > 0 else {
                return Interval(
                    point: point, low: point, high: point, pValue: point == 0 ? 1 : 0, standardError: 0, degreesOfFreedom: .infinity)
            }
            let p = min(1, 2 * (1 - Distribution.normalCDF(abs(point) / se)))
            return Interval(
                point: point, low: point - z * se, high: point + z * se, pValue: p, standardError: se, degreesOfFreedom: .infinity)
        }
        let (qa, qb) = (ea.interpolated, eb.interpolated)
        let difference = interval(qb - qa, (ea.se * ea.se + eb.se * eb.se).squareRoot())
        let lift =
            qa == 0
            ? nil : interval((qb - qa) / qa, (eb.se * eb.se / (qa * qa) + qb * qb * ea.se * ea.se / (qa * qa * qa * qa)).squareRoot())
        return ArmComparison(
            control: Arm(value: ea.value, n: ea.n), treatment: Arm(value: eb.value, n: eb.n), difference: difference, relativeLift: lift,
            cuped: nil, method: .orderStatistics, level: level, sequentialTuning: nil)
    }

    /// The interpolated quantile at position `t` (0…n) of a histogram's n values, each value v
    /// spread evenly over [v, v + 1): v + (t − values below v) / values at v.
    package static func interpolated(at t: Double, of counts: [Int]) -> Double {
        var below = 0
        for (value, n) in counts.enumerated() where n > 0 {
            if Double(below + n) >= t { return Double(value) + max(0, t - Double(below)) / Double(n) }
            below += n
        }
        return Double(counts.count)
    }
}

import Foundation

/// A metric's value with its 95 % confidence interval, from independent values of it: the K
/// replicas of `simulate --replicas` (i.i.d. cohorts), or the groups of users of one run (users are
/// independent given the seed: each has its own random streams), or the paired differences B − A
/// of either (`compare`).
///
/// The interval is Student's t: `mean ± t(0.975, n − 1) · s / √n`, with `s` the sample standard
/// deviation of the n values. With one value there is no interval (`low == high == mean`).
package struct Estimate: Sendable, Equatable {
    /// Where the n values come from.
    package enum Method: String, Sendable {
        /// Independent cohorts, each with its own seed (`simulate --replicas K`).
        case replicas
        /// Groups of users of one cohort (batch means).
        case userGroups = "user-groups"
        /// One value: no interval.
        case single
    }

    package var mean: Double
    package var low: Double
    package var high: Double
    /// The values the interval is computed from.
    package var n: Int
    package var method: Method

    package init(mean: Double, low: Double, high: Double, n: Int, method: Method) {
        self.mean = mean
        self.low = low
        self.high = high
        self.n = n
        self.method = method
    }

    /// Half the interval's width.
    package var halfWidth: Double { (high - low) / 2 }
    /// Whether the interval leaves 0 out: for a difference, whether it is significant at 5 %.
    package var excludesZero: Bool { low > 0 || high < 0 }

    /// The mean of `values` with its Student-t 95 % interval (none for fewer than two values).
    package static func of(_ values: [Double], method: Method) -> Estimate {
        let n = values.count
        guard n > 0 else { return Estimate(mean: 0, low: 0, high: 0, n: 0, method: .single) }
        let mean = values.reduce(0, +) / Double(n)
        guard n > 1 else { return Estimate(mean: mean, low: mean, high: mean, n: 1, method: .single) }
        let half = tQuantile975(degreesOfFreedom: n - 1) * standardDeviation(values, mean: mean) / Double(n).squareRoot()
        return Estimate(mean: mean, low: mean - half, high: mean + half, n: n, method: method)
    }

    /// Batch means: `point` (the whole cohort's value) with the interval that the spread of the
    /// `groups`' values gives it. `scale` is how the whole relates to a group's value: 1 for a
    /// rate or a share (the whole's value is about the groups' mean), the number of groups for a
    /// total (the whole is the groups' sum).
    package static func around(_ point: Double, groups: [Double], scale: Double = 1) -> Estimate {
        let n = groups.count
        guard n > 1 else { return Estimate(mean: point, low: point, high: point, n: n, method: .single) }
        let mean = groups.reduce(0, +) / Double(n)
        let half = scale * tQuantile975(degreesOfFreedom: n - 1) * standardDeviation(groups, mean: mean) / Double(n).squareRoot()
        return Estimate(mean: point, low: point - half, high: point + half, n: n, method: .userGroups)
    }

    /// The sample standard deviation (n − 1 in the denominator).
    static func standardDeviation(_ values: [Double], mean: Double) -> Double {
        (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
    }

    /// Student's t 0.975 quantile (two-sided 95 %): `Distribution.tQuantile`, exact to about 1e-15
    /// (the published tables, e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2, to their last digit).
    package static func tQuantile975(degreesOfFreedom df: Int) -> Double {
        precondition(df >= 1, "degrees of freedom must be at least 1")
        return Distribution.tQuantile(0.975, degreesOfFreedom: Double(df))
    }
}

/// One arm of a comparison in the terms of the delta method (Deng, Knoblich & Lu 2018): its value
/// R = Σy / Σx, and the variance of its users' linearized values L = (y − R x) / x̄ — the variance of R
/// is var(L) / n. With x ≡ 1, L = y − ȳ and var(L) is the sample variance of y (Welch).
///
/// For CUPED, the pre-period covariate linearized the same way, K = (cy − Rc cx) / c̄x with
/// Rc = Σcy / Σcx, with var(K) and cov(L, K). A user without pre-period, (cy, cx) = (0, 0), has K = 0:
/// the arm's mean.
struct LinearizedArm {
    var n: Int
    var value: Double
    var varianceL: Double
    /// The covariate (nil when the arm has no pre-period: Σcx = 0).
    var covariate: (value: Double, varianceK: Double, covarianceLK: Double)?

    init(_ m: MetricMoments) {
        n = m.n
        let meanX = m.mean(.x)
        let r = m.sum(.y) / m.sum(.x)
        value = r
        varianceL = max(0, (m.covariance(.y, .y) - 2 * r * m.covariance(.x, .y) + r * r * m.covariance(.x, .x)) / (meanX * meanX))
        guard m.sum(.cx) != 0 else { return }
        let meanCX = m.mean(.cx)
        let rc = m.sum(.cy) / m.sum(.cx)
        let varianceK = max(
            0, (m.covariance(.cy, .cy) - 2 * rc * m.covariance(.cy, .cx) + rc * rc * m.covariance(.cx, .cx)) / (meanCX * meanCX))
        let covarianceLK =
            (m.covariance(.y, .cy) - rc * m.covariance(.y, .cx) - r * m.covariance(.x, .cy) + r * rc * m.covariance(.x, .cx))
            / (meanX * meanCX)
        covariate = (rc, varianceK, covarianceLK)
    }

    /// The variance of the arm's mean of a·L + b·K (a·R + b·Rc, to first order).
    func variance(l a: Double, k b: Double) -> Double {
        guard let c = covariate, b != 0 else { return a * a * varianceL / Double(n) }
        return max(0, a * a * varianceL + 2 * a * b * c.covarianceLK + b * b * c.varianceK) / Double(n)
    }
}

import Foundation

/// The asymptotic confidence sequence of Waudby-Smith et al. ("Time-uniform central limit theory and
/// asymptotic confidence sequences", eq. 9, the two-sided normal mixture of Howard et al. 2021), as
/// GrowthBook uses it for its sequential testing: an interval around the estimate that covers the
/// truth at every sample size at once with probability 1 − α, so it may be looked at after every day.
///
/// With N the users of both arms, SE the estimate's standard error and σ² = SE² · N (the variance of
/// one observation), the half width is
///
///     σ · √( 2 (N ρ² + 1) / (N² ρ²) · ln( √(N ρ² + 1) / α ) ),
///
/// where ρ² = (−2 ln α + ln(1 − 2 ln α)) / S (eq. 161) makes the sequence narrowest at N = S: the
/// tuning parameter, the number of users (both arms) at which the experiment is expected to be read.
package enum ConfidenceSequence {
    /// GrowthBook's default tuning parameter.
    package static let defaultTuning = 5000.0

    /// The half width for an estimate of standard error `standardError` from `users` users (both arms).
    package static func halfWidth(standardError: Double, users: Int, alpha: Double, tuning: Double) -> Double {
        let n = Double(users)
        let rho2 = (-2 * log(alpha) + log(1 - 2 * log(alpha))) / tuning
        let sigma = standardError * n.squareRoot()
        return sigma * (2 * (n * rho2 + 1) / (n * n * rho2) * log((n * rho2 + 1).squareRoot() / alpha)).squareRoot()
    }

    /// The always-valid p-value of an estimate: the smallest α whose sequence leaves 0 out (1 when
    /// even α → 1 keeps it), by bisection on ln α.
    package static func pValue(estimate: Double, standardError: Double, users: Int, tuning: Double) -> Double {
        guard standardError > 0 else { return estimate == 0 ? 1 : 0 }
        let target = abs(estimate)
        func excludes(_ logAlpha: Double) -> Bool {
            halfWidth(standardError: standardError, users: users, alpha: exp(logAlpha), tuning: tuning) < target
        }
        // The half width falls as α grows; at α = 1 − 1e-12 it is about SE · √(1 + S / (2N)).
        var low = -700.0, high = log1p(-1e-12)
        if !excludes(high) { return 1 }
        if excludes(low) { return exp(low) }
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if excludes(middle) { high = middle } else { low = middle }
            if high - low < 1e-13 { break }
        }
        return exp(high)
    }
}

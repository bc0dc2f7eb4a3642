import Foundation

/// The distributions `analyze` needs, in double precision: the standard normal, Student's t for any
/// positive (non-integer: Welch) degrees of freedom, and the chi-square's upper tail.
///
/// - The normal CDF is `erfc` of the C library; its quantile is Wichura's AS 241 (PPND16, about 16
///   significant digits).
/// - Student's t CDF is the regularized incomplete beta function `I_x(ν/2, 1/2)` with
///   `x = ν / (ν + t²)`, by its continued fraction (modified Lentz); its quantile refines a first
///   guess by Newton's method on the logarithm of the upper tail (safeguarded by bisection).
/// - The chi-square's survival function is the regularized upper incomplete gamma `Q(k/2, x/2)`: its
///   series below `a + 1`, its continued fraction above.
///
/// Each is checked against SciPy to 1e-9 relative (scripts/reference/analysis_reference.py).
package enum Distribution {
    // MARK: Normal

    /// P(Z ≤ z) for a standard normal Z.
    package static func normalCDF(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }

    /// The z with P(Z ≤ z) = p (Wichura 1988, algorithm AS 241, PPND16).
    package static func normalQuantile(_ p: Double) -> Double {
        precondition(p >= 0 && p <= 1, "a probability is in [0, 1], found \(p)")
        if p == 0 { return -.infinity }
        if p == 1 { return .infinity }
        let q = p - 0.5
        if abs(q) <= 0.425 {
            let r = 0.180625 - q * q
            return q * poly(r, AS241.centralA) / poly(r, AS241.centralB)
        }
        let r = (-log(q < 0 ? p : 1 - p)).squareRoot()
        let value =
            r <= 5
            ? poly(r - 1.6, AS241.intermediateC) / poly(r - 1.6, AS241.intermediateD)
            : poly(r - 5, AS241.tailE) / poly(r - 5, AS241.tailF)
        return q < 0 ? -value : value
    }

    /// ln Γ(x) (the C library's).
    static func logGamma(_ x: Double) -> Double { Foundation.lgamma(x) }

    /// ln Γ(a + b) − ln Γ(a), b > 0. For a ≥ 20 by Stirling's series, whose large terms cancel
    /// analytically: (a − ½) ln(1 + b/a) + b ln(a + b) − b, plus the difference of the corrections
    /// 1/(12x) − 1/(360x³) + 1/(1260x⁵) − 1/(1680x⁷) at a + b and a (the difference of two `lgamma`
    /// of 10⁹ would lose six digits).
    static func logGammaDifference(_ a: Double, _ b: Double) -> Double {
        guard a >= 20 else { return logGamma(a + b) - logGamma(a) }
        func correction(_ x: Double) -> Double {
            let x2 = x * x
            return (1.0 / 12 - (1.0 / 360 - (1.0 / 1260 - 1.0 / (1680 * x2)) / x2) / x2) / x
        }
        let main: Double = (a - 0.5) * log1p(b / a) + b * log(a + b) - b
        return main + (correction(a + b) - correction(a))
    }

    /// The coefficients of AS 241's rational approximations: |p − ½| ≤ 0.425, then r = √−ln(min(p, 1 − p))
    /// up to 5, then beyond.
    private enum AS241 {
        static let centralA = [
            3.387132872796366608, 133.14166789178437745, 1971.5909503065514427, 13731.693765509461125,
            45921.953931549871457, 67265.770927008700853, 33430.575583588128105, 2509.0809287301226727,
        ]
        static let centralB = [
            1, 42.313330701600911252, 687.1870074920579083, 5394.1960214247511077,
            21213.794301586595867, 39307.89580009271061, 28729.085735721942674, 5226.495278852545925,
        ]
        static let intermediateC = [
            1.42343711074968357734, 4.6303378461565452959, 5.7694972214606914055, 3.64784832476320460504,
            1.27045825245236838258, 0.24178072517745061177, 0.0227238449892691845833, 7.7454501427834140764e-4,
        ]
        static let intermediateD = [
            1, 2.05319162663775882187, 1.6763848301838038494, 0.68976733498510000455,
            0.14810397642748007459, 0.0151986665636164571966, 5.475938084995344946e-4, 1.05075007164441684324e-9,
        ]
        static let tailE = [
            6.6579046435011037772, 5.4637849111641143699, 1.7848265399172913358, 0.29656057182850489123,
            0.026532189526576123093, 0.0012426609473880784386, 2.71155556874348757815e-5, 2.01033439929228813265e-7,
        ]
        static let tailF = [
            1, 0.59983220655588793769, 0.13692988092273580531, 0.0148753612908506148525,
            7.868691311456132591e-4, 1.8463183175100546818e-5, 1.4215117583164458887e-7, 2.04426310338993978564e-15,
        ]
    }

    /// c[0] + c[1] r + c[2] r² + … (Horner).
    private static func poly(_ r: Double, _ c: [Double]) -> Double { c.reversed().reduce(0) { $0 * r + $1 } }

    // MARK: Student's t

    /// P(T ≤ t) for Student's t with `df` > 0 degrees of freedom (not necessarily an integer).
    package static func tCDF(_ t: Double, degreesOfFreedom df: Double) -> Double {
        precondition(df > 0, "degrees of freedom must be positive, found \(df)")
        if t.isNaN { return .nan }
        let upper = tUpperTail(abs(t), df)
        return t < 0 ? upper : 1 - upper
    }

    /// P(T > t) for t ≥ 0: half of `I_x(ν/2, 1/2)`, x = ν/(ν + t²), with 1 − x = t²/(ν + t²) computed
    /// as such (no cancellation near t = 0).
    static func tUpperTail(_ t: Double, _ df: Double) -> Double {
        if t == .infinity { return 0 }
        if t == 0 { return 0.5 }
        let t2 = t * t
        let x = df / (df + t2), y = t2 / (df + t2)
        // ln x and ln y from log1p: exact to the last bits even when x or y is near 1.
        return 0.5 * incompleteBeta(a: df / 2, b: 0.5, x: x, y: y, logX: -log1p(t2 / df), logY: -log1p(df / t2))
    }

    /// The density of Student's t at t.
    static func tDensity(_ t: Double, _ df: Double) -> Double {
        let logNorm: Double = logGammaDifference(df / 2, 0.5) - 0.5 * log(df * Double.pi)
        let power: Double = (df + 1) / 2 * log1p(t * t / df)
        return exp(logNorm - power)
    }

    /// The t with P(T ≤ t) = p, for `df` > 0 degrees of freedom.
    package static func tQuantile(_ p: Double, degreesOfFreedom df: Double) -> Double {
        precondition(p >= 0 && p <= 1, "a probability is in [0, 1], found \(p)")
        precondition(df > 0, "degrees of freedom must be positive, found \(df)")
        if p == 0 { return -.infinity }
        if p == 1 { return .infinity }
        if p == 0.5 { return 0 }
        let q = min(p, 1 - p)
        let t = tUpperQuantile(q, df)
        return p < 0.5 ? -t : t
    }

    /// The t ≥ 0 with P(T > t) = q, 0 < q < 1/2: Newton's method on u = log t for log P(T > e^u) − log q
    /// (nearly linear in the tail, where P(T > t) ~ K t^−ν), kept inside a bracket that bisection narrows
    /// when a step would leave it.
    static func tUpperQuantile(_ q: Double, _ df: Double) -> Double {
        // Closed forms: the Cauchy's cot(π q); for ν = 2, P(T > t) = (1 − t / √(2 + t²)) / 2.
        if df == 1 { return 1 / tan(.pi * q) }
        if df == 2 { return (1 - 2 * q) / (2 * q * (1 - q)).squareRoot() }
        let target = log(q)
        // First guess: the larger of the normal quantile and the tail's K t^−ν = q.
        let z = -normalQuantile(q)
        let logNorm: Double = logGammaDifference(df / 2, 0.5) - 0.5 * log(df * Double.pi)
        let logK: Double = logNorm + (df - 1) / 2 * log(df)
        let tail = (logK - target) / df
        var u = max(log(max(z, 1e-300)), tail)
        var low = -700.0, high = 700.0
        for _ in 0..<200 {
            let t = exp(u)
            let s = tUpperTail(t, df)
            let f = log(s) - target
            if f > 0 { low = u } else { high = u }
            if f == 0 { return t }
            // d/du log S(e^u) = −density · t / S.
            let slope = -tDensity(t, df) * t / s
            var next = u - f / slope
            if !next.isFinite || next <= low || next >= high { next = (low + high) / 2 }
            let step: Double = abs(next - u), scale: Double = max(1, abs(u))
            if step <= 4 * Double.ulpOfOne * scale { return exp(next) }
            u = next
        }
        return exp(u)
    }

    // MARK: Chi-square

    /// P(X > x) for a chi-square X with `df` > 0 degrees of freedom: Q(df/2, x/2).
    package static func chiSquareSurvival(_ x: Double, degreesOfFreedom df: Double) -> Double {
        precondition(df > 0, "degrees of freedom must be positive, found \(df)")
        if x <= 0 { return 1 }
        if x == .infinity { return 0 }
        return upperIncompleteGamma(a: df / 2, x: x / 2)
    }

    /// The regularized upper incomplete gamma Q(a, x) = Γ(a, x) / Γ(a), x > 0.
    static func upperIncompleteGamma(a: Double, x: Double) -> Double {
        let logPrefix: Double = a * log(x) - x - logGamma(a)
        if x < a + 1 {
            // P(a, x) = e^−x x^a / Γ(a + 1) · Σ x^n / ((a + 1)…(a + n)).
            var term = 1 / a, sum = term, ap = a
            for _ in 0..<100_000 {
                ap += 1
                term *= x / ap
                sum += term
                if abs(term) < abs(sum) * 1e-17 { break }
            }
            return 1 - sum * exp(logPrefix)
        }
        // Q(a, x) by its continued fraction (modified Lentz).
        let tiny = 1e-300
        var b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d
        for i in 1...100_000 {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-16 { break }
        }
        return exp(logPrefix) * h
    }

    // MARK: Incomplete beta

    /// The regularized incomplete beta I_x(a, b), given x and y = 1 − x (each exact where the caller
    /// has it): its continued fraction, on whichever of (a, b, x) and (b, a, y) converges fast.
    static func incompleteBeta(a: Double, b: Double, x: Double, y: Double, logX: Double, logY: Double) -> Double {
        if x <= 0 { return 0 }
        if y <= 0 { return 1 }
        let logBeta: Double = logGamma(min(a, b)) - logGammaDifference(max(a, b), min(a, b))
        let logPrefix: Double = a * logX + b * logY - logBeta
        if x < (a + 1) / (a + b + 2) {
            return exp(logPrefix) * betaFraction(a: a, b: b, x: x) / a
        }
        return 1 - exp(logPrefix) * betaFraction(a: b, b: a, x: y) / b
    }

    /// The continued fraction of I_x(a, b) (Numerical Recipes' betacf, modified Lentz).
    private static func betaFraction(a: Double, b: Double, x: Double) -> Double {
        let tiny = 1e-300
        let qab = a + b, qap = a + 1, qam = a - 1
        var c = 1.0, d = 1 - qab * x / qap
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...100_000 {
            let m = Double(m), m2 = 2 * m
            var aa = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-16 { break }
        }
        return h
    }
}

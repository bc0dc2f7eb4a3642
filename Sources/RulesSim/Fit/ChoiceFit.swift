import Foundation

/// A conditional (multinomial) logit fitted by maximum likelihood (McFadden 1974): among
/// alternatives 0…K−1, P(k | x) = e^(β·x_k) / Σ_j e^(β·x_j), alternative 0 the reference (its
/// covariates all 0), β by Newton's method on the log-likelihood, its covariance the inverse of the
/// observed information at the maximum (Wald intervals). Observations are given as counts of
/// identical ones (`Pattern`), as ``LogisticFit`` takes them.
///
/// A parameter the data cannot inform is not estimated but held at the value it is given (`fixed`)
/// and reported as not identified, with the same tests as ``LogisticFit``'s: its covariate separates
/// the choices (it is 0 on the alternatives never chosen, or on none of those ever chosen: its
/// estimate would be infinite), or it is, over the observations, a linear combination of those
/// before it (it never varies apart from them).
package struct ChoiceFit: Sendable {
    /// The estimates, in the order of the covariates.
    package var estimates: [Double]
    /// Their covariance (0 for a parameter held fixed).
    package var covariance: [[Double]]
    package var identified: [Bool]
    /// Not identified because the covariate follows those before it (false: separation or no variation).
    package var confounded: [Bool]
    /// Not identified because it separates the choices: true when no observation chose an
    /// alternative where the covariate is not 0, false when every one did, nil otherwise.
    package var separated: [Bool?]
    /// Not identified because Newton's steps did not settle with it estimated: the observations
    /// separate the choices along some combination of the covariates (its estimate would be infinite).
    package var diverged: [Bool]
    package var logLikelihood: Double
    /// The observations' total weight, and the weight of each alternative chosen.
    package var observations: Double
    package var chosen: [Double]

    /// One pattern of covariates: `x[k]` those of alternative k + 1 (the reference's are 0).
    package struct Pattern: Hashable, Sendable {
        package var x: [[Double]]
        package init(_ x: [[Double]]) { self.x = x }
    }

    package var standardErrors: [Double] { covariance.indices.map { covariance[$0][$0].squareRoot() } }

    /// Fits `counts` (per pattern, the observations that chose each alternative, the reference
    /// first); `fixed` gives each parameter's value when it is not identified (and the start);
    /// `held`: the parameters held at it whatever the data (none by default).
    package init(_ counts: [Pattern: [Double]], fixed: [Double], held: Set<Int> = []) throws(FitError) {
        let k = fixed.count
        let patterns = counts.keys.sorted { a, b in a.x.joined().lexicographicallyPrecedes(b.x.joined()) }
        let alternatives = (patterns.first?.x.count ?? 0) + 1
        guard patterns.allSatisfy({ p in p.x.count == alternatives - 1 && p.x.allSatisfy { $0.count == k } }),
            patterns.allSatisfy({ counts[$0]!.count == alternatives })
        else { throw FitError("every pattern has \(k) covariates for each alternative but the first, and a count for each") }
        let chosen = (0..<alternatives).map { a in patterns.reduce(0) { $0 + counts[$1]![a] } }
        let observations = chosen.reduce(0, +)
        self.chosen = chosen
        self.observations = observations
        var separated = [Bool?](repeating: nil, count: k)
        for j in 0..<k {
            // The alternatives where covariate j is ever not 0, and how often they were chosen.
            let on = (1..<alternatives).filter { a in patterns.contains { $0.x[a - 1][j] != 0 } }
            guard !on.isEmpty else { continue }
            let hits = on.reduce(0) { $0 + chosen[$1] }
            if hits == 0 { separated[j] = true } else if hits == observations { separated[j] = false }
        }
        self.separated = separated
        var free = Array(repeating: false, count: k)
        var confounded = Array(repeating: false, count: k)
        if observations > 0 {
            for j in 0..<k where separated[j] == nil && !held.contains(j) {
                let picked = (0..<k).filter { free[$0] } + [j]
                let gram = picked.map { a in
                    picked.map { b in
                        patterns.reduce(0) { sum, p in sum + counts[p]!.reduce(0, +) * p.x.reduce(0) { $0 + $1[a] * $1[b] } }
                    }
                }
                if LogisticFit.cholesky(gram) != nil {
                    free[j] = true
                } else {
                    confounded[j] = patterns.contains { p in p.x.contains { $0[j] != 0 } }
                }
            }
        }
        self.confounded = confounded
        var beta = fixed
        var index = (0..<k).filter { free[$0] }
        var diverged = Array(repeating: false, count: k)
        func terms(_ beta: [Double]) -> LogisticFit.Terms {
            var ll = 0.0
            var g = Array(repeating: 0.0, count: index.count)
            var h = Array(repeating: Array(repeating: 0.0, count: index.count), count: index.count)
            for pattern in patterns {
                let n = counts[pattern]!
                let total = n.reduce(0, +)
                let u = [0] + pattern.x.map { x in zip(beta, x).reduce(0) { $0 + $1.0 * $1.1 } }
                let top = u.max()!
                let logSum = top + log(u.reduce(0) { $0 + exp($1 - top) })
                let p = u.map { exp($0 - logSum) }
                for a in 0..<alternatives { ll += n[a] * (u[a] - logSum) }
                // x of each alternative (the reference's 0), and their mean under p.
                let x = [Array(repeating: 0.0, count: k)] + pattern.x
                let mean = (0..<k).map { j in (0..<alternatives).reduce(0) { $0 + p[$1] * x[$1][j] } }
                for (a, i) in index.enumerated() {
                    g[a] += (0..<alternatives).reduce(0) { $0 + n[$1] * x[$1][i] } - total * mean[i]
                    for (b, j) in index.enumerated() {
                        h[a][b] += total * (0..<alternatives).reduce(0) { $0 + p[$1] * (x[$1][i] - mean[i]) * (x[$1][j] - mean[j]) }
                    }
                }
            }
            return (ll, g, h)
        }
        /// Newton's method on the parameters `index`, the others held: nil when the steps do not settle.
        func newton() -> (ll: Double, covariance: [[Double]])? {
            let result = LogisticFit.newton(from: fixed, index: index, terms)
            beta = result.beta
            guard !index.isEmpty else { return (result.terms.ll, Array(repeating: Array(repeating: 0.0, count: k), count: k)) }
            guard result.settled, beta.allSatisfy({ $0.isFinite && abs($0) < 1e6 }), let inverse = LogisticFit.inverse(result.terms.hessian)
            else { return nil }
            var covariance = Array(repeating: Array(repeating: 0.0, count: k), count: k)
            for (a, i) in index.enumerated() { for (b, j) in index.enumerated() { covariance[i][j] = inverse[a][b] } }
            return (result.terms.ll, covariance)
        }
        // A few observations may separate the choices along a combination of covariates (no single
        // one): the maximum is then at infinity, and Newton's steps do not settle. One parameter is
        // then held, the last whose holding lets the others settle (else the last, and again).
        var result = newton()
        while result == nil {
            let all = index
            for candidate in all.reversed() {
                index = all.filter { $0 != candidate }
                result = newton()
                if result != nil {
                    (free[candidate], diverged[candidate]) = (false, true)
                    break
                }
            }
            if result == nil {
                index = Array(all.dropLast())
                (free[all.last!], diverged[all.last!]) = (false, true)
                result = newton()
            }
        }
        let covariance = result!.covariance
        let logLikelihood = result!.ll
        self.diverged = diverged
        estimates = beta
        self.covariance = covariance
        identified = free
        self.logLikelihood = logLikelihood
    }
}

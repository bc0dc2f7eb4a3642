import Foundation

/// A logistic regression fitted by maximum likelihood: P(y = 1 | x) = 1 / (1 + e^−(β·x)), β by
/// Newton's method on the log-likelihood, its covariance the inverse of the observed information
/// at the maximum (Wald intervals). Rows are given as counts of identical rows (`weight`), so a
/// million user-days that repeat a few hundred covariate patterns cost a few hundred terms.
///
/// A parameter the data cannot inform is not estimated: one whose covariate never varies among the
/// rows (never anything but 0, a column the intercept already is), or, for the intercept, data
/// where every outcome is the same (the estimate would run off to ±∞). It is held at the value it
/// is given (`fixed`) and reported as not identified.
package struct LogisticFit: Sendable {
    /// The estimates, in the order of the covariates (the intercept first).
    package var estimates: [Double]
    /// Their standard errors (0 for a parameter held fixed).
    package var standardErrors: [Double] { covariance.indices.map { covariance[$0][$0].squareRoot() } }
    /// The covariance of the estimates (the inverse of the observed information), in their order;
    /// the rows and columns of a parameter held fixed are 0.
    package var covariance: [[Double]]
    /// Whether each parameter was estimated (false: held at its fixed value, not identified).
    package var identified: [Bool]
    /// Whether a parameter not identified is so because its covariate, which varies, follows
    /// those before it (false: it never varies, or the outcome does not).
    package var confounded: [Bool]
    /// Why a parameter is not identified when the rows on one side of its covariate's least value
    /// all have the same outcome (its estimate would be infinite), nil otherwise.
    package var separated: [Separation?]

    /// The rows above the covariate's least value (else those at it) all had the outcome 0
    /// (`none`), else all 1.
    package struct Separation: Sendable {
        package var above: Bool
        package var none: Bool
    }
    package var logLikelihood: Double
    /// The rows' total weight, and the weight of those with y = 1.
    package var observations: Double
    package var events: Double

    /// One pattern of covariates (the intercept's 1 first), how many rows have it, and how many of
    /// them have y = 1.
    package struct Pattern: Hashable, Sendable {
        package var x: [Double]
        package init(_ x: [Double]) { self.x = x }
    }

    /// Rows by pattern of covariates: how many, and how many with y = 1.
    package typealias Counts = [Pattern: (rows: Double, events: Double)]

    /// Adds `other`'s rows and events to `sums`, pattern by pattern (any pattern: covariates, or a
    /// habit's observation before its task is numbered).
    static func add<Key: Hashable>(_ other: [Key: (rows: Double, events: Double)], into sums: inout [Key: (rows: Double, events: Double)]) {
        for (pattern, c) in other {
            sums[pattern, default: (0, 0)].rows += c.rows
            sums[pattern, default: (0, 0)].events += c.events
        }
    }

    /// One pattern's rows: its covariates, how many rows, how many with y = 1.
    package typealias Row = (x: [Double], rows: Double, events: Double)

    /// Fits `counts`; `fixed` gives each parameter's value when it is not identified (and the
    /// start of the iterations); the parameters in `held` keep it (not estimated, not identified).
    package init(_ counts: Counts, fixed: [Double], held: Set<Int> = []) throws(FitError) {
        let patterns = counts.keys.sorted { $0.x.lexicographicallyPrecedes($1.x) }
        try self.init(rows: patterns.map { ($0.x, counts[$0]!.rows, counts[$0]!.events) }, fixed: fixed, held: held)
    }

    /// Fits `rows` (each pattern once, in an order that is the same from run to run).
    package init(rows patterns: [Row], fixed: [Double], held: Set<Int> = []) throws(FitError) {
        let k = fixed.count
        guard patterns.allSatisfy({ $0.x.count == k }) else { throw FitError("every pattern has \(k) covariates") }
        observations = patterns.reduce(0) { $0 + $1.rows }
        events = patterns.reduce(0) { $0 + $1.events }
        // Which parameters the data can inform: in order, each whose covariate is not a linear
        // combination of those before it over the rows (its column adds a dimension to their Gram
        // matrix): a covariate that never varies is the intercept's, one that follows others (the
        // reminders a tier brings) is theirs. With one outcome only, none is.
        var free = Array(repeating: false, count: k)
        var confounded = Array(repeating: false, count: k)
        // A covariate separates the data when the rows at its least value, or those above it, all
        // have the same outcome: its estimate runs off to ±∞ (no user left after a day at tier 2).
        var separated = [Separation?](repeating: nil, count: k)
        // (The intercept's column, all 1, has no rows above its least value: it separates nothing.)
        for j in 0..<k where !held.contains(j) {
            let least = patterns.map { $0.x[j] }.min() ?? 0
            for above in [true, false] {
                let part = patterns.filter { ($0.x[j] != least) == above }
                let (rows, hits) = part.reduce((0.0, 0.0)) { ($0.0 + $1.rows, $0.1 + $1.events) }
                if rows > 0, rows < observations, hits == 0 || hits == rows { separated[j] = Separation(above: above, none: hits == 0) }
            }
        }
        self.separated = separated
        if events > 0, events < observations {
            for j in 0..<k where separated[j] == nil && !held.contains(j) {
                let chosen = (0..<k).filter { free[$0] } + [j]
                let gram = chosen.map { a in
                    chosen.map { b in patterns.reduce(0) { $0 + $1.rows * $1.x[a] * $1.x[b] } }
                }
                if Self.cholesky(gram) != nil { free[j] = true } else { confounded[j] = Set(patterns.map { $0.x[j] }).count > 1 }
            }
        }
        self.confounded = confounded
        var beta = fixed
        let index = (0..<k).filter { free[$0] }
        var information = [[Double]]()
        // Each pattern's non-zero covariates (a mixture's wide patterns are mostly zeros): all of
        // them for η, and the estimated ones (by their place in `index`) for the derivatives.
        let nonZero = patterns.map { p in p.x.indices.filter { p.x[$0] != 0 } }
        let place = Dictionary(uniqueKeysWithValues: index.enumerated().map { ($1, $0) })
        let estimated = nonZero.map { columns in columns.compactMap { i in place[i].map { (a: $0, i: i) } } }
        func terms(_ beta: [Double]) -> Terms {
            var ll = 0.0
            var g = Array(repeating: 0.0, count: index.count)
            var h = Array(repeating: Array(repeating: 0.0, count: index.count), count: index.count)
            for (r, pattern) in patterns.enumerated() {
                let (n, y) = (pattern.rows, pattern.events)
                let eta = nonZero[r].reduce(0) { $0 + beta[$1] * pattern.x[$1] }
                let p = 1 / (1 + exp(-eta))
                // log p and log(1 − p) without overflow for large |η|.
                let logP = -Self.softplus(-eta), log1mP = -Self.softplus(eta)
                ll += y * logP + (n - y) * log1mP
                let w = n * p * (1 - p)
                for (a, i) in estimated[r] {
                    g[a] += (y - n * p) * pattern.x[i]
                    for (b, j) in estimated[r] { h[a][b] += w * pattern.x[i] * pattern.x[j] }
                }
            }
            return (ll, g, h)
        }
        // Newton's method from 0 for the parameters estimated (the usual start: from a prior far in
        // a tail, a persona that never commits, the first step overshoots to where the information
        // vanishes), the others at their priors.
        var start = fixed
        for i in index { start[i] = 0 }
        let result = Self.newton(from: start, index: index, terms)
        beta = result.beta
        let current = result.terms
        information = current.hessian
        var covariance = Array(repeating: Array(repeating: 0.0, count: k), count: k)
        if !index.isEmpty {
            guard let inverse = Self.inverse(information) else {
                throw FitError("the covariates are collinear: the information matrix is singular")
            }
            for (a, i) in index.enumerated() { for (b, j) in index.enumerated() { covariance[i][j] = inverse[a][b] } }
        }
        estimates = beta
        self.covariance = covariance
        identified = free
        logLikelihood = current.ll
    }

    /// A log-likelihood at some β, its gradient and the information (minus its Hessian) on the
    /// parameters estimated.
    typealias Terms = (ll: Double, gradient: [Double], hessian: [[Double]])

    /// Newton's method from `start` on the parameters `index` (the others held at their start):
    /// each step halved until the log-likelihood does not fall, at most 100 steps. Returns the last
    /// β with its terms, and whether the steps settled (the last moved no parameter by 1e-10).
    static func newton(from start: [Double], index: [Int], _ terms: ([Double]) -> Terms) -> (beta: [Double], terms: Terms, settled: Bool) {
        var beta = start
        var current = terms(beta)
        for _ in 0..<100 {
            guard !index.isEmpty, let step = solve(current.hessian, current.gradient) else { break }
            var scale = 1.0
            let from = beta
            var next = current
            repeat {
                for (a, i) in index.enumerated() { beta[i] = from[i] + scale * step[a] }
                next = terms(beta)
                scale /= 2
            } while next.ll < current.ll - 1e-12 && scale > 1e-6
            let moved = zip(beta, from).map { abs($0 - $1) }.max() ?? 0
            current = next
            if moved < 1e-10 { return (beta, current, true) }
        }
        return (beta, current, false)
    }

    /// log(1 + e^x), without overflow.
    static func softplus(_ x: Double) -> Double { x > 0 ? x + log1p(exp(-x)) : log1p(exp(x)) }

    /// The solution of A x = b (A symmetric positive definite: Cholesky), nil when A is not.
    static func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        guard let l = cholesky(a) else { return nil }
        let n = b.count
        var y = b
        for i in 0..<n {
            for j in 0..<i { y[i] -= l[i][j] * y[j] }
            y[i] /= l[i][i]
        }
        var x = y
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in (i + 1)..<n { x[i] -= l[j][i] * x[j] }
            x[i] /= l[i][i]
        }
        return x
    }

    static func inverse(_ a: [[Double]]) -> [[Double]]? {
        let n = a.count
        var columns: [[Double]] = []
        for j in 0..<n {
            var e = Array(repeating: 0.0, count: n)
            e[j] = 1
            guard let x = solve(a, e) else { return nil }
            columns.append(x)
        }
        return (0..<n).map { i in (0..<n).map { j in columns[j][i] } }
    }

    /// The lower triangle L with L Lᵀ = A, nil when A is not positive definite (to a relative 1e-12).
    static func cholesky(_ a: [[Double]]) -> [[Double]]? {
        let n = a.count
        var l = Array(repeating: Array(repeating: 0.0, count: n), count: n)
        let scale = (0..<n).map { a[$0][$0] }.max() ?? 0
        for i in 0..<n {
            for j in 0...i {
                var sum = a[i][j]
                for k in 0..<j { sum -= l[i][k] * l[j][k] }
                if i == j {
                    guard sum > 1e-12 * max(scale, 1e-300) else { return nil }
                    l[i][i] = sum.squareRoot()
                } else {
                    l[i][j] = sum / l[j][j]
                }
            }
        }
        return l
    }
}

/// Why a fit could not be made.
package struct FitError: Error, CustomStringConvertible, Sendable {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

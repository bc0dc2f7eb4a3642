import Foundation

/// Latent segments of users: a finite mixture in which each user belongs to one of `k` segments
/// (with probability its share) and each segment has its own base chances (the leading terms of
/// each response: leaving's base, each habit task's rate, ``ResponseDesign/bases``), while the
/// responses' effects (a streak's, a denial's) are shared — the discrete "mass points" of
/// unobserved heterogeneity of Heckman and Singer (1984). Fitted by maximum likelihood with the
/// EM algorithm (Dempster, Laird and Rubin, 1977) from several starts (the best kept); the
/// intervals are Wald's from the observed information of the mixture's own log-likelihood (its
/// Hessian by central differences of the exact gradient), so they count the uncertainty of
/// which user is in which segment.
struct SegmentMixture: Sendable {
    var segments: Int
    /// The segments' shares, largest first, each with its 95 % interval.
    var shares: [(share: Double, low: Double, high: Double)]
    /// Per design, per segment, per term: the estimate (log-odds); per design, per segment, the
    /// covariance of its terms' estimates (the segment's block of the mixture's: a term held is 0).
    var estimates: [[[Double]]]
    var covariances: [[[[Double]]]]
    /// The free parameters' joint distribution (a shared effect's and the shares' draws are the
    /// same for every segment).
    var sampling: FitSampling
    var logLikelihood: Double
    /// Free parameters (shares and estimated terms), and the BIC: −2 log L + parameters × ln(users).
    var parameters: Int
    var bic: Double
    /// EM's iterations from the best start.
    var iterations: Int
    /// Per design, per segment, per base term: whether the segment's users have too few
    /// observations of it (``fewestObservations``: held at its prior, not identified there).
    var absent: [[[Bool]]] = []
    /// Per design, per segment: its observations and those with the outcome, each user's
    /// weighted by its probability of being in the segment; and the users so counted.
    var expected: [[(observations: Double, events: Double)]]
    var expectedUsers: [Double]
    /// Each user's chances of being in each segment, given its observations (the posterior
    /// memberships of the last E step), in the designs' order of users.
    var memberships: [[Double]]

    /// One user's observations of one response with the same covariates: their pattern (an
    /// index in the design's `patterns`), how many, and how many with the outcome.
    private struct Row {
        var pattern: Int
        var n: Double
        var y: Double
    }

    /// A design's distinct patterns of covariates, and each user's rows.
    private struct Observations {
        var patterns: [[Double]]
        var users: [[Row]]

        init(_ design: ResponseDesign) {
            let all = Set(design.users.flatMap(\.keys)).sorted { $0.x.lexicographicallyPrecedes($1.x) }
            let index = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1, $0) })
            patterns = all.map(\.x)
            users = design.users.map { counts in
                counts.keys.map { index[$0]! }.sorted().map { p in Row(pattern: p, n: counts[all[p]]!.rows, y: counts[all[p]]!.events) }
            }
        }
    }

    /// The most iterations of EM from one start, and its tolerance on the log-likelihood.
    static let maxIterations = 500
    static let tolerance = 1e-8
    /// Starts: one by quantiles of the users' success shares, the others drawn (seeded); each
    /// runs this many iterations before the best goes on.
    static let starts = 4
    static let shortRun = 20
    /// Newton's steps on the mixture's likelihood after EM, at most.
    static let newtonSteps = 30
    /// The fewest observations (each user's weighted by its responsibility) a segment needs of a
    /// base term for it to be estimated in that segment.
    static let fewestObservations = 1.0

    /// Fits `k` segments to the users of `designs` (each user's rows in the same order in each);
    /// `free[d][j]`: whether term j of design d is estimated (the one-segment fit's identified
    /// terms; the others are held at their priors). Throws when the information is singular (a
    /// segment the data cannot tell apart from another).
    init(_ designs: [ResponseDesign], free: [[Bool]], segments k: Int) throws {
        precondition(k >= 1 && !designs.isEmpty)
        let users = designs[0].users.count
        // Each user's rows, their patterns in a fixed order (sums the same from run to run).
        let rows = designs.map(Observations.init)
        // A short run of EM from each start, then the best one run to convergence ("small EM":
        // Biernacki, Celeux and Govaert, 2003).
        var best: State?
        for start in 0..<(k == 1 ? 1 : Self.starts) {
            var state = State(designs: designs, rows: rows, free: free, k: k, users: users)
            state.responsibilities =
                start == 0 ? Self.quantileStart(rows, k: k, users: users) : Self.drawnStart(k: k, users: users, seed: start)
            try state.run(upTo: Self.shortRun)
            if best == nil || state.logLikelihood > best!.logLikelihood + 1e-9 { best = state }
        }
        var state = best!
        try state.run(upTo: Self.maxIterations)
        // Segments in order of share, largest first (ties: as found).
        let order = (0..<k).sorted { (-state.shares[$0], $0) < (-state.shares[$1], $1) }
        state.reorder(order)
        // A base term a segment's users have (almost) no observation of (a task only the other
        // segments' users do): the log says nothing of it in that segment; it is held at its prior.
        let sums = state.weighted(state.responsibilities)
        absent = designs.indices.map { d in
            (0..<k).map { s in
                (0..<designs[d].bases).map { j in
                    zip(rows[d].patterns, sums[d][s].n).reduce(0) { $0 + $1.0[j] * $1.1 } < Self.fewestObservations
                }
            }
        }
        for d in designs.indices {
            for s in 0..<k { for j in 0..<designs[d].bases where absent[d][s][j] { state.beta[d][s][j] = designs[d].prior[j] } }
        }
        state.absent = absent
        let (covariance, index) = try state.covariance()
        let z = Distribution.normalQuantile(0.975)
        estimates = state.beta
        // Where each (design, segment, term) is among the free parameters.
        var place: [[[Int?]]] = state.beta.map { $0.map { $0.map { _ in nil } } }
        for (i, p) in index.enumerated() {
            switch p {
            case .base(let d, let s, let j): place[d][s][j] = i
            case .effect(let d, let j): for s in 0..<k { place[d][s][j] = i }
            case .share: break
            }
        }
        covariances = place.map { design in
            design.map { terms in
                terms.map { a in terms.map { b in a.flatMap { a in b.map { covariance[a][$0] } } ?? 0 } }
            }
        }
        let beta = state.beta, pi = state.shares
        sampling = FitSampling(
            places: index.map { p in
                switch p {
                case .base(let d, let s, let j): .term(segments: [s], response: d, term: j)
                case .effect(let d, let j): .term(segments: Array(0..<k), response: d, term: j)
                case .share(let s): .share(s)
                }
            },
            mean: index.map { p in
                switch p {
                case .base(let d, let s, let j): beta[d][s][j]
                case .effect(let d, let j): beta[d][0][j]
                case .share(let s): log(pi[s] / pi[0])
                }
            },
            covariance: covariance)
        // A share's interval: its logit's (delta method through the softmax of the α's), mapped back.
        let alphas = index.enumerated().compactMap { (i, p) -> (i: Int, s: Int)? in if case .share(let s) = p { (i, s) } else { nil } }
        shares = (0..<k).map { s in
            var variance = 0.0
            for a in alphas {
                for b in alphas {
                    let ja = pi[s] * ((s == a.s ? 1 : 0) - pi[a.s]), jb = pi[s] * ((s == b.s ? 1 : 0) - pi[b.s])
                    variance += ja * jb * covariance[a.i][b.i]
                }
            }
            let p = min(max(pi[s], 1e-12), 1 - 1e-12)
            let logit = log(p / (1 - p)), se = variance.squareRoot() / (p * (1 - p))
            let sigmoid = { (x: Double) in 1 / (1 + exp(-x)) }
            return k == 1 ? (1, 1, 1) : (pi[s], sigmoid(logit - z * se), sigmoid(logit + z * se))
        }
        segments = k
        logLikelihood = state.logLikelihood
        parameters = index.count
        bic = -2 * logLikelihood + Double(parameters) * log(Double(max(users, 1)))
        iterations = state.iterations
        let r = state.responsibilities
        let weighted = state.weighted(r)
        expected = weighted.map { design in design.map { ($0.n.reduce(0, +), $0.y.reduce(0, +)) } }
        expectedUsers = (0..<k).map { s in r.reduce(0) { $0 + $1[s] } }
        memberships = r
    }

    /// Users sorted by their share of successes (every response's together) and cut into `k`
    /// groups of equal size, each one a segment's.
    private static func quantileStart(_ rows: [Observations], k: Int, users: Int) -> [[Double]] {
        let score = (0..<users).map { u in
            let (y, n) = rows.reduce((0.0, 0.0)) { acc, design in design.users[u].reduce(acc) { ($0.0 + $1.y, $0.1 + $1.n) } }
            return n > 0 ? y / n : 0
        }
        let order = (0..<users).sorted { (score[$0], $0) < (score[$1], $1) }
        var r = Array(repeating: Array(repeating: 0.0, count: k), count: users)
        for (rank, u) in order.enumerated() { r[u][min(k - 1, rank * k / max(users, 1))] = 1 }
        return r
    }

    /// Responsibilities drawn at random (a fixed generator per start: the same fit every run).
    private static func drawnStart(k: Int, users: Int, seed: Int) -> [[Double]] {
        var random = SimRandom(seed: UInt64(seed), user: 0, stream: 0x5e6)
        return (0..<users).map { _ in
            let r = (0..<k).map { _ in 0.05 + random.unit() }
            let sum = r.reduce(0, +)
            return r.map { $0 / sum }
        }
    }

    /// A parameter of the mixture, as the information matrix orders them.
    private enum Free: Equatable {
        /// Segment s's base term j of design d.
        case base(Int, Int, Int)
        /// Design d's effect term j, shared by the segments.
        case effect(Int, Int)
        /// The log-odds of segment s's share against the first's.
        case share(Int)
    }

    /// EM's state from one start.
    private struct State {
        let designs: [ResponseDesign]
        let rows: [Observations]
        let free: [[Bool]]
        let k: Int
        let users: Int
        /// Per design, per segment, per term (the effects the same in every segment).
        var beta: [[[Double]]]
        var shares: [Double]
        var responsibilities: [[Double]] = []
        /// Per design, per segment, per base term: held (its segment has no observation of it).
        var absent: [[[Bool]]] = []
        var logLikelihood = -Double.infinity
        var iterations = 0

        init(designs: [ResponseDesign], rows: [Observations], free: [[Bool]], k: Int, users: Int) {
            (self.designs, self.rows, self.free, self.k, self.users) = (designs, rows, free, k, users)
            beta = designs.map { design in Array(repeating: design.prior, count: k) }
            shares = Array(repeating: 1 / Double(k), count: k)
        }

        /// EM from the responsibilities (M step, E step) until the log-likelihood stops rising,
        /// or `most` iterations in all.
        mutating func run(upTo most: Int) throws {
            while iterations < most {
                try maximize()
                let before = logLikelihood
                (responsibilities, logLikelihood) = expect(beta: beta, shares: shares)
                iterations += 1
                if abs(logLikelihood - before) < SegmentMixture.tolerance * (1 + abs(logLikelihood)) { break }
            }
        }

        /// Per design, per segment, per pattern: the users' rows weighted by their
        /// responsibilities `r` for the segment (observations, and those with the outcome).
        func weighted(_ r: [[Double]]) -> [[(n: [Double], y: [Double])]] {
            rows.map { design in
                var sums = Array(
                    repeating: (
                        n: Array(repeating: 0.0, count: design.patterns.count), y: Array(repeating: 0.0, count: design.patterns.count)
                    ), count: k)
                for u in 0..<users {
                    for s in 0..<k where r[u][s] > 0 {
                        let w = r[u][s]
                        for row in design.users[u] {
                            sums[s].n[row.pattern] += w * row.n
                            sums[s].y[row.pattern] += w * row.y
                        }
                    }
                }
                return sums
            }
        }

        /// The M step: the shares, then each design's terms by a logistic regression of every
        /// user's rows once per segment, weighted by the user's responsibility for it.
        mutating func maximize() throws {
            shares = (0..<k).map { s in max(responsibilities.reduce(0) { $0 + $1[s] } / Double(users), 1e-12) }
            let sums = weighted(responsibilities)
            for (d, design) in designs.enumerated() {
                let b = design.bases, terms = design.prior.count, width = b * k + terms - b
                // Each segment's patterns, widened (its base terms in its own columns), in
                // lexicographic order, equal ones merged.
                var wide: [LogisticFit.Row] = []
                for s in 0..<k {
                    for (p, x) in rows[d].patterns.enumerated() where sums[d][s].n[p] > 0 {
                        var row = Array(repeating: 0.0, count: width)
                        for j in 0..<b { row[s * b + j] = x[j] }
                        for j in b..<terms { row[b * k + j - b] = x[j] }
                        wide.append((row, sums[d][s].n[p], sums[d][s].y[p]))
                    }
                }
                wide.sort { $0.x.lexicographicallyPrecedes($1.x) }
                var merged: [LogisticFit.Row] = []
                for row in wide {
                    if let last = merged.last, last.x == row.x {
                        merged[merged.count - 1].rows += row.rows
                        merged[merged.count - 1].events += row.events
                    } else {
                        merged.append(row)
                    }
                }
                let start = (0..<k).flatMap { s in beta[d][s][..<b] } + beta[d][0][b...]
                let held = Set((0..<width).filter { c in !free[d][c < b * k ? c % b : c - b * k + b] })
                let fit = try LogisticFit(rows: merged, fixed: Array(start), held: held)
                for s in 0..<k {
                    for j in 0..<b { beta[d][s][j] = fit.estimates[s * b + j] }
                    for j in b..<terms { beta[d][s][j] = fit.estimates[b * k + j - b] }
                }
            }
        }

        /// Per design, per segment, per pattern: η.
        func linear(_ beta: [[[Double]]]) -> [[[Double]]] {
            rows.indices.map { d in
                (0..<k).map { s in rows[d].patterns.map { x in zip(beta[d][s], x).reduce(0) { $0 + $1.0 * $1.1 } } }
            }
        }

        /// The E step: each user's responsibilities, and the log-likelihood of the mixture.
        func expect(beta: [[[Double]]], shares: [Double]) -> ([[Double]], Double) {
            let eta = linear(beta)
            // log p and log(1 − p) of each pattern, without overflow for large |η|.
            let logP = eta.map { $0.map { $0.map { -LogisticFit.softplus(-$0) } } }
            let log1mP = eta.map { $0.map { $0.map { -LogisticFit.softplus($0) } } }
            var total = 0.0
            var r = Array(repeating: Array(repeating: 0.0, count: k), count: users)
            for u in 0..<users {
                var a = (0..<k).map { log(shares[$0]) }
                for d in rows.indices {
                    for row in rows[d].users[u] {
                        for s in 0..<k { a[s] += row.y * logP[d][s][row.pattern] + (row.n - row.y) * log1mP[d][s][row.pattern] }
                    }
                }
                let m = a.max()!
                let lse = m + log(a.reduce(0) { $0 + exp($1 - m) })
                total += lse
                r[u] = a.map { exp($0 - lse) }
            }
            return (r, total)
        }

        /// Puts the segments in `order`.
        mutating func reorder(_ order: [Int]) {
            beta = beta.map { segments in order.map { segments[$0] } }
            shares = order.map { shares[$0] }
            responsibilities = responsibilities.map { r in order.map { r[$0] } }
        }

        /// The free parameters, in the information matrix's order.
        var index: [Free] {
            var index: [Free] = []
            for (d, design) in designs.enumerated() {
                for s in 0..<k {
                    for j in 0..<design.bases where free[d][j] && !(absent.isEmpty ? false : absent[d][s][j]) {
                        index.append(.base(d, s, j))
                    }
                }
                for j in design.bases..<design.prior.count where free[d][j] { index.append(.effect(d, j)) }
            }
            return index + (1..<max(k, 1)).map { .share($0) }
        }

        /// The parameters' values at `theta` (the free ones, in `index`'s order).
        func unpack(_ theta: [Double], _ index: [Free]) -> (beta: [[[Double]]], shares: [Double]) {
            var beta = self.beta
            var alpha = Array(repeating: 0.0, count: k)
            for s in 1..<max(k, 1) { alpha[s] = log(shares[s] / shares[0]) }
            for (i, p) in index.enumerated() {
                switch p {
                case .base(let d, let s, let j): beta[d][s][j] = theta[i]
                case .effect(let d, let j): for s in 0..<k { beta[d][s][j] = theta[i] }
                case .share(let s): alpha[s] = theta[i]
                }
            }
            let m = alpha.max()!
            let e = alpha.map { exp($0 - m) }
            let sum = e.reduce(0, +)
            return (beta, e.map { $0 / sum })
        }

        /// The gradient of the mixture's log-likelihood at `theta`.
        func gradient(_ theta: [Double], _ index: [Free]) -> [Double] {
            let (beta, shares) = unpack(theta, index)
            let (r, _) = expect(beta: beta, shares: shares)
            let sums = weighted(r), eta = linear(beta)
            // Per design, per segment, per term: Σ_u r_us Σ_rows x (y − n p).
            var score = designs.map { design in Array(repeating: Array(repeating: 0.0, count: design.prior.count), count: k) }
            for d in designs.indices {
                for s in 0..<k {
                    for (p, x) in rows[d].patterns.enumerated() where sums[d][s].n[p] > 0 {
                        let w = sums[d][s].y[p] - sums[d][s].n[p] / (1 + exp(-eta[d][s][p]))
                        for j in x.indices where x[j] != 0 { score[d][s][j] += w * x[j] }
                    }
                }
            }
            var g = Array(repeating: 0.0, count: index.count)
            for (i, p) in index.enumerated() {
                switch p {
                case .base(let d, let s, let j): g[i] = score[d][s][j]
                case .effect(let d, let j): g[i] = (0..<k).reduce(0) { $0 + score[d][$1][j] }
                case .share(let s): g[i] = r.reduce(0) { $0 + $1[s] - shares[s] }
                }
            }
            return g
        }

        /// The inverse of the observed information at the maximum (the Hessian of the
        /// log-likelihood by central differences of its gradient), with the parameters' order.
        mutating func covariance() throws -> ([[Double]], [Free]) {
            let index = self.index
            var theta = Array(repeating: 0.0, count: index.count)
            for (i, p) in index.enumerated() {
                switch p {
                case .base(let d, let s, let j): theta[i] = beta[d][s][j]
                case .effect(let d, let j): theta[i] = beta[d][0][j]
                case .share(let s): theta[i] = log(shares[s] / shares[0])
                }
            }
            let n = index.count
            /// The observed information at θ: minus the Hessian by central differences of the gradient.
            func information(_ theta: [Double]) -> [[Double]] {
                var hessian = Array(repeating: Array(repeating: 0.0, count: n), count: n)
                for j in 0..<n {
                    let h = 1e-5 * max(1, abs(theta[j]))
                    var plus = theta, minus = theta
                    plus[j] += h
                    minus[j] -= h
                    let (gp, gm) = (gradient(plus, index), gradient(minus, index))
                    for i in 0..<n { hessian[i][j] = (gp[i] - gm[i]) / (2 * h) }
                }
                var information = hessian
                for i in 0..<n { for j in 0..<n { information[i][j] = -(hessian[i][j] + hessian[j][i]) / 2 } }
                return information
            }
            func likelihood(_ theta: [Double]) -> Double {
                let (beta, shares) = unpack(theta, index)
                return expect(beta: beta, shares: shares).1
            }
            // EM creeps near a maximum where the segments overlap: Newton's steps on the mixture's
            // own likelihood finish the climb (each halved until the likelihood does not fall).
            var info = information(theta)
            var ll = likelihood(theta)
            for _ in 0..<SegmentMixture.newtonSteps where n > 0 {
                guard let step = LogisticFit.solve(info, gradient(theta, index)) else { break }
                var scale = 1.0, next = theta, nextLL = ll
                repeat {
                    next = zip(theta, step).map { $0 + scale * $1 }
                    nextLL = likelihood(next)
                    scale /= 2
                } while !(nextLL >= ll - 1e-9) && scale > 1e-6
                guard nextLL >= ll - 1e-9 else { break }
                let moved = zip(next, theta).map { abs($0 - $1) }.max() ?? 0
                (theta, ll) = (next, nextLL)
                info = information(theta)
                if moved < 1e-8 { break }
            }
            (beta, shares) = unpack(theta, index)
            (responsibilities, logLikelihood) = expect(beta: beta, shares: shares)
            guard n == 0 || LogisticFit.cholesky(info) != nil, let inverse = n == 0 ? [] : LogisticFit.inverse(info) else {
                throw FitError(
                    "\(k) segments: no maximum of the likelihood was found (the information is not positive definite"
                        + " after \(iterations) iterations of EM: segments the log cannot tell apart)")
            }
            return (inverse, index)
        }
    }
}

import Foundation

/// A fit's approximate sampling distribution: its free parameters on the scale the fit works on
/// (log-odds), jointly normal, their estimates the mean and the inverse of the observed
/// information the covariance — what a draw of the fit (``PersonaFit/drawn(seed:draw:)``) takes
/// its parameters from. A parameter not identified is not among them (it keeps its prior).
struct FitSampling: Sendable {
    /// Where a free parameter is in the fit.
    enum Place: Sendable {
        /// Term `term` of response `response` (in the order of ``PersonaFit/responses``) of each of
        /// `segments` (0 for the users as one segment; a shared effect: every segment).
        case term(segments: [Int], response: Int, term: Int)
        /// The log-odds of segment `s`'s share against the first segment's.
        case share(Int)
    }

    var places: [Place]
    var mean: [Double]
    var covariance: [[Double]]

    /// The distribution of the users as one segment: each response's identified parameters, with
    /// their covariance (the responses are fitted to separate likelihoods: independent).
    init(responses: [FittedResponse]) {
        var places: [Place] = [], mean: [Double] = [], blocks: [[[Double]]] = []
        for (d, response) in responses.enumerated() {
            let free = response.parameters.indices.filter { response.parameters[$0].identified }
            let scaled = response.scaled
            places += free.map { .term(segments: [0], response: d, term: $0) }
            mean += free.map { scaled[$0] }
            blocks.append(free.map { i in free.map { response.covariance[i][$0] } })
        }
        var covariance = Array(repeating: Array(repeating: 0.0, count: mean.count), count: mean.count)
        var at = 0
        for block in blocks {
            for i in block.indices { for j in block.indices { covariance[at + i][at + j] = block[i][j] } }
            at += block.count
        }
        self.init(places: places, mean: mean, covariance: covariance)
    }

    init(places: [Place], mean: [Double], covariance: [[Double]]) {
        (self.places, self.mean, self.covariance) = (places, mean, covariance)
    }

    /// One draw: mean + L z, L the covariance's Cholesky factor and z standard normal deviates
    /// from `random` (Box and Muller). A covariance that is not positive definite (to rounding)
    /// draws each parameter alone from its own variance.
    func draw(_ random: inout SimRandom) -> [Double] {
        let n = mean.count
        var z: [Double] = []
        while z.count < n {
            let u = 1 - random.unit(), v = random.unit()
            let r = (-2 * log(u)).squareRoot()
            z += [r * cos(2 * .pi * v), r * sin(2 * .pi * v)]
        }
        guard n > 0 else { return [] }
        var factor: [[Double]]
        if let l = LogisticFit.cholesky(covariance) {
            factor = l
        } else {
            factor = Array(repeating: Array(repeating: 0.0, count: n), count: n)
            for i in 0..<n { factor[i][i] = max(covariance[i][i], 0).squareRoot() }
        }
        var values = mean
        for i in 0..<n {
            for j in 0...i { values[i] += factor[i][j] * z[j] }
        }
        return values
    }
}

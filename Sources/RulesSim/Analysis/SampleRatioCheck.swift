/// The sample-ratio check: whether the users logged in each arm fit the shares they were assigned in
/// (the bundle manifest's, in basis points of 10,000), by Pearson's chi-square goodness of fit with
/// k − 1 degrees of freedom. A mismatch (p below `threshold`, 0.001 by default, as GrowthBook and most
/// platforms flag it) means the assignment or the logging lost users unevenly: the comparison of the
/// arms is then not to be trusted.
package struct SampleRatioCheck: Sendable, Equatable {
    package var chiSquare: Double
    package var degreesOfFreedom: Int
    package var pValue: Double
    package var threshold: Double
    /// p < threshold.
    package var flagged: Bool { pValue < threshold }

    package static let defaultThreshold = 0.001

    /// `counts[i]` users were logged in arm i, assigned `expectedBasisPoints[i]` of 10,000 (the shares
    /// are used relative to their sum). An arm with share 0 is left out when it has no user, and is a
    /// mismatch (p = 0) when it has some.
    package init(counts: [Int], expectedBasisPoints: [Int], threshold: Double = defaultThreshold) throws(AnalysisError) {
        guard counts.count == expectedBasisPoints.count else {
            throw AnalysisError("sample ratio: \(counts.count) arms counted, but \(expectedBasisPoints.count) shares expected")
        }
        guard counts.count >= 2 else { throw AnalysisError("sample ratio: \(counts.count) arm(s), expected at least 2") }
        if let i = counts.firstIndex(where: { $0 < 0 }) {
            throw AnalysisError("sample ratio: arm \(i) counts \(counts[i]) users, expected at least 0")
        }
        if let i = expectedBasisPoints.firstIndex(where: { !(0...10_000).contains($0) }) {
            throw AnalysisError("sample ratio: arm \(i)'s share is \(expectedBasisPoints[i]) basis points, expected 0 to 10000")
        }
        let shares = expectedBasisPoints.reduce(0, +)
        guard shares > 0 else { throw AnalysisError("sample ratio: every share is 0, expected some above 0") }
        guard threshold > 0, threshold < 1 else {
            throw AnalysisError("sample ratio: threshold \(threshold), expected a p-value between 0 and 1")
        }
        self.threshold = threshold
        let total = Double(counts.reduce(0, +))
        var chi = 0.0, arms = 0
        for (count, share) in zip(counts, expectedBasisPoints) {
            let expected = total * Double(share) / Double(shares)
            if expected == 0 {
                if count > 0 { chi = .infinity }
                continue
            }
            arms += 1
            let d = Double(count) - expected
            chi += d * d / expected
        }
        chiSquare = chi
        degreesOfFreedom = max(1, arms - 1)
        pValue = total == 0 ? 1 : Distribution.chiSquareSurvival(chi, degreesOfFreedom: Double(degreesOfFreedom))
    }
}

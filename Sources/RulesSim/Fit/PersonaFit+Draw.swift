import Foundation

extension PersonaFit {
    /// The stream of the fit's draws ("DRAW"), apart from every simulated user's.
    static let drawStream: UInt64 = 0x4452_4157

    /// The fit with its parameters drawn from its approximate sampling distribution
    /// (``FitSampling``: jointly normal on the fit's scale; the mixture's, shares and shared effects
    /// together, with segments; else each response's): what a prediction simulates to carry the
    /// fit's uncertainty; the unlock gate's choice, fitted apart, is drawn apart (``GateFit/drawn(_:)``).
    /// A parameter not identified keeps its prior. Draw `draw` of `seed` is the same every run.
    package func drawn(seed: UInt64, draw: Int) -> PersonaFit {
        let sampling = self.sampling ?? FitSampling(responses: responses)
        var random = SimRandom(seed: seed, user: draw, stream: Self.drawStream)
        let values = sampling.draw(&random)
        var copy = self
        copy.gate = gate?.drawn(&random)
        if let answers { copy.answers = answers.with(scaled: Self.drawn(answers, &random)) }
        var scaled = segments.isEmpty ? [responses.map(\.scaled)] : segments.map { $0.responses.map(\.scaled) }
        var alpha = segments.indices.map { s in s == 0 ? 0 : log(segments[s].share / segments[0].share) }
        for (place, value) in zip(sampling.places, values) {
            switch place {
            case .term(let inSegments, let d, let j): for s in inSegments { scaled[s][d][j] = value }
            case .share(let s): alpha[s] = value
            }
        }
        if segments.isEmpty {
            copy.responses = zip(responses, scaled[0]).map { $0.with(scaled: $1) }
            return copy
        }
        let m = alpha.max() ?? 0
        let e = alpha.map { exp($0 - m) }
        let total = e.reduce(0, +)
        for s in copy.segments.indices {
            copy.segments[s].share = e[s] / total
            copy.segments[s].responses = zip(segments[s].responses, scaled[s]).map { $0.with(scaled: $1) }
        }
        return copy
    }

    /// `response`'s parameters on the fit's scale, its identified ones drawn from their sampling distribution.
    private static func drawn(_ response: FittedResponse, _ random: inout SimRandom) -> [Double] {
        var values = response.scaled
        let sampling = FitSampling(responses: [response])
        for (place, value) in zip(sampling.places, sampling.draw(&random)) {
            if case .term(_, _, let j) = place { values[j] = value }
        }
        return values
    }
}

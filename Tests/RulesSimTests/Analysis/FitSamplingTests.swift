import Foundation
import Testing

@testable import RulesSim

/// The draws of a fit (``FitSampling``, what `fit --predict` simulates): jointly normal on the
/// log-odds scale, with the fit's estimates as their mean and its covariance (the inverse of the
/// observed information) as theirs; a parameter not identified is never drawn.
@Suite struct FitSamplingTests {
    /// A logistic response of an intercept (a base chance), a covariate that varies and one that
    /// never does (not identified), fitted to exact counts.
    static func response() throws -> FittedResponse {
        let response = LogisticResponse(
            name: "leaving", model: "",
            terms: [
                .init(name: "base", lua: "", covariate: "", probability: true), .init(name: "x", lua: "", covariate: "x"),
                .init(name: "never", lua: "", covariate: "never"),
            ],
            observation: "day", outcome: "left")
        var counts = LogisticFit.Counts()
        for x in 0..<4 {
            let p = 1 / (1 + exp(-(-2 + 0.3 * Double(x))))
            counts[LogisticFit.Pattern([1, Double(x), 0])] = (rows: 500, events: (500 * p).rounded())
        }
        return try response.fit(counts, prior: [0, 0, 0.7], observed: "")
    }

    @Test func drawsHaveTheFitsMeanAndCovarianceAndLeaveWhatIsNotIdentified() throws {
        let fitted = try Self.response()
        #expect(fitted.parameters.map(\.identified) == [true, true, false])
        #expect(fitted.covariance[2] == [0, 0, 0] && fitted.covariance[0][1] < 0, "\(fitted.covariance)")
        let sampling = FitSampling(responses: [fitted])
        #expect(sampling.places.count == 2)
        var random = SimRandom(seed: 1, user: 0, stream: 7)
        let n = 20_000
        let draws = (0..<n).map { _ in sampling.draw(&random) }
        let scaled = fitted.scaled
        for i in 0..<2 {
            let mean = draws.reduce(0) { $0 + $1[i] } / Double(n)
            let error = (fitted.covariance[i][i] / Double(n)).squareRoot()
            #expect(abs(mean - scaled[i]) < 4 * error, "\(i): \(mean) against \(scaled[i])")
            for j in 0..<2 {
                let c = draws.reduce(0) { $0 + ($1[i] - scaled[i]) * ($1[j] - scaled[j]) } / Double(n)
                let scale = (fitted.covariance[i][i] * fitted.covariance[j][j]).squareRoot()
                #expect(abs(c - fitted.covariance[i][j]) < 0.05 * scale, "\(i), \(j): \(c) against \(fitted.covariance[i][j])")
            }
        }
        // A response drawn: the base chance mapped back, the parameter not identified at its prior.
        let drawn = fitted.with(scaled: [draws[0][0], draws[0][1], scaled[2]])
        #expect(abs(drawn.parameters[0].estimate - 1 / (1 + exp(-draws[0][0]))) < 1e-12)
        #expect(drawn.parameters[2].estimate == 0.7)
    }

    /// The unlock gate's choice drawn: each weight and `sensitivity` spread as its interval says
    /// (the draws' standard deviation within 10 % of the interval's half-width over 1.96), the
    /// weights' sum below 1, and `reference`, not identified with one credit length, at its prior.
    @Test func theGatesDrawsSpreadAsItsIntervalsSay() throws {
        let choices = ChoiceFitTests.choices(prices: [25, 37, 50], minutes: [15], held: [30, 90])
        let fit = try GateFit(choices, gate: .init(), price: .init())
        #expect(!fit.parameters[5].identified)
        var random = SimRandom(seed: 2, user: 0, stream: 7)
        let draws = (0..<4000).map { _ in fit.drawn(&random).parameters.map(\.estimate) }
        for j in [0, 1, 2, 3] {
            let p = fit.parameters[j]
            let mean = draws.reduce(0) { $0 + $1[j] } / Double(draws.count)
            let sd = (draws.reduce(0) { $0 + ($1[j] - mean) * ($1[j] - mean) } / Double(draws.count - 1)).squareRoot()
            let expected = (p.high - p.low) / (2 * Distribution.normalQuantile(0.975))
            #expect(abs(sd - expected) < 0.1 * expected, "\(p.name): sd \(sd) against \(expected)")
            #expect(abs(mean - p.estimate) < 0.2 * expected, "\(p.name): mean \(mean) against \(p.estimate)")
        }
        #expect(draws.allSatisfy { $0[0] + $0[1] + $0[2] < 1 && $0[5] == fit.parameters[5].estimate })
    }
}

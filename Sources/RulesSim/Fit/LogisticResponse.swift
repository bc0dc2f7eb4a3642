import Foundation

/// A response whose choice is one yes-or-no outcome with a logistic model (leaving at a day's end,
/// each planned completion of a due habit task): its terms, what each one's covariate is, and how
/// a ``LogisticFit`` of its observations becomes a ``FittedResponse`` — each parameter estimated
/// with its interval, or reported not identified, with why, and its prior kept.
struct LogisticResponse: Sendable {
    /// One term of the linear predictor.
    struct Term: Sendable {
        /// The parameter's name in the report, and its statement in a persona (``FittedResponse/Parameter/lua``).
        var name: String
        var lua: String
        /// What its covariate is, in messages ("an unlock denied", "the task read").
        var covariate: String
        /// Its estimate is a base chance (the logit of a probability: an intercept, or a group's
        /// indicator with no intercept beside it): reported as the probability, its interval mapped.
        var probability = false
        /// The values a persona takes for it (``FittedResponse/Parameter/range``).
        var range: ClosedRange<Double>? = nil
    }

    var name: String
    var model: String
    var terms: [Term]
    /// What one observation is and what its outcome is, for messages ("user-day", "ended with the user leaving").
    var observation: String
    var outcome: String

    /// Fits `counts` (each pattern's covariates in the order of `terms`); `prior`: each term's
    /// value on the log-odds scale (what a parameter the log cannot inform keeps).
    /// `held`: the terms `fit --fix` holds at their prior.
    func fit(_ counts: LogisticFit.Counts, prior: [Double], held: Set<Int> = [], observed: String) throws -> FittedResponse {
        let fit = try LogisticFit(counts, fixed: prior, held: held)
        func reason(_ j: Int) -> String? {
            if fit.identified[j] { return nil }
            if held.contains(j) { return FittedResponse.held }
            if fit.events == 0 { return "no \(observation) in the log \(outcome)" }
            if fit.events == fit.observations { return "every \(observation) in the log \(outcome)" }
            if let s = fit.separated[j] {
                let which = "\(observation) \(s.above ? "with" : "without") \(terms[j].covariate)"
                return s.none ? "no \(which) \(outcome)" : "every \(which) \(outcome)"
            }
            if fit.confounded[j] {
                let before = terms[..<j].enumerated().filter { fit.identified[$0.offset] }.map(\.element.name)
                return "in this log it follows \(before.joined(separator: ", ")): their effects cannot be told apart"
            }
            // A covariate that never varies: never there, or always (then it is the base chance's own).
            if let value = Set(counts.keys.map { $0.x[j] }).first, value != 0 {
                return "every \(observation) had \(terms[j].covariate): its effect cannot be told from the base chance's"
            }
            return "no \(observation) had \(terms[j].covariate)"
        }
        return fitted(
            estimates: fit.estimates, covariance: fit.covariance, reasons: terms.indices.map(reason), observed: observed,
            observations: fit.observations, events: fit.events, logLikelihood: fit.logLikelihood)
    }

    /// The response with these estimates (log-odds) and their covariance (``FittedResponse/covariance``);
    /// a term with a reason is not identified (its estimate the prior, its row and column of the covariance 0).
    func fitted(
        estimates: [Double], covariance: [[Double]], reasons: [String?], observed: String, observations: Double, events: Double,
        logLikelihood: Double
    ) -> FittedResponse {
        let z = Distribution.normalQuantile(0.975)
        let sigmoid = { (x: Double) in 1 / (1 + exp(-x)) }
        let parameters = terms.indices.map { j in
            let e = estimates[j], se = reasons[j] == nil ? covariance[j][j].squareRoot() : 0
            var p = FittedResponse.Parameter(
                name: terms[j].name, lua: terms[j].lua, estimate: e, low: e - z * se, high: e + z * se, probability: terms[j].probability,
                identified: reasons[j] == nil, reason: reasons[j], range: terms[j].range)
            // A base chance's interval is the logit's, mapped back.
            if terms[j].probability { (p.estimate, p.low, p.high) = (sigmoid(e), sigmoid(e - z * se), sigmoid(e + z * se)) }
            return p
        }
        let kept = terms.indices.map { reasons[$0] == nil }
        return FittedResponse(
            name: name, model: model, observed: observed, observations: observations, events: events, parameters: parameters,
            logLikelihood: logLikelihood,
            covariance: terms.indices.map { i in terms.indices.map { j in kept[i] && kept[j] ? covariance[i][j] : 0 } })
    }

    /// The log-odds of a probability (clamped away from 0 and 1).
    static func logit(_ p: Double) -> Double {
        let p = min(max(p, 1e-9), 1 - 1e-9)
        return Foundation.log(p / (1 - p))
    }
}

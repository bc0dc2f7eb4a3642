import Foundation
import RulesEngine
import RulesModel

/// The Earned unlock gate's choice fitted to an event log (`rulesrun fit`): the persona's gate
/// weights (`earned.gate` credits, quest, emergency; the rest gives up) and the price response
/// (``Responses/Price``), from the openings of the gate each replayed user had (``GateOpenings``)
/// and what it chose there. The simulator's draw (``EarnedPersona/Gate/choose``) is a conditional
/// logit over four kinds, giving up the reference:
///
///     u(credits) = log(credits / give-up) − sensitivity × (price − reference × minutes) − balance × price / max(held, 1)
///     u(quest) = log(quest / give-up), u(emergency) = log(emergency / give-up), u(give up) = 0
///
/// `price` and `minutes` those of the persona's first preferred credit length the gate offers,
/// `held` the balance. The kind chosen is the kind wanted only when each kind has an enabled
/// option the persona takes (else a user wanting a disabled kind insists or turns to another):
/// only those openings are used — a retry after a denial among them (it draws as a first opening
/// does; only insisting, never reached there, differs) —, the others are counted by why.
package struct GateFit: Sendable {
    /// Why an opening is left out.
    package enum LeftOut: Int, CaseIterable, Sendable {
        case noChoice, noCredits, noQuest, noEmergency

        var text: String {
            switch self {
            case .noChoice: "no choice followed it in the log"
            case .noCredits: "no credit length the persona takes was enabled"
            case .noQuest: "no quest type the persona takes was enabled"
            case .noEmergency: "no emergency unlock was enabled"
            }
        }

        var key: String { ["no_choice", "no_credits", "no_quest", "no_emergency"][rawValue] }
    }

    /// The openings of the users replayed so far, by what the model reads of them.
    package struct Choices: Sendable {
        /// The persona's preferred credit lengths and quest types.
        let creditMinutes: [Int]
        let questTypes: [QuestType]
        /// Whether the persona ever wants each kind (its weight is not 0): a kind it never wants need
        /// not be enabled.
        let wants: (credits: Bool, quest: Bool, emergency: Bool)
        /// Per (price, minutes, held ≥ 1) of the openings used, how many chose each kind (``GateOpenings/Kind``).
        package var counts: [Key: [Double]] = [:]
        package var openings = 0, retries = 0, used = 0, usedRetries = 0
        package var leftOut = Array(repeating: 0, count: LeftOut.allCases.count)
        package var chosen = Array(repeating: 0, count: GateOpenings.Kind.allCases.count)

        package struct Key: Hashable, Sendable {
            package var price: Int
            package var minutes: Int
            package var held: Int
            package init(price: Int, minutes: Int, held: Int) { (self.price, self.minutes, self.held) = (price, minutes, held) }
        }

        package init(preferences: EarnedPersona.Gate) {
            creditMinutes = preferences.creditMinutes
            questTypes = preferences.questTypes.compactMap(QuestType.init(rawValue:))
            wants = (preferences.credits > 0, preferences.quest > 0, preferences.emergency > 0)
        }

        /// A user's openings.
        mutating func add(_ gate: GateOpenings) {
            for opening in gate.openings {
                openings += 1
                if opening.retry { retries += 1 }
                let options = opening.options
                let length = creditMinutes.lazy.compactMap { m in options.durations.first { $0.minutes == m } }.first
                let reason: LeftOut? =
                    if opening.chosen == nil {
                        .noChoice
                    } else if wants.credits,
                        !creditMinutes.contains(where: { m in options.durations.contains { $0.minutes == m && $0.enabled } })
                    {
                        .noCredits
                    } else if wants.quest, !questTypes.contains(where: { t in options.questTypes.contains { $0.type == t && $0.enabled } })
                    {
                        .noQuest
                    } else if wants.emergency, options.emergency != true { .noEmergency } else { nil }
                guard reason == nil, let chosen = opening.chosen else {
                    leftOut[(reason ?? .noChoice).rawValue] += 1
                    continue
                }
                used += 1
                if opening.retry { usedRetries += 1 }
                self.chosen[chosen.rawValue] += 1
                // (No length the persona takes offered: it never wants credits, whose covariates are then moot.)
                let key = Key(price: length?.price ?? 0, minutes: length?.minutes ?? 0, held: max(opening.held, 1))
                counts[key, default: Array(repeating: 0, count: GateOpenings.Kind.allCases.count)][chosen.rawValue] += 1
            }
        }

        /// Another worker's openings.
        mutating func add(_ other: Choices) {
            for (key, n) in other.counts {
                counts[key, default: Array(repeating: 0, count: n.count)] = zip(counts[key] ?? n.map { _ in 0 }, n).map { $0 + $1 }
            }
            openings += other.openings
            retries += other.retries
            used += other.used
            usedRetries += other.usedRetries
            leftOut = zip(leftOut, other.leftOut).map { $0 + $1 }
            chosen = zip(chosen, other.chosen).map { $0 + $1 }
        }
    }

    /// The persona's gate weights, then the price response's parameters.
    package static let names = [
        "earned.gate.credits", "earned.gate.quest", "earned.gate.emergency",
        "responses.price.sensitivity", "responses.price.balance", "responses.price.reference",
    ]

    /// The values a persona takes for the price response's parameters (its checks').
    static let ranges: [String: ClosedRange<Double>] = [
        "responses.price.sensitivity": 0...1, "responses.price.balance": 0...10, "responses.price.reference": 0...100,
    ]

    package var parameters: [FittedResponse.Parameter]
    package var choices: Choices
    package var logLikelihood: Double
    /// The choice model's estimates on its own scale (the three kinds' log-odds against giving up,
    /// sensitivity, balance, and γ: sensitivity × (reference − the prior's)), their covariance (0
    /// where not estimated) and the prior's reference: what a draw of the gate
    /// (``drawn(_:)``) takes its parameters from.
    var scaled: [Double] = []
    var covariance: [[Double]] = []
    var reference = 0.0

    /// Fits `choices`; `gate` and `price` (nil: the persona's price response is off) are the
    /// priors of the parameters the log cannot inform.
    package init(_ choices: Choices, gate: EarnedPersona.Gate, price: Responses.Price?) throws {
        self.choices = choices
        let prior =
            price
            ?? {
                var off = Responses.Price(); off.sensitivity = 0; off.balance = 0; return off
            }()
        let giveUp = max(1 - gate.credits - gate.quest - gate.emergency, 1e-9)
        let odds = [gate.credits, gate.quest, gate.emergency].map { log(max($0, 1e-9) / giveUp) }
        // Covariates per kind but giving up: the three constants, −(price − reference₀ × minutes),
        // −price / held, and minutes (its coefficient sensitivity × (reference − reference₀)).
        var counts: [ChoiceFit.Pattern: [Double]] = [:]
        for (key, n) in choices.counts {
            let p = Double(key.price), m = Double(key.minutes)
            let credits = [1, 0, 0, -(p - prior.reference * m), -p / Double(key.held), m]
            let pattern = ChoiceFit.Pattern([credits, [0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0]])
            counts[pattern, default: [0, 0, 0, 0]] = zip(counts[pattern] ?? [0, 0, 0, 0], n).map { $0 + $1 }
        }
        // Without an opening that ended in giving up (the reference), the odds run off to +∞ together:
        // nothing is fitted.
        let gaveUp = choices.chosen[GateOpenings.Kind.gaveUp.rawValue] > 0
        var fit = try ChoiceFit(gaveUp ? counts : [:], fixed: odds + [prior.sensitivity, prior.balance, 0])
        // Reference is read through sensitivity: without it, it is held (γ = 0) and the rest fitted again.
        let throughSensitivity = fit.identified[5] && !fit.identified[3]
        if throughSensitivity { fit = try ChoiceFit(counts, fixed: odds + [prior.sensitivity, prior.balance, 0], held: [5]) }
        let z = Distribution.normalQuantile(0.975)
        let kinds = ["credits", "a quest", "an emergency unlock"]
        let lengths = Set(choices.counts.keys.map(\.minutes)).sorted()
        func reason(_ j: Int) -> String {
            if choices.used == 0 { return "no opening of the gate could be used" }
            if choices.chosen[GateOpenings.Kind.gaveUp.rawValue] == 0 { return "no opening used ended with the user giving up" }
            if let none = fit.separated[j] {
                let kind = j < 3 ? kinds[j] : "credits"
                return none ? "no opening used ended with \(kind)" : "every opening used ended with \(kind)"
            }
            if fit.diverged[j] {
                return "the openings used are too few: with it, the likelihood has no maximum (it runs off to infinity)"
            }
            if j == 5, lengths.count == 1 {
                return "the persona's credit length offered was always \(lengths[0]) minutes: its effect is the credits weight's"
            }
            if j == 3, Set(choices.counts.keys.map(\.price)).count == 1 {
                return "every opening used offered the same price: its effect is the credits weight's"
            }
            if fit.confounded[j] {
                let before = Self.names[..<j].enumerated().filter { fit.identified[$0.offset] }.map(\.element)
                return "in this log it follows \(before.joined(separator: ", ")): their effects cannot be told apart"
            }
            return "its covariate never varies in the openings used"
        }
        // The weights: each kind's share with the others' and giving up's (its odds against giving up
        // kept at the prior's when not identified), intervals by the delta method.
        let alpha = Array(fit.estimates[0..<3])
        let total = 1 + alpha.reduce(0) { $0 + exp($1) }
        let w = alpha.map { exp($0) / total }
        var parameters: [FittedResponse.Parameter] = []
        for k in 0..<3 {
            let gradient = (0..<3).map { j in w[k] * ((j == k ? 1 : 0) - w[j]) }
            var variance = 0.0
            for a in 0..<3 { for b in 0..<3 { variance += gradient[a] * fit.covariance[a][b] * gradient[b] } }
            let se = max(variance, 0).squareRoot()
            parameters.append(
                Self.parameter(
                    name: Self.names[k], estimate: w[k], low: max(0, w[k] - z * se), high: min(1, w[k] + z * se),
                    identified: fit.identified[k], reason: fit.identified[k] ? nil : reason(k)))
        }
        for j in 3..<5 {
            let e = fit.estimates[j], se = fit.covariance[j][j].squareRoot()
            parameters.append(
                Self.parameter(
                    name: Self.names[j], estimate: e, low: e - z * se, high: e + z * se, identified: fit.identified[j],
                    reason: fit.identified[j] ? nil : reason(j)))
        }
        // reference = reference₀ + γ / sensitivity, when both are estimated.
        let s = fit.estimates[3], g = fit.estimates[5]
        if fit.identified[5], fit.identified[3], s != 0 {
            let c = fit.covariance
            let variance = c[5][5] / (s * s) + g * g * c[3][3] / pow(s, 4) - 2 * g * c[3][5] / pow(s, 3)
            let r = prior.reference + g / s, se = max(variance, 0).squareRoot()
            parameters.append(Self.parameter(name: Self.names[5], estimate: r, low: r - z * se, high: r + z * se, identified: true))
        } else {
            let why = throughSensitivity ? "sensitivity is not identified, and reference is read through it" : reason(5)
            parameters.append(
                Self.parameter(
                    name: Self.names[5], estimate: prior.reference, low: prior.reference, high: prior.reference, identified: false,
                    reason: why))
        }
        self.parameters = parameters
        logLikelihood = fit.logLikelihood
        (scaled, covariance, reference) = (fit.estimates, fit.covariance, prior.reference)
        // γ is drawn only where `reference` is reported (sensitivity estimated beside it).
        if !parameters[5].identified { for j in 0..<6 { (covariance[5][j], covariance[j][5]) = (0, 0) } }
    }

    /// The gate with its parameters drawn from the choice model's approximate sampling
    /// distribution (``FitSampling``: jointly normal on its scale); one not identified is not drawn.
    func drawn(_ random: inout SimRandom) -> GateFit {
        let free = (0..<scaled.count).filter { covariance[$0][$0] > 0 }
        let sampling = FitSampling(
            places: free.map { .term(segments: [0], response: 0, term: $0) }, mean: free.map { scaled[$0] },
            covariance: free.map { i in free.map { covariance[i][$0] } })
        var values = scaled
        for (j, value) in zip(free, sampling.draw(&random)) { values[j] = value }
        var copy = self
        let total = 1 + values[0..<3].reduce(0) { $0 + exp($1) }
        for k in 0..<3 { copy.parameters[k].estimate = exp(values[k]) / total }
        for j in 3..<5 { copy.parameters[j].estimate = values[j] }
        if parameters[5].identified, values[3] != 0 { copy.parameters[5].estimate = reference + values[5] / values[3] }
        return copy
    }

    /// A parameter of the report (its persona lines are ``personaLines``': the weights are set together).
    static func parameter(
        name: String, estimate: Double, low: Double, high: Double, identified: Bool, reason: String? = nil
    ) -> FittedResponse.Parameter {
        FittedResponse.Parameter(
            name: name, lua: "", estimate: estimate, low: low, high: high, probability: name.hasPrefix("earned."), identified: identified,
            reason: reason, range: ranges[name])
    }
}

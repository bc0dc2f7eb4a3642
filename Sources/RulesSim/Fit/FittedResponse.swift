import Foundation
import RulesModel

/// One response of a persona fitted to a log (`rulesrun fit`): its parameters with their 95 %
/// intervals, or why the log cannot inform them; a section of the report and of the fitted persona.
package struct FittedResponse: Sendable {
    /// The response's name in reports (`leaving`, `habits`), and the model in one line.
    package var name: String
    package var model: String
    /// What was observed, in one line ("user-days: 10915; users who left: 114").
    package var observed: String
    /// Observations and those with the outcome, as counted by the fit.
    package var observations: Double
    package var events: Double
    package var parameters: [Parameter]
    package var logLikelihood: Double
    /// The covariance of the estimates on the scale the fit works on (log-odds: a base chance's
    /// logit), in the order of `parameters`: the inverse of the observed information (in a
    /// segment of a mixture, its block of the mixture's). The rows and columns of a parameter not
    /// identified are 0 (it is not drawn: ``PersonaFit/drawn(seed:draw:)``).
    package var covariance: [[Double]]
    /// The Lua statement a persona file runs before it sets the parameters (making the response a table).
    package var setup = ""

    /// One parameter's estimate.
    package struct Parameter: Sendable {
        /// Its name in the report (`base`, `rate[read]`), and the Lua statement that sets it in a
        /// persona whose table is `persona` (`persona.responses.leaving.base = %@`: `%@` the value).
        package var name: String
        package var lua: String
        package var estimate: Double
        package var low: Double
        package var high: Double
        /// A probability (shown with 4 decimals), else a log-odds (signed, 3 decimals).
        package var probability: Bool
        /// False: the log cannot inform it; `estimate` is the prior (the persona's value).
        package var identified: Bool
        /// Why it is not identified.
        package var reason: String?
        /// The values a persona takes for it (its checks': `responses.earning.boost` 0…10), nil
        /// for any: an estimate outside is written to the persona at the nearest end (``written``)
        /// and the report says so.
        package var range: ClosedRange<Double>? = nil

        /// The value the persona file gets: the estimate, or the end of `range` nearest to it.
        package var written: Double { range.map { min(max(estimate, $0.lowerBound), $0.upperBound) } ?? estimate }

        /// What the report adds when the persona gets another value than the estimate.
        var outside: String? {
            guard let range, written != estimate else { return nil }
            return "outside the persona's range \(shown(range.lowerBound))…\(shown(range.upperBound)): written as \(shown(written))"
        }

        /// The estimate (or an interval's end) as the report shows it.
        package func shown(_ x: Double) -> String { probability ? String(format: "%.4f", x) : String(format: "%+.3f", x) }

        /// The parameter in a JSON report: its estimate, and its interval or why it is not identified.
        var json: JSONValue {
            var members: [(String, JSONValue)] = [
                ("name", .string(name)), ("estimate", .double(estimate)), ("identified", .bool(identified)),
            ]
            if identified {
                members += [("low", .double(low)), ("high", .double(high))]
                if written != estimate { members.append(("written", .double(written))) }
            } else {
                members.append(("reason", .string(reason ?? "")))
            }
            return .object(members)
        }

        /// The statement that sets it to its estimate.
        var statement: String { lua.replacingOccurrences(of: "%@", with: String(format: "%.6g", written)) }
    }

    /// The estimates on the scale the fit works on (a base chance's logit), in the order of `parameters`.
    package var scaled: [Double] { parameters.map { $0.probability ? LogisticResponse.logit($0.estimate) : $0.estimate } }

    /// The response with these values (on the fit's scale, in the order of `parameters`) as its
    /// estimates, its intervals kept: a draw of its parameters.
    func with(scaled values: [Double]) -> FittedResponse {
        var copy = self
        for j in copy.parameters.indices {
            copy.parameters[j].estimate = copy.parameters[j].probability ? 1 / (1 + exp(-values[j])) : values[j]
        }
        return copy
    }

    /// The parameter named `name`.
    package subscript(_ name: String) -> Parameter? { parameters.first { $0.name == name } }

    /// The section of the text report: what was observed, then the table of parameters.
    var text: String {
        "\(name): \(observed)\n" + PersonaFit.table([Self.header] + Self.rows(parameters) { p, x in p.shown(x) }, left: [0, 3])
    }

    /// The header of a table of parameters (text and HTML).
    static let header = ["parameter", "estimate", "95% interval", ""]

    /// A table's row per parameter: its name, estimate (as `shown` writes a number) and interval,
    /// or why it is not identified and what it keeps (`kept`: the prior, by default).
    static func rows(
        _ parameters: [Parameter], kept: (Parameter) -> String = { _ in "the prior kept" }, shown: (Parameter, Double) -> String
    ) -> [[String]] {
        parameters.map { p in
            p.identified
                ? [p.name, shown(p, p.estimate), "[\(shown(p, p.low)), \(shown(p, p.high))]", p.outside ?? ""]
                : p.reason == Self.held
                    ? [p.name, shown(p, p.estimate), "–", Self.held]
                    : [p.name, shown(p, p.estimate), "–", "not identified: \(p.reason ?? "") (\(kept(p)))"]
        }
    }

    /// Why a parameter `fit --fix` names is not estimated.
    static let held = "held at the persona's value (--fix)"

    /// The names `fit --fix` takes: `response.parameter` (`leaving.denied`, `habits.rate[read]`).
    package var fixable: [String] { parameters.map { "\(name).\($0.name)" } }

    /// The section of the JSON report.
    var json: JSONValue {
        let values = parameters.map(\.json)
        return .object([
            ("response", .string(name)), ("observations", .double(observations)), ("events", .double(events)),
            ("log_likelihood", .double(logLikelihood)), ("parameters", .array(values)),
        ])
    }

    /// The comment lines of a fitted persona file that give every estimate.
    var comment: String {
        parameters.map { p in
            "--   \(name) \(p.name) = "
                + (p.identified
                    ? "\(p.shown(p.estimate)) [\(p.shown(p.low)), \(p.shown(p.high))]" + (p.outside.map { "; \($0)" } ?? "")
                    : "not identified (\(p.reason ?? "")): kept")
                + "\n"
        }.joined()
    }
}

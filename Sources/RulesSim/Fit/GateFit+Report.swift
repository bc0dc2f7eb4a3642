import Foundation
import RulesModel

extension GateFit {
    /// What was used of the gate's openings, and what was left out and why.
    var openingsText: String {
        var out = "gate openings: \(choices.openings) (\(choices.retries) after a denial); used: \(choices.used)"
        out += " (\(choices.usedRetries) after a denial)"
        let left = LeftOut.allCases.filter { choices.leftOut[$0.rawValue] > 0 }
        if !left.isEmpty {
            out += "; left out: " + left.map { "\(choices.leftOut[$0.rawValue]) (\($0.text))" }.joined(separator: ", ")
        }
        let c = choices.chosen
        out += "\nchosen at those used: credits \(c[1]), quest \(c[2]), emergency \(c[3]), gave up \(c[0])\n"
        return out
    }

    /// The report as text, a section after the leaving response's.
    package func text() -> String {
        var out = "\nthe unlock gate's choice (earned.gate, responses.price)\n" + openingsText
        out += "\n" + PersonaFit.table([FittedResponse.header] + tableRows, left: [0, 3])
        out += "P(kind) ∝ its weight, credits' × exp(−sensitivity × (price − reference × minutes) − balance × price / held)"
        out += " at the persona's credit length offered; maximum likelihood, Wald intervals\n"
        return out
    }

    /// The table's rows: a weight not identified keeps its odds against giving up.
    var tableRows: [[String]] {
        FittedResponse.rows(parameters, kept: { $0.name.hasPrefix("earned.") ? "its odds against giving up kept" : "the prior kept" }) {
            p, x in Self.number(x, p.name)
        }
    }

    /// The report's JSON section.
    package var json: JSONValue {
        let values = parameters.map(\.json)
        let leftOut = LeftOut.allCases.map { ($0.key, JSONValue.int(choices.leftOut[$0.rawValue])) }
        let chosen = GateOpenings.Kind.allCases.map { kind in
            (["gave_up", "credits", "quest", "emergency"][kind.rawValue], JSONValue.int(choices.chosen[kind.rawValue]))
        }
        return .object([
            ("openings", .int(choices.openings)), ("retries", .int(choices.retries)), ("used", .int(choices.used)),
            ("used_retries", .int(choices.usedRetries)), ("left_out", .object(leftOut)), ("chosen", .object(chosen)),
            ("log_likelihood", .double(logLikelihood)), ("parameters", .array(values)),
        ])
    }

    /// A weight (a probability) with 4 decimals, a price parameter signed with 4 significant digits.
    static func number(_ x: Double, _ name: String) -> String {
        name.hasPrefix("earned.") ? String(format: "%.4f", x) : String(format: "%+.4g", x)
    }

    /// The lines of a fitted persona file (``PersonaFit/persona(from:source:log:segment:)``) that set the
    /// fitted weights (all three when one is identified: they are shares of one draw, and stay at
    /// most 1 together) and the price response (all its values when one is identified: a response
    /// the persona had off is turned on), with a comment of every estimate.
    package var personaLines: String {
        var out = "-- The unlock gate's choice: \(choices.used) of \(choices.openings) openings used.\n"
        for p in parameters {
            out += "--   \(p.name) = "
            out +=
                p.identified
                ? "\(Self.number(p.estimate, p.name)) [\(Self.number(p.low, p.name)), \(Self.number(p.high, p.name))]"
                    + (p.outside.map { "; \($0)" } ?? "") + "\n"
                : "not identified (\(p.reason ?? "")): kept\n"
        }
        let format = { (x: Double) in String(format: "%.6g", x) }
        if parameters[0..<3].contains(where: \.identified) {
            out += "if type(persona.earned) == \"table\" then\n"
            out += "  if type(persona.earned.gate) ~= \"table\" then persona.earned.gate = {} end\n"
            for p in parameters[0..<3] { out += "  persona.\(p.name) = \(format(p.written))\n" }
            out += "end\n"
        }
        if parameters[3..<6].contains(where: \.identified) {
            out += "persona.responses = persona.responses or {}\n"
            out += "if type(persona.responses.price) ~= \"table\" then persona.responses.price = {} end\n"
            for p in parameters[3..<6] { out += "persona.\(p.name) = \(format(p.written))\n" }
        }
        return out
    }
}

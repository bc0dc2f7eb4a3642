import Foundation
import RulesModel

extension LeavingFit {
    /// The report as text: what was fitted on what, then each parameter with its interval, or why
    /// the log cannot inform it.
    package func text(log: String, rules: String) -> String {
        var out = "fit \(log): the leaving response (responses.leaving), rules \(rules)\n"
        out += "users: \(users); user-days observed: \(userDays) (each user's days but the log's last); users who left: \(left)\n"
        if !failures.isEmpty { out += "  rule failures while replaying: \(failures.countsText)\n" }
        var lines = [["parameter", "estimate", "95% interval", ""]]
        for p in parameters {
            if p.identified {
                lines.append([p.name, Self.number(p.estimate, p.name), "[\(Self.number(p.low, p.name)), \(Self.number(p.high, p.name))]", ""])
            } else {
                lines.append([p.name, Self.number(p.estimate, p.name), "–", "not identified: \(p.reason ?? "") (the prior kept)"])
            }
        }
        out += "\n" + Self.table(lines)
        out += "logit P(leave at the end of a day) = logit(base) + denied × unlocks denied + high_tier × [tier ≥ 2]"
        out += " + reminders × reminders + engaged × [engaged]; maximum likelihood, Wald intervals\n"
        return out
    }

    /// The report as JSON.
    package func json(log: String, rules: String, gate: GateFit? = nil) -> String {
        let values = parameters.map(\.json)
        var members: [(String, JSONValue)] = [
            ("report", .string("rulesrun fit")), ("version", .int(1)), ("events", .string(log)), ("rules", .string(rules)),
            ("response", .string("leaving")), ("users", .int(users)), ("user_days", .int(userDays)), ("left", .int(left)),
            ("log_likelihood", .double(logLikelihood)), ("parameters", .array(values)), ("failures", failures.json),
        ]
        // The unlock gate's choice (GateFit), when the log has openings of the gate.
        if let gate { members.append(("gate", gate.json)) }
        return JSONValue.object(members).description + "\n"
    }

    /// Rows of parameters aligned (the first and last columns to the left), without trailing blanks.
    static func table(_ lines: [[String]]) -> String {
        let table = SimulationReport.align(lines, leftColumns: [0, 3]).split(separator: "\n", omittingEmptySubsequences: false)
        return table.map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n") + "\n"
    }

    /// `base` (a probability) with 4 significant decimals, a log-odds signed with 3.
    static func number(_ x: Double, _ name: String) -> String {
        name == "base" ? String(format: "%.4f", x) : String(format: "%+.3f", x)
    }

    /// A persona file: the persona of `text` (its file, as named by `source`) with its leaving
    /// response set to the identified estimates (the others kept as the persona has them). The
    /// persona's own text is kept whole, run as a function whose table is then changed.
    package func persona(from text: String, source: String, log: String, gate: GateFit? = nil) -> String {
        var out = "-- Fitted by rulesrun fit from \(log): the leaving response of \(source), "
        out += "\(users) users, \(userDays) user-days, \(left) who left.\n"
        for p in parameters {
            out += "--   \(p.name) = "
            out += p.identified ? "\(Self.number(p.estimate, p.name)) [\(Self.number(p.low, p.name)), \(Self.number(p.high, p.name))]\n" : "not identified (\(p.reason ?? "")): kept\n"
        }
        out += "-- The rest is \(source), unchanged, below.\n"
        out += "local persona = (function()\n\(text)\(text.hasSuffix("\n") ? "" : "\n")end)()\n"
        out += "if persona.responses == false then\n"
        out += "  persona.responses = { price = false, fatigue = false, streak = false, earning = false }\n"
        out += "end\n"
        out += "persona.responses = persona.responses or {}\n"
        out += "if type(persona.responses.leaving) ~= \"table\" then persona.responses.leaving = {} end\n"
        for p in parameters where p.identified {
            out += "persona.responses.leaving.\(p.name) = \(String(format: "%.6g", p.estimate))\n"
        }
        out += gate?.personaLines ?? ""
        out += "return persona\n"
        return out
    }
}

extension LeavingFit.Parameter {
    /// The parameter in a JSON report: its estimate, and its interval or why it is not identified.
    var json: JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(name)), ("estimate", .double(estimate)), ("identified", .bool(identified))]
        if identified {
            members += [("low", .double(low)), ("high", .double(high))]
        } else {
            members.append(("reason", .string(reason ?? "")))
        }
        return .object(members)
    }
}

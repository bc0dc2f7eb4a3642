import Foundation
import RulesModel

extension PersonaFit {
    /// The report as text: what was fitted on what, the numbers of segments tried, then each
    /// segment's responses (or the one segment's) with their parameters' intervals, or why the log
    /// cannot inform them.
    package func text(log: String, rules: String) -> String {
        var out = "fit \(log): rules \(rules); \(users) users replayed\n"
        if !failures.isEmpty { out += "  rule failures while replaying: \(failures.countsText)\n" }
        if refusals.total > 0 {
            out += "  events the rules refused (each changed nothing; left out of what the users did): \(refusals.total)"
            out += " (" + refusals.codes.map { "\($0) \(refusals.counts[$0]!)" }.joined(separator: ", ") + ")\n"
            for code in refusals.codes { for example in refusals.examples[code] ?? [] { out += "    \(code): \(example)\n" } }
        }
        if !candidates.isEmpty {
            let chosen = max(1, segments.count)
            out += "\nsegments: \(chosen)"
            out += candidates.count > 1 ? ", the least BIC of 1 to \(candidates.count) (BIC = −2 log L + parameters × ln users)\n" : "\n"
            var lines = [["segments", "log-likelihood", "parameters", "BIC", ""]]
            for c in candidates {
                if let ll = c.logLikelihood, let p = c.parameters, let bic = c.bic {
                    lines.append([
                        "\(c.segments)", String(format: "%.3f", ll), "\(p)", String(format: "%.3f", bic),
                        c.segments == chosen ? "chosen" : "",
                    ])
                } else {
                    lines.append(["\(c.segments)", "–", "–", "–", "not fitted: \(c.failure ?? "")"])
                }
            }
            out += Self.table(lines, left: [4])
        }
        if segments.isEmpty {
            for response in responses { out += "\n" + response.text }
        }
        if let gate { out += gate.text() }
        if let answers { out += "\n" + answers.text }
        for (s, segment) in segments.enumerated() {
            out += "\nsegment \(s + 1) of \(segments.count): share \(String(format: "%.3f", segment.share))"
            out += " [\(String(format: "%.3f", segment.low)), \(String(format: "%.3f", segment.high))]\n"
            for response in segment.responses { out += "\n" + response.text }
        }
        if let check { out += check.text }
        if let later { out += later.text }
        if let prediction { out += prediction.text }
        out += "\nmodels (maximum likelihood, 95% Wald intervals; docs/fit.md):\n"
        for response in responses + (answers.map { [$0] } ?? []) { out += "  \(response.name): \(response.model)\n" }
        if segments.count > 1 {
            out +=
                "  segments: each its own base chances (leaving's base, the tasks' and Earned habits' rates, commit) and share; the effects shared\n"
        }
        return out
    }

    /// Rows of cells aligned in columns (`left`: the columns aligned left), trailing blanks cut.
    static func table(_ lines: [[String]], left: Set<Int>) -> String {
        SimulationReport.align(lines, leftColumns: left).split(separator: "\n")
            .map { String($0.reversed().drop { $0 == " " }.reversed()) + "\n" }.joined()
    }

    /// The report as JSON.
    package func json(log: String, rules: String) -> String {
        var members: [(String, JSONValue)] = [
            ("report", .string("rulesrun fit")), ("version", .int(2)), ("events", .string(log)), ("rules", .string(rules)),
            ("users", .int(users)), ("responses", .array(responses.map(\.json))),
        ]
        if let gate { members.append(("gate", gate.json)) }
        if let answers { members.append(("answers", answers.json)) }
        if !candidates.isEmpty {
            let tried: [JSONValue] = candidates.map { c in
                var m: [(String, JSONValue)] = [("segments", .int(c.segments))]
                if let ll = c.logLikelihood, let p = c.parameters, let bic = c.bic {
                    m += [
                        ("log_likelihood", .double(ll)), ("parameters", .int(p)), ("bic", .double(bic)),
                        ("iterations", .int(c.iterations ?? 0)),
                    ]
                } else {
                    m.append(("failure", .string(c.failure ?? "")))
                }
                return .object(m)
            }
            let list: [JSONValue] = segments.map { s in
                .object([
                    ("share", .double(s.share)), ("low", .double(s.low)), ("high", .double(s.high)),
                    ("responses", .array(s.responses.map(\.json))),
                ])
            }
            members.append(
                ("segments", .object([("chosen", .int(max(1, segments.count))), ("tried", .array(tried)), ("list", .array(list))])))
        }
        if let check { members.append(("check", check.json)) }
        if let later { members.append(("later_days", later.json)) }
        if let prediction { members.append(("prediction", prediction.json)) }
        let refused: [JSONValue] = refusals.codes.map { code in
            .object([
                ("code", .string(code)), ("count", .int(refusals.counts[code]!)),
                ("examples", .array((refusals.examples[code] ?? []).map(JSONValue.string))),
            ])
        }
        members.append(("refused", .array(refused)))
        members.append(("failures", failures.json))
        return JSONValue.object(members).description + "\n"
    }

    /// The persona files `--out` writes: one for the users as one segment, else one per segment.
    package var personaCount: Int { max(1, segments.count) }

    /// A persona file: the persona of `text` (its file, as named by `source`) with the identified
    /// estimates of segment `segment` (0 for the users as one segment; the other values kept as
    /// the persona has them). The persona's own text is kept whole, run as a function whose table
    /// is then changed.
    package func persona(from text: String, source: String, log: String, segment: Int = 0) -> String {
        let fitted = (segments.isEmpty ? responses : segments[segment].responses) + (answers.map { [$0] } ?? [])
        var out = "-- Fitted by rulesrun fit from \(log) (\(users) users): \(source) with the values the log informs"
        if !segments.isEmpty {
            let s = segments[segment]
            out += ",\n-- segment \(segment + 1) of \(segments.count) (share \(String(format: "%.3f", s.share)) "
            out += "[\(String(format: "%.3f", s.low)), \(String(format: "%.3f", s.high))])"
        }
        out += ".\n" + fitted.map(\.comment).joined()
        out += "-- The rest is \(source), unchanged, below.\n"
        out += "local persona = (function()\n\(text)\(text.hasSuffix("\n") ? "" : "\n")end)()\n"
        out += "if persona.responses == false then\n"
        out += "  persona.responses = { price = false, fatigue = false, streak = false, earning = false, leaving = false }\n"
        out += "end\n"
        out += "persona.responses = persona.responses or {}\n"
        for response in fitted where response.parameters.contains(where: \.identified) {
            if !response.setup.isEmpty { out += response.setup + "\n" }
            for p in response.parameters where p.identified { out += p.statement + "\n" }
        }
        out += gate?.personaLines ?? ""
        out += "return persona\n"
        return out
    }
}

import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// A sweep's rows as a table, CSV or JSON. Each format can be written row by row as variants
/// finish (`header`, then `line(_:)` per row) or whole (`rendered`), with the same text.
package struct SweepReport: Sendable {
    package var sweep: Sweep
    /// The rows finished so far, in the plan's order.
    package var rows: [SweepRow]

    package init(sweep: Sweep, rows: [SweepRow]) {
        self.sweep = sweep
        self.rows = rows
    }

    package var plan: SweepPlan { sweep.plan }
    package var metrics: [Metric] { sweep.metrics }

    /// What was run: `50 users × 7 days, seed 1, personas …, rules rules`.
    package var run: String {
        let c = sweep.config
        return "\(c.users) users × \(c.days) days from \(c.start.rawValue), seed \(c.seed), personas \(c.mix.description), rules \(c.rules)"
    }

    /// The report in `format`, the rows finished so far (`rendered` of every row: the whole report).
    package func rendered(_ format: ReportFormat) -> String {
        switch format {
        case .table:
            return VisibleText.escaping(header(.table) + rows.map { line($0, .table) }.joined() + (isComplete ? sensitivity : ""))
        case .csv: return header(.csv) + rows.map { line($0, .csv) }.joined()
        case .json: return json.description + "\n"
        case .jsonl:
            // One object per finished variant (its knobs, metrics or why it was refused).
            guard case .array(let variants)? = json["variants"] else { return "" }
            return variants.map { $0.description + "\n" }.joined()
        }
    }

    package var isComplete: Bool { rows.count == plan.variants.count }

    // MARK: Table and CSV

    private var knobWidths: [Int] {
        plan.knobs.enumerated().map { k, knob in
            max(knob.path.count, plan.variants.map { Self.label($0.values[k], moved: $0.moved[k], plan.mode).count }.max() ?? 0)
        }
    }
    /// The metric column: its labels (indented under a persona's line with `--segments`).
    private var metricWidth: Int { max(6, (metrics.map(\.label.count).max() ?? 0) + (sweep.segments ? 2 : 0)) }

    /// A knob's value in a row: one at a time, the knobs left at their base value are `·`.
    static func label(_ value: LuaValue, moved: Bool, _ mode: SweepPlan.Mode) -> String {
        mode == .oneAtATime && !moved ? "·" : SweepKnob.label(value)
    }

    /// How the intervals were computed, in words.
    package var intervalNote: String {
        let users = sweep.config.users, groups = sweep.groups
        if sweep.replicas > 1 {
            let seeds = sweep.seeds.prefix(3).map(String.init).joined(separator: ", ") + (sweep.replicas > 3 ? ", …" : "")
            return "mean of \(sweep.replicas) replicas (seeds \(seeds)), every variant on the same cohorts; "
                + "95% intervals: Student t over the replicas (Δ base: over each replica's difference to the base)"
        }
        guard groups > 1 else { return "one user: no interval" }
        let size = users / groups
        return "95% intervals: Student t over \(groups) groups of \(size)\(users % groups == 0 ? "" : "–\(size + 1)") users (batch means; "
            + "Δ base: over each group's difference to the base, the same users; none for a maximum over users)"
    }

    /// An interval for the table: `[low, high]`, `—` without one.
    static func interval(_ e: Estimate, _ metric: Metric, signed: Bool = false) -> String {
        guard e.n > 1 else { return "—" }
        let show = { (v: Double) in signed ? PopulationComparison.signed(v, share: metric.isShare) : metric.format(v) }
        return "[\(show(e.low)), \(show(e.high))]"
    }

    /// The lines before the rows.
    package func header(_ format: ReportFormat) -> String {
        switch format {
        case .table:
            var out = "sweep: \(run)\n"
            out += "\(plan.variants.count) variants (\(plan.mode.rawValue))"
            out += "; base: " + zip(plan.knobs, plan.baseValues).map { "\($0.path) = \(SweepKnob.label($1))" }.joined(separator: ", ")
            if plan.mode == .oneAtATime { out += " (· keeps the base value)" }
            if !sweep.planHasBase { out += " (not a variant: run too, for Δ base)" }
            out += "\n\(intervalNote); * marks a difference whose interval leaves out 0 (significant at 5%)\n\n"
            let cells =
                zip(plan.knobs.map(\.path), knobWidths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                + [
                    "metric".padding(toLength: metricWidth, withPad: " ", startingAt: 0), Self.pad("mean", 8), Self.pad("95% interval", 20),
                    Self.pad("Δ base", 9), "95% interval of Δ",
                ]
            return out + "  " + cells.joined(separator: "  ") + "\n"
        case .csv:
            // With --segments, each persona's columns after the cohort's (`steady: YES rate`, …).
            let prefixes = [""] + (sweep.segments ? sweep.personaNames.map { "\($0): " } : [])
            let columns = prefixes.flatMap { prefix in
                metrics.flatMap { m in
                    [prefix + m.label] + ["low", "high", "delta", "delta low", "delta high"].map { "\(prefix)\(m.label) \($0)" }
                }
            }
            return (plan.knobs.map(\.path) + columns + ["refused"]).map(Self.csvField).joined(separator: ",") + "\n"
        case .json, .jsonl:
            return ""
        }
    }

    static func pad(_ s: String, _ width: Int) -> String { s.padding(toLength: max(width, s.count), withPad: " ", startingAt: 0) }

    /// One row's line(s): in the table, a line per metric (the knobs' values on the first).
    package func line(_ row: SweepRow, _ format: ReportFormat) -> String {
        let knobCells = knobLabels(row)
        switch format {
        case .table:
            let knobs = zip(knobCells, knobWidths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
            let blank = knobWidths.map { String(repeating: " ", count: $0) }
            switch row.outcome {
            case .ran:
                var out = ""
                for (m, c) in cells(row).enumerated() {
                    var cells = [
                        c.metric.padding(toLength: metricWidth, withPad: " ", startingAt: 0), Self.pad(c.mean, 8), Self.pad(c.interval, 20),
                    ]
                    if let delta = c.delta, let deltaInterval = c.deltaInterval {
                        cells += [Self.pad(delta, 9), deltaInterval + (c.isSignificant ? " *" : "")]
                    } else {
                        cells.append("base")
                    }
                    out += "  " + ((m == 0 ? knobs : blank) + cells).joined(separator: "  ") + "\n"
                }
                // With --segments: each persona's users alone, under a line naming the persona.
                for (segment, cells) in segmentCells(row) {
                    out += "  " + (blank + ["by persona: " + Self.head(segment)]).joined(separator: "  ") + "\n"
                    for c in cells {
                        var line = [
                            ("  " + c.metric).padding(toLength: metricWidth, withPad: " ", startingAt: 0), Self.pad(c.mean, 8),
                            Self.pad(c.interval, 20),
                        ]
                        line += c.delta.map { [Self.pad($0, 9), (c.deltaInterval ?? "") + (c.isSignificant ? " *" : "")] } ?? ["base"]
                        out += "  " + (blank + line).joined(separator: "  ") + "\n"
                    }
                }
                return out.replacingOccurrences(of: " +\n", with: "\n", options: .regularExpression)
            case .refused(let problems):
                return "  " + knobs.joined(separator: "  ") + "  refused, not run: " + problems.map(\.description).joined(separator: "; ")
                    + "\n"
            }
        case .csv:
            let values = row.variant.values.map { SweepKnob.label($0) }
            switch row.outcome {
            case .ran(let estimates, let differences, _):
                // A persona's metric of an app its users do not use: empty cells.
                func numbers(_ e: Estimate?, _ d: Estimate?) -> [String] {
                    guard let e, let d else { return Array(repeating: "", count: 6) }
                    let interval: [String] = e.n > 1 ? [Self.csvNumber(e.low), Self.csvNumber(e.high)] : ["", ""]
                    let deltaInterval: [String] = d.n > 1 ? [Self.csvNumber(d.low), Self.csvNumber(d.high)] : ["", ""]
                    return [Self.csvNumber(e.mean)] + interval + [Self.csvNumber(d.mean)] + deltaInterval
                }
                let cells: [String] = zip(estimates, differences).flatMap { numbers($0, $1) }
                let segments: [String] = row.segments.flatMap { s in zip(s.estimates, s.differences).flatMap { numbers($0, $1) } }
                let fields: [String] = values + cells + segments + [""]
                return fields.map(Self.csvField).joined(separator: ",") + "\n"
            case .refused(let problems):
                let columns = metrics.count * 6 * (1 + (sweep.segments ? sweep.personaNames.count : 0))
                return
                    (values + Array(repeating: "", count: columns) + [
                        problems.map(\.description).joined(separator: "; ")
                    ])
                    .map(Self.csvField).joined(separator: ",") + "\n"
            }
        case .json, .jsonl:
            return ""
        }
    }

    /// A metric's numbers in a finished row, as the table prints them (the page's table too).
    package struct Cells: Sendable, Equatable {
        package var metric: String
        package var mean: String
        package var interval: String
        /// Δ base and its interval (nil for the base itself).
        package var delta: String?
        package var deltaInterval: String?
        /// Whether the interval of Δ base leaves out 0 (`*`).
        package var isSignificant: Bool
    }

    /// The cells of each metric of `row` (none for a refused variant).
    package func cells(_ row: SweepRow) -> [Cells] {
        guard case .ran(let estimates, let differences, _) = row.outcome else { return [] }
        return cells(estimates, differences, isBase: row.isBase)
    }

    /// The cells of each persona of `row` (`--segments`), of the metrics of the apps its users use.
    package func segmentCells(_ row: SweepRow) -> [(segment: SweepRow.Segment, cells: [Cells])] {
        row.segments.map { ($0, cells($0.estimates, $0.differences, isBase: row.isBase)) }
    }

    /// The cells of each metric that has an estimate (and its difference).
    private func cells(_ estimates: [Estimate?], _ differences: [Estimate?], isBase: Bool) -> [Cells] {
        metrics.indices.compactMap { m in
            guard let e = estimates[m], let d = differences[m] else { return nil }
            let metric = metrics[m]
            return Cells(
                metric: metric.label, mean: metric.format(e.mean), interval: Self.interval(e, metric),
                delta: isBase ? nil : PopulationComparison.signed(d.mean, share: metric.isShare),
                deltaInterval: isBase ? nil : Self.interval(d, metric, signed: true), isSignificant: !isBase && d.n > 1 && d.excludesZero)
        }
    }

    /// A persona's heading: its name and users (`steady (25 users)`).
    package static func head(_ segment: SweepRow.Segment) -> String {
        "\(segment.persona) (\(segment.users) user\(segment.users == 1 ? "" : "s"))"
    }

    /// A knob's value in a row, as the table prints it.
    package func knobLabels(_ row: SweepRow) -> [String] {
        plan.knobs.indices.map { k in Self.label(row.variant.values[k], moved: row.variant.moved[k], plan.mode) }
    }

    static func csvNumber(_ x: Double) -> String {
        if abs(x) < 1e15, let whole = WholeNumber.exactly(x) { return String(whole) }
        return String(format: "%.4f", x)
    }

    static func csvField(_ s: String) -> String {
        s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }

    // MARK: Sensitivity

    /// One at a time, per metric: each knob's lowest and highest value of the metric over its
    /// variants and the base, the knob that moves it most first (a tornado chart's bars, as text).
    package var sensitivity: String {
        guard plan.mode == .oneAtATime, let base = rows.first?.values else { return "" }
        var out =
            "\nsensitivity (each knob moved alone: the metric's lowest and highest over its values and the base; the knob that moves it most first):\n"
        for (m, metric) in metrics.enumerated() {
            out += "  \(metric.label) (base \(metric.format(base[m]))):\n"
            let spans = plan.knobs.indices.map { k -> (k: Int, low: Double, high: Double) in
                let values = [base[m]] + rows.filter { $0.variant.moved[k] }.compactMap { $0.values?[m] }
                return (k, values.min()!, values.max()!)
            }
            for span in spans.sorted(by: { ($0.high - $0.low, -$0.k) > ($1.high - $1.low, -$1.k) }) {
                out += "    \(plan.knobs[span.k].path): \(metric.format(span.low)) .. \(metric.format(span.high))\n"
            }
        }
        return out
    }

    // MARK: JSON

    /// A knob's value in JSON.
    static func jsonValue(_ v: LuaValue) -> JSONValue {
        switch v {
        case .integer(let i): .int(Int(i))
        case .number(let d): .double(d)
        case .boolean(let b): .bool(b)
        case .string(let s): .string(s)
        default: .null
        }
    }

    /// A variant's (or a persona's) `metrics`, `intervals` and, but for the base, `vs_base`: each
    /// metric that has an estimate, by label.
    static func jsonMembers(
        _ metrics: [Metric], _ estimates: [Estimate?], _ differences: [Estimate?], isBase: Bool
    ) -> [(String, JSONValue)] {
        let measured = metrics.indices.compactMap { m in estimates[m].map { (metric: metrics[m], e: $0, d: differences[m]) } }
        // Each metric's interval, and its paired difference to the base (not for the base itself).
        var members: [(String, JSONValue)] = [
            ("metrics", .object(measured.map { ($0.metric.label, .double($0.e.mean)) })),
            (
                "intervals",
                .object(
                    measured.filter { $0.e.n > 1 }.map {
                        ($0.metric.label, .object([("low", .double($0.e.low)), ("high", .double($0.e.high))]))
                    })
            ),
        ]
        if !isBase {
            members.append(
                (
                    "vs_base",
                    .object(
                        measured.compactMap { m in
                            m.d.map { d in
                                (
                                    m.metric.label,
                                    .object(
                                        [("delta", .double(d.mean))]
                                            + (d.n > 1 ? [("low", .double(d.low)), ("high", .double(d.high))] : [])
                                            + [("significant", .bool(d.n > 1 && d.excludesZero))])
                                )
                            }
                        })
                ))
        }
        return members
    }

    package var json: JSONValue {
        let c = sweep.config
        let value = Self.jsonValue
        let variants: [JSONValue] = rows.map { row in
            var members: [(String, JSONValue)] = [
                ("knobs", .object(zip(plan.knobs, row.variant.values).map { ($0.path, value($1)) }))
            ]
            switch row.outcome {
            case .ran(let estimates, let differences, let refused):
                members += Self.jsonMembers(metrics, estimates, differences, isBase: row.isBase)
                if sweep.segments {
                    // Each persona's users alone: the same members, of the metrics of the apps they use.
                    members.append(
                        (
                            "segments",
                            .array(
                                row.segments.map { s in
                                    .object(
                                        [("persona", .string(s.persona)), ("users", .int(s.users))]
                                            + Self.jsonMembers(metrics, s.estimates, s.differences, isBase: row.isBase))
                                })
                        ))
                }
                members.append(("base", .bool(row.isBase)))
                members.append(("refused_events", .int(refused)))
                if let digest = row.digest { members.append(("inputs_digest", .string(digest))) }
            case .refused(let problems):
                members.append(
                    (
                        "invalid",
                        .array(
                            problems.map { p in
                                .object(
                                    [("file", .string(p.file)), ("line", p.line.map { .int($0) } ?? .null)]
                                        + [("field", p.field.map { .string($0) } ?? .null), ("message", .string(p.message))])
                            })
                    ))
            }
            return .object(members)
        }
        return .object([
            (
                "sweep",
                .object(
                    [
                        ("users", .int(c.users)), ("days", .int(c.days)), ("start", .string(c.start.rawValue)),
                        ("seed", .int(Int(truncatingIfNeeded: c.seed))), ("personas", .string(c.mix.description)),
                        ("rules", .string(c.rules)),
                        ("mode", .string(plan.mode == .oneAtATime ? "one-at-a-time" : "combinations")),
                        (
                            "knobs",
                            .array(
                                zip(plan.knobs, plan.baseValues).map { knob, base in
                                    .object([
                                        ("path", .string(knob.path)), ("values", .array(knob.values.map(value))), ("base", value(base)),
                                    ])
                                })
                        ),
                        ("metrics", .array(metrics.map { .string($0.label) })),
                        ("shares", .array(metrics.filter(\.isShare).map { .string($0.label) })),
                        ("replicas", .int(sweep.replicas)), ("seeds", .array(sweep.seeds.map { .string(String($0)) })),
                        (
                            "interval",
                            .object([
                                (
                                    "method",
                                    .string(sweep.replicas > 1 ? Estimate.Method.replicas.rawValue : Estimate.Method.userGroups.rawValue)
                                ),
                                ("level", .double(0.95)), ("n", .int(sweep.replicas > 1 ? sweep.replicas : sweep.groups)),
                            ])
                        ),
                        ("variants", .int(plan.variants.count)), ("finished", .int(rows.count)),
                    ] + (sweep.segments ? [("segments", .bool(true))] : []))
            ),
            ("variants", .array(variants)),
        ])
    }
}

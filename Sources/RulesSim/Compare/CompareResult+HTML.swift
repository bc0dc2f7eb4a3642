import RulesModel

extension CompareResult {
    /// The comparison as one self-contained HTML page (`compare --html`): the two rule sets and
    /// the population's parameters; each summary metric's B − A with its 95 % interval (a chart of
    /// the differences as a percentage of A, every row on one scale, with whiskers and a zero line;
    /// and a table of A, B, B − A and B − A in % of A); the
    /// per-day series with A solid and B dashed; a summary of the other halves (findings and their
    /// replay files); and `json` (what `compare --json` prints) embedded once as `<script
    /// type="application/json" id="compare">`. Nil without a population half.
    package func html(json: JSONValue) -> String? {
        guard let p = population else { return nil }
        var page = HTMLPage(title: "rulesrun compare: A = \(nameA), B = \(nameB)")
        let axis = TimeAxis(start: (try? DayID(p.start)) ?? SimulationConfig.defaultStart, days: p.days)
        let first = p.date(0), last = p.date(max(0, p.days - 1))
        let cohorts = p.replicas > 1 ? "\(p.replicas) cohorts of \(p.users) users" : "cohort of \(p.users) users"
        page.paragraph(
            "The rule sets A and B, each simulated on the same \(cohorts) from \(first) to \(last) (\(p.days) days): the same personas "
                + "and seeds, so each user makes the same choices under A and B wherever the rules let them. For each metric, B − A "
                + "with its 95% interval: a difference whose interval leaves out 0 is marked significant (it is unlikely to be noise); "
                + "one whose interval holds 0 cannot be told from none.",
            className: "note")
        page.heading("The two rule sets and the run")
        page.table(
            [
                ("A (the reference)", nameA), ("B", nameB),
                ("users", p.replicas > 1 ? "\(p.users) per cohort, \(p.replicas) cohorts (seeds derived from \(p.seed))" : "\(p.users)"),
                (
                    "days",
                    "\(p.days) day\(p.days == 1 ? "" : "s"), \(first) (\(SimulationReport.weekdayName(axis.date(0)))) to \(last) (\(SimulationReport.weekdayName(axis.date(max(0, p.days - 1)))))"
                ),
                ("personas", p.personas), ("seed", "\(p.seed)"), ("intervals", p.intervalNote),
            ])
        let significant = p.metrics.filter(\.isSignificant).map(\.name)
        page.heading("B − A: which differences are more than noise")
        page.paragraph(
            significant.isEmpty
                ? "No difference is significant: every interval holds 0."
                : "Significant (the interval leaves out 0): \(significant.joined(separator: ", ")). The others' intervals hold 0.",
            className: "note")
        let rows = p.metrics.map { m in
            let relative = Self.relative(m)
            return IntervalChart.Row(
                name: m.name, value: relative.map { $0.value * 100 }, low: relative?.low.map { $0 * 100 },
                high: relative?.high.map { $0 * 100 }, isSignificant: m.isSignificant, text: Self.relativeText(m),
                data: [("delta", SVGText.value(m.delta))]
                    + (m.interval.map { [("low", SVGText.value($0.low)), ("high", SVGText.value($0.high))] } ?? []))
        }
        page.figure(
            IntervalChart(
                title: "B − A as a percentage of A, for each metric, with its 95% interval",
                note: "One scale for every row (B − A divided by A); a bar that does not cross the 0 line is significant (bold, blue).",
                heading: "B − A, % of A", suffix: "%", rows: rows
            ).svg())
        page.paragraph(
            "B − A, % of A: the difference divided by A's value (its interval: the interval of B − A divided by A's value), so that "
                + "metrics of different units can be compared; none where A is 0. Differences of shares are in percentage points (pp).",
            className: "note")
        page.grid(
            ["metric", "A", "B", "B − A", "95% interval of B − A", "B − A, % of A", "significant"],
            p.metrics.map { m in
                [
                    m.name, PopulationComparison.format(m.a, share: m.isShare), PopulationComparison.format(m.b, share: m.isShare),
                    Self.signed(m.delta, share: m.isShare), Self.intervalText(m), Self.relativeText(m, withSignificance: false),
                    m.isSignificant ? "yes *" : "no",
                ]
            }, marked: p.metrics.map(\.isSignificant))
        for segment in p.segments {
            page.heading("\(segment.persona): \(segment.users) user\(segment.users == 1 ? "" : "s")", level: 3)
            page.grid(
                ["metric", "A", "B", "B − A", "95% interval of B − A", "significant"],
                segment.metrics.map { m in
                    [
                        m.name, PopulationComparison.format(m.a, share: m.isShare), PopulationComparison.format(m.b, share: m.isShare),
                        Self.signed(m.delta, share: m.isShare), Self.intervalText(m), m.isSignificant ? "yes *" : "no",
                    ]
                }, marked: segment.metrics.map(\.isSignificant))
        }
        page.heading("Day by day: A solid, B dashed")
        page.paragraph(
            "Each series of A (solid) and B (dashed), in the same colour"
                + (p.replicas > 1 ? ", the mean of the \(p.replicas) cohorts each day" : "")
                + "; where B equals A, its dashed line lies on A's. Per Earned user: divided by the users who use Earned that day.",
            className: "note")
        let byName = Dictionary(p.daySeries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for chart in DayMetricChart.all where chart.lines.allSatisfy({ byName[$0.metric.seriesKey] != nil }) {
            page.figure(
                chart.chart(axis: axis) { line in
                    let key = line.metric.seriesKey
                    guard let s = byName[key] else { return [] }
                    var b = ChartSeries(key: "b.\(key)", name: "\(line.label), B", color: line.color, values: s.b)
                    b.dashed = true
                    return [ChartSeries(key: "a.\(key)", name: "\(line.label), A", color: line.color, values: s.a), b]
                }.svg())
        }
        if !byName.keys.contains(Metric.creditsEarnedPerUserDay.seriesKey) {
            page.paragraph("No simulated user used Earned (the personas have no earned section): no Earned chart.", className: "note")
        }
        page.heading("The other comparisons")
        page.paragraph(
            "Generated histories replayed through both rule sets, field by field; each kind of difference is shrunk to a minimal "
                + "history and written as a replay file (rulesrun replay FILE --rules A, then --rules B). The console output and "
                + "the embedded JSON have each one's days and first diverging event.",
            className: "note")
        page.table(otherHalves)
        page.paragraph(verdict, className: "note")
        page.heading("Data")
        page.paragraph(
            "The numbers of this page, as rulesrun compare --json prints them, are embedded in it: the element "
                + "<script type=\"application/json\" id=\"compare\"> (population.metrics and population.per_day). Each chart's line "
                + "carries its values (data-series, data-values), each difference its own (data-delta, data-low, data-high; in % of A: data-value, data-value-low, data-value-high).",
            className: "note")
        page.data(id: "compare", json: json.description + "\n")
        return page.html()
    }

    /// A difference as the page prints it: a share's in percentage points (`+6.0 pp`), beside its
    /// change in % of A.
    static func signed(_ value: Double, share: Bool) -> String {
        let text = PopulationComparison.signed(value, share: share)
        return share && text.hasSuffix("%") ? String(text.dropLast()) + " pp" : text
    }

    static func intervalText(_ m: PopulationComparison.Metric) -> String {
        guard let e = m.interval, e.n >= 2 else { return "—" }
        return "[\(signed(e.low, share: m.isShare)), \(signed(e.high, share: m.isShare))]"
    }

    /// B − A divided by A's value (a fraction), with its interval (the interval of B − A divided
    /// by A's value); nil when A is 0.
    static func relative(_ m: PopulationComparison.Metric) -> (value: Double, low: Double?, high: Double?)? {
        guard m.a != 0, m.a.isFinite else { return nil }
        let scale = abs(m.a)
        let interval = m.interval.flatMap { $0.n >= 2 ? $0 : nil }
        return (m.delta / scale, interval.map { $0.low / scale }, interval.map { $0.high / scale })
    }

    /// The change in % of A with its interval (`+10.0% [+4.1%, +15.9%]`), `—` when A is 0.
    static func relativeText(_ m: PopulationComparison.Metric, withSignificance: Bool = true) -> String {
        guard let r = relative(m) else { return "— (A is 0)" }
        let percent = { (v: Double) in PopulationComparison.signed(v, share: true) }
        var text = percent(r.value)
        if let low = r.low, let high = r.high {
            text += "  [\(percent(low)), \(percent(high))]"
        } else if withSignificance {
            text += "  (no interval)"
        }
        return text + (withSignificance && m.isSignificant ? "  significant" : "")
    }

    /// A row per half compared besides the population: what it found, with the replay files.
    var otherHalves: [(String, String)] {
        func files(_ names: [String]) -> String { names.isEmpty ? "" : "; replay files: " + names.joined(separator: ", ") }
        var rows: [(String, String)] = []
        let pressure = "\(histories) histories of \(options.days) days"
        rows.append(
            (
                "Pressure histories",
                differences.isEmpty
                    ? "\(pressure): no difference"
                    : "\(pressure): A and B differ in \(differing) of \(histories); by kind (histories): "
                        + differences.map { "\($0.kind) (\($0.histories))" }.joined(separator: ", ")
                        + files(differences.compactMap { replayFiles[$0.kind] })
            ))
        if stoppedEarly { rows.append(("stopped at a rule error", "\(stoppedA) histories under A, \(stoppedB) under B")) }
        for (k, expectation) in options.expectations.enumerated() {
            let broken = brokenExpectations.first { if case .expectation(k, _) = $0.kind { true } else { false } }
            rows.append(
                (
                    "expect \(expectation)",
                    broken.map { "BROKEN in \($0.histories) histories" + files(replayFiles[$0.kind].map { [$0] } ?? []) }
                        ?? "holds" + RuleReach.note(reach)
                ))
        }
        func half<Field>(_ name: String, _ result: LineComparison<Field>.Result?, _ paths: [Field: String]) {
            guard let result else { return }
            let what = "\(result.histories) histories of \(result.days) days"
            rows.append(
                (
                    name,
                    result.findings.isEmpty
                        ? "\(what): no difference"
                        : "\(what): A and B differ in \(result.differing) of \(result.histories); by kind (histories): "
                            + result.findings.map { "\($0.field.rawValue) (\($0.histories))" }.joined(separator: ", ")
                            + files(result.findings.compactMap { paths[$0.field] })
                ))
            if result.ruleErrorsA + result.ruleErrorsB > 0 {
                rows.append(
                    ("\(name): a rule error", "\(result.ruleErrorsA) histories under A, \(result.ruleErrorsB) under B (the event refused)"))
            }
        }
        half("the economy (Earned histories)", economy, economyFiles)
        half("the habit tracker", habits, habitFiles)
        for p in properties {
            rows.append(
                (
                    p.name,
                    p.holds
                        ? "holds on \(p.outcome.cases) histories" + RuleReach.note(p.reach)
                        : "BROKEN in \(p.outcome.broken) of \(p.outcome.cases) histories"
                            + files(propertyFiles[p.fileName].map { [$0] } ?? [])
                ))
        }
        return rows
    }
}

import RulesModel

extension AnalysisReport {
    /// The analysis as one self-contained HTML page (`analyze --html`), in this order: the
    /// sample-ratio verdict (a red banner when it fires: every result below is untrustworthy); the
    /// rollout, its users per arm against the allocation, and what the log could not give, with
    /// examples; a forest plot per arm after the control of every metric's relative lift with its
    /// interval, every plot on one scale (and, with `prediction`, the predicted lift under each
    /// observed one); a table per such arm (each arm's value, the difference and the lift with their
    /// intervals, the method, CUPED's variance reduction, the prediction and whether it agrees); and
    /// `json()` embedded once as `<script type="application/json" id="analysis">`. The same report
    /// gives the same bytes.
    package func html() -> String {
        let r = analysis.experiment, control = armNames[0]
        var page = HTMLPage(title: "rulesrun analyze \(source): experiment \(r.name), revision \(r.revision)")
        page.paragraph(srmLine(), className: untrustworthy ? "alert" : "verdict")
        page.paragraph(
            "What the rollout of \(r.bundle) did, from the apps' event log \(source): each user exposed to an arm replayed through "
                + "that arm's rules, each metric computed per user from the day of its exposure, and each arm after the control "
                + "(\(control)) against it. An interval that leaves out 0 is significant (unlikely to be noise); one that holds 0 "
                + "cannot be told from no difference.",
            className: "note")
        usersSection(&page)
        problemsSection(&page)
        forestSection(&page)
        tableSection(&page)
        segmentsSection(&page)
        page.heading("Data")
        page.paragraph(
            "The numbers of this page, as rulesrun analyze --format json prints them, are embedded in it: the element "
                + "<script type=\"application/json\" id=\"analysis\">. Each row of a plot carries its numbers: data-metric, "
                + "data-id, data-arm, data-significant, the lift in % (data-value, data-value-low, data-value-high) and, with a "
                + "prediction, the predicted lift in % (data-beside, data-beside-low, data-beside-high) and data-agrees.",
            className: "note")
        page.data(id: "analysis", json: json())
        return page.html()
    }

    private func usersSection(_ page: inout HTMLPage) {
        let r = analysis.experiment
        page.heading("The rollout and its users")
        let days =
            analysis.days.map { "the first \($0) day\($0 == 1 ? "" : "s") after each user's exposure" }
            ?? "every whole day after each user's exposure"
        var intervals = "\(percent), " + (cuped ? "CUPED on the days before each user's exposure" : "without CUPED")
        if let sequential { intervals += "; anytime-valid (confidence sequences tuned for \(Int(sequential)) users)" }
        page.table([
            ("events", "\(source): \(analysis.events) read"), ("bundle", r.bundle), ("experiment", r.name),
            ("revision", "\(r.revision)"), ("days counted", days), ("intervals", intervals),
        ])
        let total = analysis.users.reduce(0, +), shares = r.arms.map(\.basisPoints),
            allocated = max(1, shares.reduce(0, +))
        page.grid(
            ["arm", "users", "share of the users", "allocated", "expected users"],
            zip(armNames, zip(analysis.users, shares)).map { name, pair in
                let (users, share) = pair
                return [
                    name, "\(users)", total > 0 ? Self.trimmed(Double(users) * 100 / Double(total)) + "%" : "–",
                    Self.trimmed(Double(share) / 100) + "%", Self.number(Double(total) * Double(share) / Double(allocated)),
                ]
            })
        if let srm {
            page.paragraph(
                "Sample ratio: Pearson's chi-square of the users per arm against the allocation, χ² = \(Self.number(srm.chiSquare)) "
                    + "with \(srm.degreesOfFreedom) degree\(srm.degreesOfFreedom == 1 ? "" : "s") of freedom, p = \(Self.pValue(srm.pValue)); "
                    + "a mismatch is flagged at p < \(srm.threshold).",
                className: "note")
        }
    }

    private func problemsSection(_ page: inout HTMLPage) {
        page.heading("What the log could not give")
        let problems = analysis.problems
        let failed = ruleFailures
        if problems.isEmpty {
            page.paragraph(
                "Nothing: every line was an event, and every user was exposed once, to one arm of this revision.",
                className: "note")
        } else {
            page.paragraph(
                "Each kind counted, with the first \(EventLog.Problems.examplesKept) lines as examples.", className: "note")
            page.grid(
                ["what", "count", "what became of it", "examples"],
                EventLog.Problems.Kind.allCases.compactMap { kind in
                    problems.counts[kind].map { n in
                        [kind.rawValue, "\(n)", kind.consequence, (problems.examples[kind] ?? []).joined(separator: "; ")]
                    }
                })
        }
        if !failed.isEmpty { page.paragraph("Rule failures while replaying: \(failed.countsText).", className: "note") }
    }

    /// The forest plots: per arm after the control, a row per metric, every plot on one scale.
    private func forestSection(_ page: inout HTMLPage) {
        let control = armNames[0]
        page.heading("The relative lift of each metric")
        page.paragraph(
            "For each arm after the control, each metric's relative lift (arm − \(control)) / \(control) in %, with its \(percent) "
                + "interval: one scale for every metric and every arm, so that rows can be compared. A whisker that does not cross "
                + "the 0 line is significant (bold, blue); the others are grey. A whisker past the scale ends in an arrow."
                + (prediction == nil
                    ? ""
                    : " Under each observed lift, in orange and hollow, the predicted one (\(prediction!.source)): the predicted "
                        + "difference and its 95% interval divided by the control's observed value; it agrees when |observed − "
                        + "predicted| is within 1.96 √(se² + se²) of the two differences."),
            className: "note")
        let charts = armNames.indices.dropFirst().map { forest(arm: $0) }
        let limit = IntervalChart.limit(of: charts.flatMap(\.rows))
        for var chart in charts {
            chart.sharedLimit = limit
            page.figure(chart.svg())
        }
    }

    /// The forest plot of the `arm`-th arm (1 or more) against the control.
    func forest(arm b: Int) -> IntervalChart {
        let control = armNames[0], name = armNames[b]
        let rows = self.rows.map { row -> IntervalChart.Row in
            guard let c = row.comparisons[b - 1] else {
                return IntervalChart.Row(
                    name: row.metric.label, value: nil, low: nil, high: nil, isSignificant: false,
                    text: "no interval: \(row.reason ?? "too few users")", data: [("id", row.metric.id), ("arm", name)])
            }
            guard let lift = c.relativeLift else {
                return IntervalChart.Row(
                    name: row.metric.label, value: nil, low: nil, high: nil, isSignificant: false,
                    text: "no lift: the control's value is 0", data: [("id", row.metric.id), ("arm", name)])
            }
            var data = [("id", row.metric.id), ("arm", name)]
            var beside: IntervalChart.Beside?
            if let forecast = predicted(row.metric, treatment: b - 1, c) {
                let p = forecast.difference, agrees = forecast.agrees
                let scale = 100 / c.control.value, ends = [p.low * scale, p.high * scale]
                let shown = ArmComparison.Interval(
                    point: p.point / c.control.value, low: ends.min()! / 100, high: ends.max()! / 100, pValue: 1,
                    standardError: p.standardError, degreesOfFreedom: .infinity)
                beside = IntervalChart.Beside(
                    value: p.point * scale, low: ends.min()!, high: ends.max()!,
                    text: "predicted \(Self.interval(shown, share: true, points: false)): "
                        + (agrees ? "agrees" : "DOES NOT AGREE"))
                data.append(("agrees", "\(agrees)"))
            }
            var shown = IntervalChart.Row(
                name: row.metric.label, value: lift.point * 100, low: lift.low * 100, high: lift.high * 100,
                isSignificant: lift.isSignificant,
                text: Self.interval(lift, share: true, points: false) + (lift.isSignificant ? "  significant" : ""), data: data)
            shown.beside = beside
            return shown
        }
        var chart = IntervalChart(
            title: "\(name) against \(control): the relative lift of each metric, with its \(percent) interval",
            note: "(\(name) − \(control)) / \(control); a whisker that does not cross the 0 line is significant (bold, blue).",
            heading: "lift", suffix: "%", rows: rows)
        chart.sides = (lower: "← \(name) lower", higher: "\(name) higher →")
        chart.intervalName = "\(percent) interval"
        chart.besideName = "predicted"
        return chart
    }

    /// A table per arm after the control.
    /// With `--segments`: per dimension, each segment's users and each metric's difference.
    private func segmentsSection(_ page: inout HTMLPage) {
        guard !analysis.dimensions.isEmpty else { return }
        page.heading("By segment")
        page.paragraph(
            "Each metric in each segment of the users (\(analysis.segments.count) segments of "
                + analysis.dimensions.joined(separator: ", ") + "), as the table above computes it over the segment's users alone"
                + (analysis.unsegmented > 0 ? "; \(analysis.unsegmented) users in an arm have no row in the segments file." : "."),
            className: "note")
        for dimension in analysis.dimensions {
            page.heading(dimension, level: 3)
            var header = ["segment", "metric"] + armNames
            for b in armNames.dropFirst() { header.append("\(b) − \(armNames[0]) [\(percent)]") }
            var cells: [[String]] = []
            for (segment, rows) in zip(analysis.segments, segmentRows) where segment.dimension == dimension {
                let users = zip(armNames, segment.users).map { "\($0) \($1)" }.joined(separator: ", ")
                for row in rows {
                    var line = ["\(segment.value) (\(users))", row.metric.label] + row.values.map { $0.map { row.metric.format($0) } ?? "–" }
                    for c in row.comparisons {
                        line.append(
                            c.map { Self.interval($0.difference, share: row.metric.isShare, points: true) + ($0.difference.isSignificant ? " *" : "") }
                                ?? "–")
                    }
                    cells.append(line)
                }
            }
            page.grid(header, cells)
        }
    }

    private func tableSection(_ page: inout HTMLPage) {
        let control = armNames[0]
        page.heading("Every metric")
        page.paragraph(
            "Each arm's value; the difference (arm − \(control)) with its \(percent) interval, in percentage points (pp) for a "
                + "share, marked * and the row in bold when the interval leaves out 0; the relative lift; the method (Welch's t for a "
                + "per-user mean, the delta method for a ratio); and the share of the difference's variance that CUPED removed."
                + (prediction == nil
                    ? "" : " Then the predicted difference with its 95% interval, and whether the observed one agrees."),
            className: "note")
        for b in armNames.indices.dropFirst() {
            let name = armNames[b]
            if armNames.count > 2 { page.heading("\(name) against \(control)", level: 3) }
            var header = [
                "metric", control, name, "\(name) − \(control) [\(percent)]", "lift [\(percent)]", "method", "CUPED reduction",
            ]
            if prediction != nil { header += ["predicted [95%]", "agrees"] }
            var cells: [[String]] = [], marked: [Bool] = []
            for row in rows {
                let c = row.comparisons[b - 1], share = row.metric.isShare
                var line = [row.metric.label] + [row.values[0], row.values[b]].map { $0.map { row.metric.format($0) } ?? "–" }
                if let c {
                    line += [
                        Self.interval(c.difference, share: share, points: true) + (c.difference.isSignificant ? " *" : ""),
                        c.relativeLift.map { Self.interval($0, share: true, points: false) } ?? "– (the control is 0)",
                        Self.method(c),
                        c.cuped.map { Self.number($0.varianceReduction * 100) + "%" } ?? "–",
                    ]
                } else {
                    line += ["–", "–", "no interval: \(row.reason ?? "too few users")", "–"]
                }
                if prediction != nil {
                    if let c, let p = predicted(row.metric, treatment: b - 1, c) {
                        line += [Self.interval(p.difference, share: share, points: true), p.agrees ? "yes" : "NO"]
                    } else {
                        line += ["–", "–"]
                    }
                }
                cells.append(line)
                marked.append(c?.difference.isSignificant ?? false)
            }
            page.grid(header, cells, marked: marked)
        }
        page.paragraph(
            "* the interval leaves 0 out (significant at \(Self.trimmed(100 - level * 100))%)"
                + (sequential.map { "; the intervals are anytime-valid (confidence sequences tuned for \(Int($0)) users)" } ?? "")
                + ".",
            className: "note")
    }
}

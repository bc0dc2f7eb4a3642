import Foundation
import RulesModel

/// `rulesrun analyze`'s report: the sample-ratio check first, then per metric each arm's value and
/// each other arm against the control (difference and relative lift with their intervals), in
/// text, JSON or CSV.
package struct AnalysisReport: Sendable {
    package var analysis: RolloutAnalysis
    /// The events file, as named.
    package var source: String
    package var level: Double
    package var cuped: Bool
    /// The confidence sequence's tuning (users), with `--sequential`.
    package var sequential: Double?
    package var srm: SampleRatioCheck?
    package var rows: [Row]
    /// Each segment's rows (`analysis.segments`' order).
    package var segmentRows: [[Row]]
    /// What the simulation predicted (`--prediction`), set beside what was observed.
    package var prediction: Prediction?

    package struct Row: Sendable {
        package var metric: Metric
        /// Each arm's value (nil: no denominator there).
        package var values: [Double?]
        /// Each arm after the control against it (nil: too few users, or no denominator).
        package var comparisons: [ArmComparison?]
        /// Why there is no comparison, when there is none.
        package var reason: String?
    }

    package init(_ analysis: RolloutAnalysis, source: String, level: Double = 0.95, cuped: Bool = true, sequential: Double? = nil) {
        self.analysis = analysis
        self.source = source
        self.level = level
        self.cuped = cuped
        self.sequential = sequential
        let shares = analysis.experiment.arms.map(\.basisPoints)
        srm = analysis.users.reduce(0, +) > 0 ? try? SampleRatioCheck(counts: analysis.users, expectedBasisPoints: shares) : nil
        rows = Self.rows(
            analysis.moments, quantiles: analysis.quantiles, apps: analysis.apps, level: level, cuped: cuped, sequential: sequential)
        let metrics = analysis.moments.map(\.metric), percentiles = analysis.quantiles.map(\.metric)
        segmentRows = analysis.segments.map { segment in
            Self.rows(
                zip(metrics, segment.moments).map { (metric: $0, arms: $1) },
                quantiles: zip(percentiles, segment.histograms).map { (metric: $0, arms: $1) }, apps: analysis.apps, level: level,
                cuped: cuped, sequential: sequential)
        }
    }

    /// Each metric's row: its arms' values and each arm after the control against it, in the
    /// registry's order (the team's metrics last).
    static func rows(
        _ moments: [(metric: Metric, arms: [MetricMoments])], quantiles: [(metric: Metric, arms: [[Int]])], apps: Set<Metric.App>,
        level: Double, cuped: Bool, sequential: Double?
    ) -> [Row] {
        let order = Dictionary(uniqueKeysWithValues: MetricRegistry.summary.enumerated().map { ($1.id, $0) })
        let percentiles = quantiles.compactMap { metric, arms -> Row? in
            guard apps.contains(metric.app), arms.contains(where: { $0.reduce(0, +) > 0 }), let p = metric.quantile?.percentile else {
                return nil
            }
            var reason: String?
            var comparisons: [ArmComparison?] = []
            for b in arms.indices.dropFirst() {
                do throws(AnalysisError) {
                    guard sequential == nil else { throw AnalysisError("a percentile has no anytime-valid interval") }
                    comparisons.append(try ArmComparison.compare(control: arms[0], treatment: arms[b], percentile: p, level: level))
                } catch {
                    reason = error.message
                    comparisons.append(nil)
                }
            }
            let values = arms.map { $0.reduce(0, +) > 0 ? Double(Histogram.percentile(p, of: $0)) : nil }
            return Row(metric: metric, values: values, comparisons: comparisons, reason: reason)
        }
        let ratios = moments.compactMap { metric, arms -> Row? in
            guard apps.contains(metric.app), arms.contains(where: { $0.value != nil }) else { return nil }
            var reason: String?
            var comparisons: [ArmComparison?] = []
            for b in arms.indices.dropFirst() {
                do {
                    comparisons.append(
                        try ArmComparison.compare(control: arms[0], treatment: arms[b], level: level, cuped: cuped, sequential: sequential))
                } catch {
                    reason = (error as? AnalysisError)?.message ?? "\(error)"
                    comparisons.append(nil)
                }
            }
            return Row(metric: metric, values: arms.map(\.value), comparisons: comparisons, reason: reason)
        }
        let all = ratios + percentiles
        return all.indices.sorted { i, j in
            (order[all[i].metric.id] ?? MetricRegistry.summary.count + i, i) < (order[all[j].metric.id] ?? MetricRegistry.summary.count + j, j)
        }.map { all[$0] }
    }

    /// Whether the sample ratio check fired: the results are not to be trusted.
    package var untrustworthy: Bool { srm?.flagged ?? false }

    var armNames: [String] { analysis.experiment.armNames }

    /// The rule failures of every arm while replaying.
    var ruleFailures: RuleFailures { analysis.failures.reduce(RuleFailures()) { var f = $0; f.add($1); return f } }
    var percent: String { "\(Self.trimmed(level * 100))%" }

    /// `95`, `97.5`: a percentage without trailing zeros.
    static func trimmed(_ x: Double) -> String {
        var text = String(format: "%.2f", x)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    // MARK: - Text

    package func text() -> String {
        let r = analysis.experiment
        var out = "analyze \(source): experiment \(r.name), revision \(r.revision) (\(r.bundle))"
        out += (analysis.shard == .whole ? "" : ", shard \(analysis.shard) of its users") + "\n"
        out += srmLine() + "\n"
        let shares = r.arms.map { Self.trimmed(Double($0.basisPoints) / 100) + "%" }
        out += "users: " + zip(armNames, analysis.users).map { "\($0) \($1)" }.joined(separator: ", ")
        out += " (allocated " + shares.joined(separator: " / ") + ")\n"
        out += "events: \(analysis.events) read"
        out += analysis.days.map { "; the first \($0) day\($0 == 1 ? "" : "s") after each user's exposure" } ?? "; every whole day after each user's exposure"
        out += "\n"
        for line in analysis.problems.lines { out += "  \(line)\n" }
        let failed = ruleFailures
        if !failed.isEmpty { out += "  rule failures while replaying: \(failed.countsText)\n" }
        out += "\n" + table(rows) + "\n"
        out += "* the interval leaves 0 out (significant at \(Self.trimmed(100 - level * 100))%)"
        out += sequential.map { "; intervals are anytime-valid (confidence sequences tuned for \(Int($0)) users)" } ?? ""
        out += "\n"
        let reductions = rows.compactMap { row in row.comparisons.first??.cuped.map { (row.metric.label, $0.varianceReduction) } }
        if let prediction { out += predictionText(prediction) }
        if cuped, !reductions.isEmpty {
            let shown = reductions.prefix(4).map { "\($0.0) \(Self.number($0.1 * 100))%" }.joined(separator: ", ")
            out += "CUPED (each user's days before its exposure): variance reduced by \(shown)\(reductions.count > 4 ? ", …" : "")\n"
        } else if cuped {
            out += "CUPED: no user has days before its exposure in the log; intervals are not adjusted\n"
        }
        if !analysis.dimensions.isEmpty {
            out += "\nby segment (" + analysis.dimensions.joined(separator: ", ") + ")"
            out += analysis.unsegmented > 0 ? ": \(analysis.unsegmented) users in an arm have no row in the segments file (in no segment)\n" : "\n"
        }
        for (segment, rows) in zip(analysis.segments, segmentRows) {
            out += "\n\(segment.dimension) = \(segment.value): users " + zip(armNames, segment.users).map { "\($0) \($1)" }.joined(separator: ", ")
            out += "\n" + table(rows) + "\n"
        }
        return out
    }

    /// The table of `rows`: each arm's value, then each arm after the control against it.
    private func table(_ rows: [Row]) -> String {
        var header = ["metric"] + armNames
        for b in armNames.dropFirst() {
            header += ["\(b) − \(armNames[0]) [\(percent)]", "lift [\(percent)]"]
        }
        header += ["method"]
        var lines = [header]
        for row in rows {
            var line = [row.metric.label] + row.values.map { $0.map { row.metric.format($0) } ?? "–" }
            for c in row.comparisons {
                guard let c else {
                    line += ["–", "–"]
                    continue
                }
                let mark = c.difference.isSignificant ? " *" : ""
                line.append(Self.interval(c.difference, share: row.metric.isShare, points: true) + mark)
                line.append(c.relativeLift.map { Self.interval($0, share: true, points: false) } ?? "–")
            }
            line.append(Self.method(row))
            lines.append(line)
        }
        return SimulationReport.align(lines, leftColumns: [0])
    }

    /// The prediction beside the observation: per metric and arm, both differences with their
    /// 95 % intervals, and whether they agree.
    private func predictionText(_ prediction: Prediction) -> String {
        var lines = [["metric", "arm", "predicted [95%]", "observed [95%]", "agree"]]
        var agreeing = 0, compared = 0
        for row in rows {
            for (b, c) in row.comparisons.enumerated() {
                guard let c, let forecast = predicted(row.metric, treatment: b, c) else { continue }
                let shown = forecast.difference, agrees = forecast.agrees
                compared += 1
                if agrees { agreeing += 1 }
                lines.append([
                    row.metric.label, armNames[b + 1], Self.interval(shown, share: row.metric.isShare, points: true),
                    Self.interval(c.difference, share: row.metric.isShare, points: true), agrees ? "yes" : "NO",
                ])
            }
        }
        guard compared > 0 else { return "\nprediction \(prediction.source): no metric in common with the analysis\n" }
        return "\nprediction (\(prediction.source)) beside observation: \(agreeing) of \(compared) differences agree "
            + "(|observed − predicted| within 1.96 √(se² + se²))\n" + SimulationReport.align(lines, leftColumns: [0, 1]) + "\n"
    }

    /// The predicted difference of the `b`-th arm after the control, with its 95 % interval, and
    /// whether the observed one (`c`) agrees with it; nil without a prediction for it.
    func predicted(_ metric: Metric, treatment b: Int, _ c: ArmComparison) -> (difference: ArmComparison.Interval, agrees: Bool)? {
        // A percentile's observed difference is that of the interpolated percentiles: no prediction of it.
        guard c.method != .orderStatistics, let predicted = prediction?.difference(metric, arm: armNames[b + 1], index: b) else {
            return nil
        }
        let z = Distribution.normalQuantile(0.975)
        let shown = ArmComparison.Interval(
            point: predicted.point, low: predicted.point - z * predicted.standardError,
            high: predicted.point + z * predicted.standardError, pValue: 1, standardError: predicted.standardError,
            degreesOfFreedom: .infinity)
        return (shown, Prediction.agrees(observed: c.difference, predicted: predicted))
    }

    /// The sample-ratio check's verdict, as the text report's second line and the HTML page's banner say it.
    func srmLine() -> String {
        guard let srm else { return "sample ratio: no users in the arms" }
        let p = Self.pValue(srm.pValue)
        return srm.flagged
            ? "SAMPLE RATIO MISMATCH: χ² = \(Self.number(srm.chiSquare)), p = \(p) < \(srm.threshold): the users per arm are not "
                + "the allocation's; the assignment or the logging is broken, and the results below are untrustworthy"
            : "sample ratio: χ² = \(Self.number(srm.chiSquare)), p = \(p): the users per arm match the allocation"
    }

    private static func method(_ row: Row) -> String {
        guard let c = row.comparisons.compactMap({ $0 }).first else { return row.reason.map { "no interval: \($0)" } ?? "–" }
        return method(c)
    }

    /// `Welch`, `delta, CUPED`: how a comparison's intervals were computed.
    static func method(_ c: ArmComparison) -> String {
        let name: String
        switch c.method {
        case .welch: name = "Welch"
        case .delta: name = "delta"
        case .orderStatistics: name = "order statistics"
        }
        return name + (c.cuped != nil ? ", CUPED" : "")
    }

    /// `+1.2 pp [-0.3, 2.7]` for a share's difference (percentage points), `-3.4% [-8.0%, 1.2%]`
    /// for a lift, `0.12 [0.02, 0.22]` otherwise.
    static func interval(_ i: ArmComparison.Interval, share: Bool, points: Bool) -> String {
        let scale = share ? 100.0 : 1
        let unit = share ? (points ? " pp" : "%") : ""
        func f(_ x: Double) -> String { number(x * scale, signed: true) }
        return "\(f(i.point))\(unit) [\(f(i.low)), \(f(i.high))]"
    }

    static func number(_ x: Double, signed: Bool = false) -> String {
        let text = String(format: abs(x) >= 100 ? "%.1f" : "%.2f", x)
        return signed && x >= 0 ? "+" + text : text
    }

    package static func pValue(_ p: Double) -> String { p < 0.0001 ? String(format: "%.1e", p) : String(format: "%.4f", p) }

    // MARK: - JSON

    /// Each row as JSON: the metric, each arm's value, each comparison with its intervals.
    private func metricsJSON(_ rows: [Row]) -> [JSONValue] {
        func interval(_ i: ArmComparison.Interval) -> JSONValue {
            .object([
                ("point", .double(i.point)), ("low", .double(i.low)), ("high", .double(i.high)), ("p_value", .double(i.pValue)),
                ("significant", .bool(i.isSignificant)),
            ])
        }
        func predicted(_ metric: Metric, _ arm: String, _ c: ArmComparison) -> [(String, JSONValue)] {
            guard let index = armNames.firstIndex(of: arm), let p = self.predicted(metric, treatment: index - 1, c) else { return [] }
            let d = p.difference
            return [
                (
                    "predicted",
                    .object([("point", .double(d.point)), ("low", .double(d.low)), ("high", .double(d.high)), ("agrees", .bool(p.agrees))])
                )
            ]
        }
        return rows.map { row in
            .object([
                ("id", .string(row.metric.id)), ("label", .string(row.metric.label)), ("unit", .string(row.metric.unit.rawValue)),
                ("arms", .object(zip(armNames, row.values).map { ($0, $1.map(JSONValue.double) ?? .null) })),
                (
                    "comparisons",
                    .array(
                        zip(armNames.dropFirst(), row.comparisons).map { arm, c in
                            guard let c else { return .object([("arm", .string(arm)), ("reason", .string(row.reason ?? ""))]) }
                            return .object(
                                [
                                    ("arm", .string(arm)), ("method", .string(c.method.rawValue)), ("difference", interval(c.difference)),
                                ] + (c.relativeLift.map { [("relative_lift", interval($0))] } ?? [])
                                    + (c.cuped.map { [("cuped_variance_reduction", .double($0.varianceReduction))] } ?? [])
                                    + predicted(row.metric, arm, c))
                        })
                ),
            ])
        }
    }

    /// The sufficient statistics of each metric per arm, for `merge` of shards.
    private func momentsJSON(_ moments: [(metric: Metric, arms: [MetricMoments])]) -> JSONValue {
        .object(moments.map { metric, arms in (metric.id, .object(zip(armNames, arms).map { ($0, $1.json) })) })
    }

    /// Each percentile's histograms per arm (`counts[v]` users have the value v), for `merge`.
    private func histogramsJSON(_ quantiles: [(metric: Metric, arms: [[Int]])]) -> JSONValue {
        .object(quantiles.map { metric, arms in (metric.id, .object(zip(armNames, arms).map { ($0, .array($1.map(JSONValue.int))) })) })
    }

    package func json() -> String {
        let r = analysis.experiment
        let metrics = metricsJSON(rows)
        var members: [(String, JSONValue)] = [
            ("report", .string("rulesrun analyze")), ("version", .int(1)), ("events", .string(source)),
            (
                "experiment",
                .object([
                    ("name", .string(r.name)), ("revision", .int(r.revision)), ("bundle", .string(r.bundle)),
                    ("arms", .array(r.arms.map { .object([("arm", .string($0.name)), ("basis_points", .int($0.basisPoints))]) })),
                ])
            ),
            ("shard", .string(analysis.shard.description)), ("level", .double(level)), ("cuped", .bool(cuped)),
            ("days", analysis.days.map(JSONValue.int) ?? .null),
        ]
        if let srm {
            members.append(
                (
                    "sample_ratio",
                    .object([
                        ("chi_square", .double(srm.chiSquare)), ("df", .int(srm.degreesOfFreedom)), ("p_value", .double(srm.pValue)),
                        ("threshold", .double(srm.threshold)), ("mismatch", .bool(srm.flagged)),
                    ])
                ))
        }
        members += [
            ("trustworthy", .bool(!untrustworthy)),
            ("users", .object(zip(armNames, analysis.users).map { ($0, .int($1)) })), ("events_read", .int(analysis.events)),
            ("apps", .array(Metric.App.allCases.filter(analysis.apps.contains).map { .string($0.rawValue) })),
            ("problems", analysis.problems.json),
            ("failures", .object(zip(armNames, analysis.failures).map { ($0, $1.json) })),
        ]
        if let sequential { members.append(("sequential_tuning", .double(sequential))) }
        if let prediction { members.append(("prediction", .string(prediction.source))) }
        if !analysis.team.isEmpty { members.append(("team_metrics", .array(analysis.team.map(\.json)))) }
        members.append(("metrics", .array(metrics)))
        // The sufficient statistics, for `merge` of shards.
        members.append(("moments", momentsJSON(analysis.moments)))
        members.append(("histograms", histogramsJSON(analysis.quantiles)))
        if !analysis.dimensions.isEmpty {
            let ids = analysis.moments.map(\.metric), percentiles = analysis.quantiles.map(\.metric)
            members += [
                ("dimensions", .array(analysis.dimensions.map(JSONValue.string))), ("unsegmented", .int(analysis.unsegmented)),
                (
                    "segments",
                    .array(
                        zip(analysis.segments, segmentRows).map { segment, rows in
                            .object([
                                ("dimension", .string(segment.dimension)), ("value", .string(segment.value)),
                                ("users", .object(zip(armNames, segment.users).map { ($0, .int($1)) })),
                                ("metrics", .array(metricsJSON(rows))),
                                ("moments", momentsJSON(zip(ids, segment.moments).map { (metric: $0, arms: $1) })),
                                ("histograms", histogramsJSON(zip(percentiles, segment.histograms).map { (metric: $0, arms: $1) })),
                            ])
                        })
                ),
            ]
        }
        return JSONValue.object(members).description + "\n"
    }

    // MARK: - CSV

    package func csv() -> String {
        var out = "metric,arm,users,value,difference,difference_low,difference_high,p_value,lift,lift_low,lift_high,method,"
            + "dimension,segment\n"
        let segments = [(nil, rows)] + zip(analysis.segments, segmentRows).map { (Optional($0), $1) }
        for (segment, rows) in segments {
            let users = segment?.users ?? analysis.users
            for row in rows {
                for (a, name) in armNames.enumerated() {
                    var cells = [row.metric.id, name, "\(users[a])", row.values[a].map { "\($0)" } ?? ""]
                    if a > 0, let c = row.comparisons[a - 1] {
                        let d = c.difference
                        cells += ["\(d.point)", "\(d.low)", "\(d.high)", "\(d.pValue)"]
                        cells += c.relativeLift.map { ["\($0.point)", "\($0.low)", "\($0.high)"] } ?? ["", "", ""]
                        cells.append(c.method.rawValue + (c.cuped != nil ? "+cuped" : ""))
                    } else {
                        cells += Array(repeating: "", count: 8)
                    }
                    cells += [segment?.dimension ?? "", segment.map { UserSegments.csvField($0.value) } ?? ""]
                    out += cells.joined(separator: ",") + "\n"
                }
            }
        }
        return out
    }
}

import RulesModel

/// Each metric per persona of the cohort (its *segments*), or per arm of a rollout, with a 95 %
/// interval: from groups of users in one run (batch means, as `compare`), or over replicas
/// (`simulate --replicas`). A persona whose users do not use a metric's app has no value for it.
package struct SegmentBreakdown: Sendable, Equatable {
    /// What the columns are.
    package enum Dimension: Sendable, Equatable {
        case persona
        /// The arms of a rollout's experiment, the control first.
        case arm(experiment: String, revision: Int)
    }

    package var dimension = Dimension.persona
    /// A rollout's users' days before their exposure (``SimulationConfig/exposeAfter``): the arms'
    /// figures count from the exposure, which the titles say.
    package var preperiodDays = 0
    /// The personas in the mix's order (or the arms in the experiment's), and how many users each
    /// had (in the first report).
    package var names: [String]
    package var users: [Int]
    /// The metrics of the apps the cohort uses (``MetricRegistry/summary``), each with one
    /// estimate per persona (nil: the persona does not use the metric's app).
    package var rows: [(metric: Metric, values: [Estimate?])]
    /// How the intervals were computed, for the note above the table.
    package var method: String

    package static func == (a: Self, b: Self) -> Bool {
        a.dimension == b.dimension && a.names == b.names && a.users == b.users && a.method == b.method
            && a.rows.map(\.metric.id) == b.rows.map(\.metric.id) && a.rows.map(\.values) == b.rows.map(\.values)
    }

    /// One run's segments with intervals from its `groups` (the reports of groups of its users,
    /// as `Simulation.run(seed:groups:)` returns them).
    package init(_ report: SimulationReport, groups: [SimulationReport]) {
        self.init(report, groups: groups, parts: \.segments)
    }

    /// A rollout's run by arm, with intervals from its `groups`.
    package init(_ report: SimulationReport, groups: [SimulationReport], arms rollout: Rollout, preperiodDays: Int = 0) {
        self.init(report, groups: groups, parts: \.arms)
        dimension = .arm(experiment: rollout.experiment.name, revision: rollout.revision)
        self.preperiodDays = preperiodDays
    }

    /// After a title by arm: from when the arms' figures count, after a pre-period.
    private var preperiod: String {
        preperiodDays == 0 ? "" : ", from each user's exposure after its \(preperiodDays)-day pre-period"
    }

    private init(_ report: SimulationReport, groups: [SimulationReport], parts: KeyPath<SimulationReport, [SimulationReport.Segment]>) {
        let summaries = report[keyPath: parts].map { ReportSummary(report.report(of: $0)) }
        let groupSummaries = groups.map { g in g[keyPath: parts].map { ReportSummary(g.report(of: $0)) } }
        self.init(report, parts: report[keyPath: parts], summaries: summaries) { p, metric in
            // A rate from the groups that have users of the persona using its app; a total from all of them.
            let values = groupSummaries.compactMap { metric.sampled($0[p]) }
            if metric.kind == .extreme || values.count < 2 { return .around(metric.value(summaries[p]), groups: []) }
            return .around(metric.value(summaries[p]), groups: values, scale: metric.kind == .total ? Double(values.count) : 1)
        }
        method = groups.count > 1 ? "95% intervals from \(groups.count) groups of users (batch means)" : "no intervals (one group)"
    }

    /// Replicas' segments: each metric's mean over the replicas with its Student-t interval.
    package init(replicas reports: [SimulationReport]) {
        let first = reports[0]
        let perReplica = reports.map { r in r.segments.map { ReportSummary(r.report(of: $0)) } }
        self.init(first, parts: first.segments, summaries: perReplica[0]) { p, metric in
            .of(perReplica.compactMap { metric.sampled($0[p]) }, method: .replicas)
        }
        method = "means over \(reports.count) replicas with their 95% intervals"
    }

    private init(
        _ report: SimulationReport, parts: [SimulationReport.Segment], summaries: [ReportSummary], estimate: (Int, Metric) -> Estimate
    ) {
        let names = parts.map(\.name)
        let apps = summaries.map { Metric.apps(of: $0) }
        let team = report.teamMetrics
        // A rollout's arms count from the users' exposure: their days may be fewer than the run's.
        let days = parts.first?.days.count ?? report.days.count
        rows = MetricRegistry.only(MetricRegistry.summary, team: team, apps: Metric.apps(of: summaries), days: days).map {
            metric in
            (metric, names.indices.map { p in apps[p].contains(metric.app) ? estimate(p, metric) : nil })
        }
        self.names = names
        users = parts.map(\.users)
        method = ""
    }
}

extension SegmentBreakdown {
    /// A persona's column head: its name and users.
    private func head(_ p: Int) -> String { "\(names[p]) (\(users[p]) user\(users[p] == 1 ? "" : "s"))" }

    /// A cell: the value with its interval (– when the persona does not use the metric's app).
    private static func cell(_ e: Estimate?, share: Bool) -> String {
        guard let e else { return "–" }
        let value = ReplicaReport.format(e.mean, share: share)
        return e.n > 1 ? "\(value) \(ReplicaReport.interval(e, share: share))" : value
    }

    /// The section the table report ends with: a row per metric, a column per persona.
    package func table() -> String {
        var out = "\n\(title) (\(method))\n"
        let header = ["  metric"] + names.indices.map(head)
        let lines = rows.map { m, values in ["  " + m.label] + values.map { Self.cell($0, share: m.isShare) } }
        out += SimulationReport.align([header] + lines, leftColumns: [0])
        return out
    }

    /// The section's title: `by persona`, or `by arm of experiment X (revision N)`.
    private var title: String {
        switch dimension {
        case .persona: "by persona"
        case .arm(let experiment, let revision): "by arm of experiment \(experiment) (revision \(revision))\(preperiod)"
        }
    }

    /// The `segments` member of a JSON report (the `arms` member of a rollout's): per persona (or
    /// arm) its users and each metric (by id) with its value (the mean over replicas), low and high.
    package var json: JSONValue {
        let (key, list): (String, String) =
            switch dimension {
            case .persona: ("persona", "personas")
            case .arm: ("arm", "arms")
            }
        var head: [(String, JSONValue)] = [("method", .string(method))]
        if case .arm(let experiment, let revision) = dimension {
            head += [("experiment", .string(experiment)), ("revision", .int(revision))]
            if preperiodDays > 0 { head.append(("preperiod_days", .int(preperiodDays))) }
        }
        return .object(
            head + [
                (
                    list,
                    .array(
                        names.indices.map { p in
                            .object([
                                (key, .string(names[p])), ("users", .int(users[p])),
                                (
                                    "metrics",
                                    .object(
                                        rows.compactMap { m, values in
                                            values[p].map { e in
                                                (
                                                    m.id,
                                                    .object([
                                                        ("value", SimulationReport.rounded(e.mean)),
                                                        ("low", SimulationReport.rounded(e.low)),
                                                        ("high", SimulationReport.rounded(e.high)),
                                                    ])
                                                )
                                            }
                                        })
                                ),
                            ])
                        })
                )
            ])
    }

    /// The HTML page's section.
    package func html(_ page: inout HTMLPage) {
        let (heading, of) =
            switch dimension {
            case .persona: ("By persona", "persona")
            case .arm(let experiment, let revision): ("By arm of experiment \(experiment) (revision \(revision))\(preperiod)", "arm")
            }
        page.heading(heading)
        page.paragraph(
            "Each figure for the users of each \(of) alone (\(method)); – where the \(of)'s users do not use the metric's app.",
            className: "note")
        page.grid(
            ["metric"] + names.indices.map(head), rows.map { m, values in [m.label] + values.map { Self.cell($0, share: m.isShare) } })
    }
}

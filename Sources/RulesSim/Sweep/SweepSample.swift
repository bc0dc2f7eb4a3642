/// One rule set's metrics in a sweep, as the intervals need them: each metric's value in each
/// replica (the same K cohorts for every variant: the seeds of ``ReplicaReport/seed(_:replica:)``),
/// and with one replica its value in each group of users (batch means, as `compare` does). With
/// `segments`, the same for each persona's users alone (``segments``).
struct SweepSample: Sendable {
    /// `[metric][replica]`: nil where the replica has no user to measure a rate on (a persona's
    /// segment without users of the metric's app).
    var replicas: [[Double?]]
    /// `[metric][group]`: empty with more than one replica, or fewer than two groups; nil where
    /// the group has no user of the metric's app to measure a rate on.
    var groups: [[Double?]]
    /// The events the engine refused, over every replica.
    var refused: Int
    /// Each persona's users alone, in the mix's order (`sweep --segments`; else empty).
    var segments: [Segment] = []

    struct Segment: Sendable {
        var persona: String
        /// The persona's users (in the first replica).
        var users: Int
        /// Whether its users use each metric's app (else the metric has no value for it).
        var uses: [Bool]
        var sample: SweepSample
    }

    /// Simulates `simulation` on `replicas` cohorts (in `groups` groups of users when `replicas` is
    /// 1); with `segments`, measures each persona's users apart too.
    init(_ simulation: Simulation, metrics: [Metric], replicas: Int, groups: Int, segments: Bool = false) throws {
        var runs: [(report: SimulationReport, groups: [SimulationReport])] = []
        for r in 1...replicas {
            runs.append(try simulation.run(seed: ReplicaReport.seed(simulation.config.seed, replica: r), groups: groups))
        }
        let grouped = replicas == 1 && groups > 1
        let summaries = runs.map { ReportSummary($0.report) }
        self.init(metrics, summaries, grouped ? runs[0].groups.map(ReportSummary.init) : [])
        refused = summaries.map(\.refused).reduce(0, +)
        guard segments else { return }
        let personas = simulation.personas
        self.segments = personas.indices.map { p in
            func summary(_ r: SimulationReport) -> ReportSummary { ReportSummary(r.report(of: r.segments[p])) }
            let apps = Persona.apps(of: [personas[p]])
            return Segment(
                persona: personas[p].name, users: runs[0].report.segments[p].users, uses: metrics.map { apps.contains($0.app) },
                sample: SweepSample(metrics, runs.map { summary($0.report) }, grouped ? runs[0].groups.map(summary) : []))
        }
    }

    /// The values of `metrics` in each replica's and each group's summary (``Metric/sampled(_:)``:
    /// a rate has none where no user of the summary uses its app).
    private init(_ metrics: [Metric], _ replicas: [ReportSummary], _ groups: [ReportSummary]) {
        self.replicas = metrics.map { metric in replicas.map(metric.sampled) }
        self.groups = groups.isEmpty ? [] : metrics.map { metric in groups.map(metric.sampled) }
        refused = 0
    }

    /// Each metric's mean with its 95 % interval: over the replicas, or around the cohort's value
    /// from its groups (none for a maximum over users, or with one group).
    func estimates(_ metrics: [Metric]) -> [Estimate] {
        metrics.indices.map { m in
            Self.estimate(metrics[m], replicas[m].compactMap { $0 }, groups.isEmpty ? [] : groups[m].compactMap { $0 })
        }
    }

    /// Each metric's paired difference to `base` (the same cohorts, the same users) with its
    /// interval, over the replicas or groups measured under both.
    func differences(from base: SweepSample, _ metrics: [Metric]) -> [Estimate] {
        func paired(_ a: [Double?], _ b: [Double?]) -> [Double] {
            zip(a, b).compactMap { a, b in a.flatMap { a in b.map { a - $0 } } }
        }
        return metrics.indices.map { m in
            Self.estimate(
                metrics[m], paired(replicas[m], base.replicas[m]),
                groups.isEmpty || base.groups.isEmpty ? [] : paired(groups[m], base.groups[m]))
        }
    }

    /// Each persona's estimates and differences to `base`'s (nil where its users do not use the
    /// metric's app).
    func segmentRows(from base: SweepSample, _ metrics: [Metric]) -> [SweepRow.Segment] {
        zip(segments, base.segments).map { s, b in
            let estimates = s.sample.estimates(metrics), differences = s.sample.differences(from: b.sample, metrics)
            return SweepRow.Segment(
                persona: s.persona, users: s.users, estimates: metrics.indices.map { s.uses[$0] ? estimates[$0] : nil },
                differences: metrics.indices.map { s.uses[$0] ? differences[$0] : nil })
        }
    }

    static func estimate(_ metric: Metric, _ replicas: [Double], _ groups: [Double]) -> Estimate {
        if replicas.count > 1 { return Estimate.of(replicas, method: .replicas) }
        let point = replicas.first ?? 0
        guard groups.count > 1, metric.kind != .extreme else {
            return Estimate(mean: point, low: point, high: point, n: 1, method: .single)
        }
        return Estimate.around(point, groups: groups, scale: metric.kind == .total ? Double(groups.count) : 1)
    }
}

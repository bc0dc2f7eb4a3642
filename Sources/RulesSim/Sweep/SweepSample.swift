/// One rule set's metrics in a sweep, as the intervals need them: each metric's value in each
/// replica (the same K cohorts for every variant: the seeds of ``ReplicaReport/seed(_:replica:)``),
/// and with one replica its value in each group of users (batch means, as `compare` does).
struct SweepSample: Sendable {
    /// `[metric][replica]`.
    var replicas: [[Double]]
    /// `[metric][group]`: empty with more than one replica, or fewer than two groups.
    var groups: [[Double]]
    /// The events the engine refused, over every replica.
    var refused: Int

    /// Simulates `simulation` on `replicas` cohorts (in `groups` groups of users when `replicas` is 1).
    init(_ simulation: Simulation, metrics: [Metric], replicas: Int, groups: Int) throws {
        self.replicas = metrics.map { _ in [] }
        self.groups = []
        refused = 0
        for r in 1...replicas {
            let run = try simulation.run(seed: ReplicaReport.seed(simulation.config.seed, replica: r), groups: groups)
            let summary = ReportSummary(run.report)
            refused += summary.refused
            for (m, metric) in metrics.enumerated() { self.replicas[m].append(metric.value(summary)) }
            if replicas == 1, groups > 1 {
                let summaries = run.groups.map(ReportSummary.init)
                self.groups = metrics.map { metric in summaries.map(metric.value) }
            }
        }
    }

    /// Each metric's mean with its 95 % interval: over the replicas, or around the cohort's value
    /// from its groups (none for a maximum over users, or with one group).
    func estimates(_ metrics: [Metric]) -> [Estimate] {
        metrics.indices.map { m in Self.estimate(metrics[m], replicas[m], groups.isEmpty ? [] : groups[m]) }
    }

    /// Each metric's paired difference to `base` (the same cohorts, the same users) with its interval.
    func differences(from base: SweepSample, _ metrics: [Metric]) -> [Estimate] {
        metrics.indices.map { m in
            Self.estimate(
                metrics[m], zip(replicas[m], base.replicas[m]).map { $0 - $1 },
                groups.isEmpty || base.groups.isEmpty ? [] : zip(groups[m], base.groups[m]).map { $0 - $1 })
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

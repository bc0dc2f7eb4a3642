import Foundation
import LuaHost
import RulesEngine

/// A knob sweep (`rulesrun sweep`): each variant of the plan validated as a rule set of its own
/// (a variant whose values break a constraint is refused, not run) and simulated in memory on the
/// same cohorts (the same users, personas and seeds as the base run: `replicas` cohorts with the
/// seeds of ``ReplicaReport/seed(_:replica:)``), one after the other, each with the run's worker
/// threads across its users: the rows are the same whatever `jobs` is. Each metric comes with its
/// 95 % interval and its paired difference to the base rule set (``SweepSample``).
package struct Sweep: Sendable {
    /// The run every variant repeats, with its overrides (the base rule folder in `rules`).
    package var config: SimulationConfig
    package var plan: SweepPlan
    package var metrics: [Metric]
    /// Cohorts each variant runs (1: one cohort, its intervals from groups of its users).
    package var replicas: Int
    /// The cohort's personas, as loaded (their files are inputs of every variant).
    let personas: [Persona]
    /// Whether each variant's metrics are measured for each persona's users too (`--segments`).
    package var segments = false

    /// The most groups of users the intervals of one cohort are computed from (as `compare`).
    package static let maxGroups = PopulationComparison.maxGroups

    /// What a sweep reports without `--metric`: ``MetricRegistry/sweepDefaults``, then the team's
    /// own metrics (`metrics.lua`).
    package static func defaultMetrics(team: [TeamMetric] = []) -> [Metric] { MetricRegistry.sweepDefaults + team.map(\.metric) }

    /// The metrics a sweep can report: every metric with a whole-run value, the team's included.
    package static func sweepable(team: [TeamMetric] = []) -> [Metric] {
        MetricRegistry.all.filter { $0.summary != nil } + team.map(\.metric)
    }

    /// The metric whose label (as `compare` prints it) or id is `name` (the team's metrics
    /// `team` among them), or an error listing them.
    package static func metric(named name: String, team: [TeamMetric] = []) throws(SweepError) -> Metric {
        if let metric = MetricRegistry.metric(named: name), metric.summary != nil { return metric }
        if let metric = team.first(where: { $0.id == name || $0.label == name }) { return metric.metric }
        let all = sweepable(team: team)
        var message = "--metric \"\(name)\": no such metric"
        if let suggestion = Suggestion.closest(to: name, among: all.flatMap { [$0.label, $0.id] }) {
            message += "; did you mean '\(suggestion)'?"
        }
        let list = all.map { "\($0.label) (\($0.id))" }.joined(separator: ", ")
        throw SweepError(message + " (the metrics, by label or id: \(list))")
    }

    /// Checks the base rule set and the knobs: throws `RuleSetError` when the base is not valid,
    /// `InputFileError` for a bad persona, `SweepError` for a knob the base does not have or a bad
    /// number of replicas.
    package init(
        config: SimulationConfig, knobs: [SweepKnob], mode: SweepPlan.Mode, metrics: [Metric], replicas: Int = 1, segments: Bool = false
    ) throws {
        var metrics = metrics
        guard (1...ReplicaReport.maxReplicas).contains(replicas) else {
            throw SweepError("--replicas must be from 1 to \(ReplicaReport.maxReplicas), found \(replicas)")
        }
        var config = config
        config.database = nil
        config.overrides = []
        let simulation = try Simulation(config: config)
        personas = simulation.personas
        // The defaults of the apps the cohort uses; a metric asked for of an app it does not use is refused.
        let apps = Persona.apps(of: personas)
        if metrics.map(\.id) == Self.defaultMetrics(team: simulation.teamMetrics).map(\.id) {
            metrics = MetricRegistry.only(metrics, apps: apps, days: config.days)
        } else if let unused = metrics.first(where: { !apps.contains($0.app) }) {
            let used = Metric.App.used.filter(apps.contains).map(\.name).joined(separator: ", ")
            throw SweepError("--metric \"\(unused.label)\": a metric of \(unused.app.name), but the cohort's personas use \(used)")
        }
        let base = try RuleSet.load(config.rules, proving: false)
        self.plan = try SweepPlan(knobs: knobs, mode: mode, modules: base.modules)
        self.config = config
        self.metrics = metrics
        self.replicas = replicas
        self.segments = segments
    }

    /// The personas' names, in the mix's order.
    package var personaNames: [String] { personas.map(\.name) }

    /// Groups of users each cohort is reported in: with one replica, up to ``maxGroups``.
    package var groups: Int { replicas == 1 ? min(Self.maxGroups, config.users) : 1 }

    /// Whether the plan has the base rule set among its variants (else it is run first, on its own,
    /// for the differences).
    package var planHasBase: Bool { plan.variants.contains { !$0.moved.contains(true) } }

    /// Every replica's seed.
    package var seeds: [UInt64] { (1...replicas).map { ReplicaReport.seed(config.seed, replica: $0) } }

    func sample(_ overrides: [KnobOverride]) throws -> SweepSample {
        var config = self.config
        config.overrides = overrides
        return try SweepSample(Simulation(config: config), metrics: metrics, replicas: replicas, groups: groups, segments: segments)
    }

    /// The digest of what `variant` reads (`inputs_digest`, as a run's report has it): the rule
    /// files, the variant's overrides, the personas' files. The base's variant has the folder's.
    package func digest(_ variant: SweepPlan.Variant) -> String {
        var config = self.config
        config.overrides = variant.moved.contains(true) ? variant.overrides : []
        config.validated = nil
        return SimulationReport.inputsDigest(config, personas: personas)
    }

    /// Runs the base rule set, then every variant in the plan's order (the base's own variant is
    /// not run twice), but for those `finished` already has (by index in the plan: rows read back
    /// by `--resume`; the base is then run only when a variant needs it); `finished` is called
    /// after each variant with its row and the number of variants finished so far.
    package func run(reusing done: [Int: SweepRow] = [:], finished: (SweepRow, Int) throws -> Void = { _, _ in }) throws -> [SweepRow] {
        var baseSample: SweepSample?
        func base() throws -> SweepSample {
            if let baseSample { return baseSample }
            let sample = try self.sample([])
            baseSample = sample
            return sample
        }
        var rows: [SweepRow] = []
        for (index, variant) in plan.variants.enumerated() {
            let isBase = !variant.moved.contains(true)
            var row: SweepRow
            if let reused = done[index] {
                row = reused
            } else {
                do {
                    let sample = isBase ? try base() : try self.sample(variant.overrides)
                    row = SweepRow(
                        variant: variant,
                        outcome: .ran(
                            sample.estimates(metrics), differences: sample.differences(from: try base(), metrics), refused: sample.refused))
                    row.segments = sample.segmentRows(from: try base(), metrics)
                    row.digest = digest(variant)
                } catch let error as RuleSetError {
                    row = SweepRow(variant: variant, outcome: .refused(error.problems))
                }
            }
            rows.append(row)
            try finished(row, rows.count)
        }
        return rows
    }
}

/// One variant's result: its metrics, or the problems that kept it from running.
package struct SweepRow: Sendable {
    package enum Outcome: Sendable {
        /// The metrics' estimates and their paired differences to the base (in the sweep's order),
        /// and the events the engine refused (over every replica).
        case ran([Estimate], differences: [Estimate], refused: Int)
        /// The rule set the variant makes is not valid: what validation found.
        case refused([RuleProblem])
    }
    package var variant: SweepPlan.Variant
    package var outcome: Outcome
    /// The digest of the variant's inputs (``Sweep/digest(_:)``), when it ran.
    package var digest: String?
    /// Each persona's users alone, when it ran with `--segments` (else empty).
    package var segments: [Segment] = []

    /// One persona's metrics in a variant: each estimate and difference to the base, nil for a
    /// metric of an app its users do not use.
    package struct Segment: Sendable {
        package var persona: String
        /// Its users (in the first cohort).
        package var users: Int
        package var estimates: [Estimate?]
        package var differences: [Estimate?]
    }

    package init(variant: SweepPlan.Variant, outcome: Outcome, digest: String? = nil) {
        self.variant = variant
        self.outcome = outcome
        self.digest = digest
    }

    /// Whether the variant is the base rule set (every knob at the base's value).
    package var isBase: Bool { !variant.moved.contains(true) }

    /// Each metric's estimate, or nil when the variant did not run.
    package var estimates: [Estimate]? { if case .ran(let estimates, _, _) = outcome { estimates } else { nil } }
    /// Each metric's difference to the base, or nil when the variant did not run.
    package var differences: [Estimate]? { if case .ran(_, let differences, _) = outcome { differences } else { nil } }
    /// Each metric's value (the mean over the replicas), or nil when the variant did not run.
    package var values: [Double]? { estimates?.map(\.mean) }
}

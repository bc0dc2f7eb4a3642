import Foundation
import LuaHost
import RulesEngine

/// A knob sweep (`rulesrun sweep`): each variant of the plan validated as a rule set of its own
/// (a variant whose values break a constraint is refused, not run) and simulated in memory on the
/// same cohort (the same users, personas and seed as the base run), one after the other, each
/// with the run's worker threads across its users: the rows are the same whatever `jobs` is.
public struct Sweep: Sendable {
    /// The run every variant repeats, with its overrides (the base rule folder in `rules`).
    public var config: SimulationConfig
    public var plan: SweepPlan
    public var metrics: [SweepMetric]

    /// Checks the base rule set and the knobs: throws `RuleSetError` when the base is not valid,
    /// `PersonaError` for a bad persona, `SweepError` for a knob the base does not have.
    public init(config: SimulationConfig, knobs: [SweepKnob], mode: SweepPlan.Mode, metrics: [SweepMetric]) throws {
        var config = config
        config.database = nil
        config.overrides = []
        _ = try Simulation(config: config)
        let base = try RuleSet.load(config.rules, proving: false)
        self.plan = try SweepPlan(knobs: knobs, mode: mode, modules: base.modules)
        self.config = config
        self.metrics = metrics
    }

    /// Runs every variant in the plan's order; `finished` is called after each with its row and
    /// the number of variants finished so far.
    public func run(finished: (SweepRow, Int) throws -> Void = { _, _ in }) throws -> [SweepRow] {
        var rows: [SweepRow] = []
        for variant in plan.variants {
            var config = self.config
            config.overrides = variant.overrides
            let row: SweepRow
            do {
                let report = try Simulation(config: config).run()
                let summary = ReportSummary(report)
                row = SweepRow(variant: variant, outcome: .ran(metrics.map { $0.value(summary) }, refused: summary.refused))
            } catch let error as RuleSetError {
                row = SweepRow(variant: variant, outcome: .refused(error.problems))
            }
            rows.append(row)
            try finished(row, rows.count)
        }
        return rows
    }
}

/// One variant's result: its metrics, or the problems that kept it from running.
public struct SweepRow: Sendable {
    public enum Outcome: Sendable {
        /// The metrics' values, in the sweep's order, and the events the engine refused.
        case ran([Double], refused: Int)
        /// The rule set the variant makes is not valid: what validation found.
        case refused([RuleProblem])
    }
    public var variant: SweepPlan.Variant
    public var outcome: Outcome

    public var values: [Double]? { if case .ran(let values, _) = outcome { values } else { nil } }
}

import Foundation
import RulesEngine
import RulesSim
import Testing

/// CUPED calibrated end to end on simulated rollouts with a pre-period (docs/analyze.md,
/// "Calibration on simulated rollouts"): users simulated as `simulate --expose-after` runs them
/// (their first days under the control's rules, then their arm's on the same rows), their log split
/// into disjoint experiments and each analysed as `analyze` does, CUPED on each user's pre-period.
/// The truth is the difference of the two arms on a large cohort of another seed, paired: the
/// same users all in the treatment, then all in the control, each after the same pre-period.
/// The figures measured are printed (`swift test --filter CupedRolloutCalibrationTests`).
@Suite struct CupedRolloutCalibrationTests {
    /// Two kinds of Pressure users, half each: what a user did before its exposure tells which it
    /// is (the covariate CUPED takes out). The leaving response is on.
    static func persona(commit: Double, yes: Double, no: Double, reminders: [Double]) -> String {
        """
        return {
          description = "Pressure alone: commits on \(commit) of days, YES \(yes), NO \(no).",
          apps = { "pressure" },
          settings = { timezone = "Europe/Berlin", commitment_deadline = "09:00", checkin_window_close = "21:00" },
          commit = \(commit),
          answer = { yes = \(yes), no = \(no) },
          reminder_response = { \(reminders.map { "\($0)" }.joined(separator: ", ")) },
        }
        """
    }

    /// The days simulated, the first `exposeAfter` of them each user's pre-period.
    static let days = 10, exposeAfter = 5

    /// The metrics calibrated: ``RolloutCalibrationTests/metrics`` but day-7 retention, which has
    /// no covariate here (no user is followed 7 days before its exposure: CUPED leaves it as it is).
    static let metrics = ["YES rate", "user-days at tier 0", "user-days at tier 3", "reminders per user-day"]

    /// ``RolloutCalibrationTests/folder()`` (the treatment's rules in `lenient/`) with the two personas.
    static func folder() throws -> URL {
        let dir = try RolloutCalibrationTests.folder()
        try persona(commit: 0.92, yes: 0.75, no: 0.1, reminders: [0.6, 0.7, 0.8, 0.9])
            .write(to: dir.appendingPathComponent("diligent.lua"), atomically: true, encoding: .utf8)
        try persona(commit: 0.55, yes: 0.3, no: 0.3, reminders: [0.1, 0.15, 0.2, 0.25])
            .write(to: dir.appendingPathComponent("struggling.lua"), atomically: true, encoding: .utf8)
        return dir
    }

    /// The cohort of `users`, exposed after ``exposeAfter`` days.
    static func config(_ dir: URL, users: Int, seed: UInt64) throws -> SimulationConfig {
        var config = SimulationConfig(
            duration: try SimulationDuration("\(days)d"), users: users, seed: seed,
            mix: try PersonaMix(["diligent", "struggling"].map { dir.appendingPathComponent("\($0).lua").path }),
            personaFolders: [dir.path], rules: SimTestSupport.rules, jobs: 2, database: nil)
        config.exposeAfter = exposeAfter
        return config
    }

    /// The truth per metric: the treatment's value less the control's on the same `users` (seed
    /// `seed`), all in one arm after their pre-period, then all in the other, with its standard
    /// error (batch means over 20 groups of users).
    static func truth(
        _ dir: URL, control: String, treatment: String, users: Int, seed: UInt64
    ) throws
        -> [String: (difference: Double, standardError: Double)]
    {
        func run(treated: Bool) throws -> (report: SimulationReport, groups: [SimulationReport]) {
            let shares = [("control", treated ? 0 : 10_000), ("treatment", treated ? 10_000 : 0)]
            let experiment = try BundleExperiment.allocate(
                name: "escalation-2026", salt: "escalation-2026", shares: shares, previous: nil)
            var config = try config(dir, users: users, seed: seed)
            config.rollout = Rollout(experiment: experiment, revision: 1, bundle: "truth.bundle", folders: [control, treatment])
            return try Simulation(config: config).run(seed: seed, groups: 20)
        }
        let (a, b) = (try run(treated: false), try run(treated: true))
        func value(_ metric: Metric, _ report: SimulationReport, arm: Int) -> Double {
            metric.value(ReportSummary(report.report(of: report.arms[arm])))
        }
        var truth: [String: (Double, Double)] = [:]
        for label in metrics {
            let metric = try #require(MetricRegistry.metric(named: label), "\(label)")
            let groups = zip(a.groups, b.groups).map { value(metric, $1, arm: 1) - value(metric, $0, arm: 0) }
            let mean = groups.reduce(0, +) / Double(groups.count)
            let sd = (groups.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(groups.count - 1)).squareRoot()
            let difference = value(metric, b.report, arm: 1) - value(metric, a.report, arm: 0)
            truth[label] = (difference, sd / Double(groups.count).squareRoot())
        }
        return truth
    }

    /// Over 400 experiments of about 50 users an arm: the CUPED-adjusted 95 % intervals of the main
    /// metrics cover the true difference in 93 to 97 % of them; they are never wider than the
    /// unadjusted ones on average, and narrower where the pre-period predicts the metric; and the
    /// mean adjusted difference is within two standard errors (its own and the truth's) of the truth.
    @Test func cupedNarrowsTheIntervalsAndTheyStillCoverTheTruth() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lenient = dir.appendingPathComponent("lenient").path
        let truth = try Self.truth(
            dir, control: SimTestSupport.rules, treatment: lenient, users: RolloutCalibrationTests.truthUsers, seed: 1_000_003)
        let rollout = try RolloutCalibrationTests.rollout(control: SimTestSupport.rules, treatment: lenient)
        let (log, validated) = try RolloutCalibrationTests.simulatedLog(
            rollout,
            config: Self.config(dir, users: RolloutCalibrationTests.experimentCount * RolloutCalibrationTests.usersPerExperiment, seed: 3))
        let adjusted = try RolloutCalibrationTests.experiments(log, validated, count: RolloutCalibrationTests.experimentCount)
        let unadjusted = adjusted.map { AnalysisReport($0.analysis, source: $0.source, cuped: false) }
        for metric in Self.metrics {
            let t = try #require(truth[metric], "\(metric): \(truth.keys)")
            let tally = RolloutCalibrationTests.Tally.over(
                adjusted, metric: metric, truth: t.difference, truthError: t.standardError)
            let narrowing = Narrowing.over(adjusted, unadjusted, metric: metric, truth: t)
            print("CUPED: \(tally); \(narrowing)")
            #expect(tally.compared == RolloutCalibrationTests.experimentCount, "\(tally)")
            #expect(tally.coverage >= 0.93 && tally.coverage <= 0.97, "\(tally)")
            // No bias: the mean estimate within two of its standard errors (and the truth's) of the truth.
            #expect(abs(narrowing.bias) <= 2 * narrowing.biasError, "\(metric): \(narrowing)")
            // Never wider on average; narrower where the pre-period tells the users apart (reminders
            // per user-day hardly depend on which kind a user is: the struggling commit less often
            // but answer fewer reminders).
            #expect(narrowing.adjustedShare == 1 && narrowing.widthRatio < 1, "\(metric): \(narrowing)")
            if metric != "reminders per user-day" { #expect(narrowing.widthRatio < 0.85, "\(metric): \(narrowing)") }
        }
    }

    /// A/A on a log with a pre-period: both arms the control's rules, CUPED on each user's days
    /// before its exposure. As ``RolloutCalibrationTests/anAAExperimentIsRarelySignificant()``: at
    /// most 6 % of the (metric, experiment) pairs significant, at most 35 of one metric's 400 (the
    /// 99.9 % quantile of Binomial(400, 0.05)); and the adjustment moves no mean: the mean adjusted
    /// difference within two standard errors of 0.
    @Test func anAAExperimentAdjustedByItsPreperiodIsRarelySignificant() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rollout = try RolloutCalibrationTests.rollout(control: SimTestSupport.rules, treatment: SimTestSupport.rules)
        let (log, validated) = try RolloutCalibrationTests.simulatedLog(
            rollout,
            config: Self.config(dir, users: RolloutCalibrationTests.experimentCount * RolloutCalibrationTests.usersPerExperiment, seed: 4))
        let adjusted = try RolloutCalibrationTests.experiments(log, validated, count: RolloutCalibrationTests.experimentCount)
        let unadjusted = adjusted.map { AnalysisReport($0.analysis, source: $0.source, cuped: false) }
        var significant = 0, compared = 0
        for metric in Self.metrics {
            let tally = RolloutCalibrationTests.Tally.over(adjusted, metric: metric, truth: 0, truthError: 0)
            let narrowing = Narrowing.over(adjusted, unadjusted, metric: metric, truth: (0, 0))
            print("CUPED A/A: \(tally); \(narrowing)")
            #expect(tally.compared == RolloutCalibrationTests.experimentCount, "\(tally)")
            #expect(tally.significant <= 35, "\(tally)")
            #expect(abs(narrowing.bias) <= 2 * narrowing.biasError, "\(metric): \(narrowing)")
            (significant, compared) = (significant + tally.significant, compared + tally.compared)
        }
        #expect(Double(significant) <= 0.06 * Double(compared), "\(significant) of \(compared) significant")
    }

    /// Per metric, the adjusted intervals against the unadjusted ones of the same experiments.
    struct Narrowing: CustomStringConvertible {
        /// The experiments adjusted (with a pre-period covariate that varies) among those compared.
        var adjustedShare = 0.0
        /// The mean of each experiment's adjusted width over its unadjusted width, and of the variance reduction.
        var widthRatio = 0.0
        var reduction = 0.0
        /// The adjusted differences' mean less the truth, and its standard error: their standard
        /// deviation over the experiments' root, combined with the truth's.
        var bias = 0.0
        var biasError = 0.0
        /// The unadjusted intervals' coverage and mean difference less the truth, for comparison.
        var unadjustedCoverage = 0.0
        var unadjustedBias = 0.0

        static func over(
            _ adjusted: [AnalysisReport], _ unadjusted: [AnalysisReport], metric: String,
            truth t: (difference: Double, standardError: Double)
        ) -> Narrowing {
            let truth = t.difference
            func comparison(_ report: AnalysisReport) -> ArmComparison? {
                report.rows.first { $0.metric.label == metric }?.comparisons.first ?? nil
            }
            var n = 0, adjustedCount = 0, covered = 0
            var ratios = 0.0, reductions = 0.0, differences: [Double] = [], unadjustedSum = 0.0
            for (a, u) in zip(adjusted, unadjusted) {
                guard let a = comparison(a), let u = comparison(u) else { continue }
                n += 1
                if a.cuped != nil { adjustedCount += 1 }
                let width = u.difference.high - u.difference.low
                ratios += width > 0 ? (a.difference.high - a.difference.low) / width : 1
                reductions += a.cuped?.varianceReduction ?? 0
                differences.append(a.difference.point)
                if u.difference.low <= truth, truth <= u.difference.high { covered += 1 }
                unadjustedSum += u.difference.point
            }
            guard n > 1 else { return Narrowing() }
            let mean = differences.reduce(0, +) / Double(n)
            let variance = differences.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)
            return Narrowing(
                adjustedShare: Double(adjustedCount) / Double(n), widthRatio: ratios / Double(n),
                reduction: reductions / Double(n), bias: mean - truth,
                biasError: (variance / Double(n) + t.standardError * t.standardError).squareRoot(),
                unadjustedCoverage: Double(covered) / Double(n), unadjustedBias: unadjustedSum / Double(n) - truth)
        }

        var description: String {
            String(
                format: "adjusted in %.0f %%, width ratio %.3f, variance reduction %.1f %%, bias %+.5f (%.2f se, the truth's "
                    + "included); unadjusted: coverage %.1f %%, bias %+.5f",
                adjustedShare * 100, widthRatio, reduction * 100, bias, biasError > 0 ? bias / biasError : 0,
                unadjustedCoverage * 100, unadjustedBias)
        }
    }
}

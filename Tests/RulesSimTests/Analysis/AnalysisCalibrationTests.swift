import Foundation
import RulesSim
import Testing

/// The intervals of `ArmComparison` on synthetic experiments with a known truth, drawn from seeds:
/// how often they cover it, how often an A/A test is significant, what CUPED gains, and how a
/// sequential interval looked at every day keeps its coverage where the fixed one does not.
/// (docs/analyze.md, "Statistics", gives the figures these tests measured.)
@Suite struct AnalysisCalibrationTests {
    /// A synthetic metric: how a user's values are drawn, and the truth of the comparison.
    struct Metric: Sendable {
        /// Draws one user's (y, x, cy, cx) in an arm whose effect multiplies the rate by `factor`.
        var user: @Sendable (inout SyntheticDraws, Double) -> (Double, Double, Double, Double)
        /// The control's true value (treatment's: times 1 + lift).
        var truth: Double

        /// Credits spent per user: Poisson counts around a log-normal propensity (mean e, skewed).
        static let credits = Metric(
            user: { draws, factor in
                let rate = min(500, draws.logNormal(mu: 0.5, sigma: 1))
                return (Double(draws.poisson(rate * factor)), 1, 0, 0)
            }, truth: exp(1.0))

        /// Reminders per user-day: 1 + Poisson(5) user-days, each user's rate log-normal (mean e^−0.875).
        static let remindersPerDay = Metric(
            user: { draws, factor in
                let days = Double(1 + draws.poisson(5))
                let rate = draws.logNormal(mu: -1, sigma: 0.5)
                return (Double(draws.poisson(days * rate * factor)), days, 0, 0)
            }, truth: exp(-0.875))

        /// Check-ins per user-day with a pre-period: the user's propensity drives both periods; one
        /// user in five is new (no pre-period: (0, 0)).
        static let withPrePeriod = Metric(
            user: { draws, factor in
                let propensity = draws.logNormal(mu: 0, sigma: 0.8)
                let isNew = draws.unit() < 0.2
                let pre = isNew ? 0 : Double(draws.poisson(7 * propensity))
                let days = Double(1 + draws.poisson(6))
                return (Double(draws.poisson(days * propensity * factor)), days, pre, isNew ? 0 : 7)
            }, truth: exp(0.32))

        /// One experiment: `users` in each arm, the treatment's rate times 1 + lift.
        func experiment(seed: UInt64, users: Int, lift: Double) -> (control: MetricMoments, treatment: MetricMoments) {
            var draws = SyntheticDraws(seed: seed)
            var a = MetricMoments(), b = MetricMoments()
            for _ in 0..<users {
                let u = user(&draws, 1)
                a.add(y: u.0, x: u.1, cy: u.2, cx: u.3)
                let v = user(&draws, 1 + lift)
                b.add(y: v.0, x: v.1, cy: v.2, cx: v.3)
            }
            return (a, b)
        }
    }

    /// The share of `experiments` whose interval covers the truth, for the difference and the lift.
    static func coverage(_ metric: Metric, lift: Double, experiments: Int, users: Int, seed: UInt64) throws -> (Double, Double) {
        var difference = 0, relative = 0
        for e in 0..<experiments {
            let (a, b) = metric.experiment(seed: seed &+ UInt64(e), users: users, lift: lift)
            let c = try ArmComparison.compare(control: a, treatment: b)
            if c.difference.low <= metric.truth * lift, metric.truth * lift <= c.difference.high { difference += 1 }
            let l = try #require(c.relativeLift)
            if l.low <= lift, lift <= l.high { relative += 1 }
        }
        return (Double(difference) / Double(experiments), Double(relative) / Double(experiments))
    }

    /// 1,000 experiments of 300 users an arm, +10 %: the 95 % intervals cover the truth 93 to 97 % of
    /// the time, for a skewed per-user mean (Welch) and a ratio (delta method).
    @Test(arguments: [("credits", Metric.credits), ("reminders per user-day", Metric.remindersPerDay)])
    func theIntervalsCoverTheTruth(name: String, metric: Metric) throws {
        let (difference, lift) = try Self.coverage(metric, lift: 0.1, experiments: 1_000, users: 300, seed: 1_000)
        #expect(difference >= 0.93 && difference <= 0.97, "\(name): the difference's interval covers \(difference)")
        #expect(lift >= 0.93 && lift <= 0.97, "\(name): the relative lift's interval covers \(lift)")
    }

    /// A/A: 1,000 experiments without effect are significant at most 6 % of the time.
    @Test(arguments: [("credits", Metric.credits), ("reminders per user-day", Metric.remindersPerDay)])
    func anAATestIsRarelySignificant(name: String, metric: Metric) throws {
        let (difference, _) = try Self.coverage(metric, lift: 0, experiments: 1_000, users: 300, seed: 50_000)
        #expect(1 - difference <= 0.06, "\(name): \(1 - difference) of A/A tests significant")
    }

    /// CUPED on 1,000 experiments of a metric whose pre-period is correlated with it (one user in five
    /// without one): narrower intervals (about a third, a variance reduction near 58 %), the mean of
    /// the adjusted differences within two standard errors of the truth, and still covering it.
    @Test func cupedNarrowsTheIntervalWithoutBias() throws {
        let metric = Metric.withPrePeriod, lift = 0.1, experiments = 1_000
        var adjusted: [Double] = [], widthRatio = 0.0, covered = 0, reduction = 0.0
        for e in 0..<experiments {
            let (a, b) = metric.experiment(seed: 90_000 + UInt64(e), users: 300, lift: lift)
            let plain = try ArmComparison.compare(control: a, treatment: b)
            let c = try ArmComparison.compare(control: a, treatment: b, cuped: true)
            let cuped = try #require(c.cuped)
            reduction += cuped.varianceReduction / Double(experiments)
            adjusted.append(c.difference.point)
            let width = c.difference.high - c.difference.low, plainWidth = plain.difference.high - plain.difference.low
            widthRatio += width / plainWidth / Double(experiments)
            if c.difference.low <= metric.truth * lift, metric.truth * lift <= c.difference.high { covered += 1 }
        }
        let mean = adjusted.reduce(0, +) / Double(experiments)
        let sd = (adjusted.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(experiments - 1)).squareRoot()
        let coverage = Double(covered) / Double(experiments)
        #expect(widthRatio < 0.85, "the adjusted interval is \(widthRatio) of the unadjusted's width on average")
        #expect(reduction > 0.25, "variance reduction \(reduction)")
        let standardError = sd / Double(experiments).squareRoot()
        #expect(
            abs(mean - metric.truth * lift) <= 2 * standardError,
            "mean adjusted difference \(mean), truth \(metric.truth * lift), standard error \(standardError)")
        #expect(coverage >= 0.93 && coverage <= 0.97, "the adjusted interval covers \(coverage)")
    }

    /// 30 looks at each of 500 experiments (40 users an arm each day, tuning = the last look's 2,400
    /// users): the 95 % confidence sequence ever leaves the truth out at most 5 % (+ noise) of the
    /// experiments, and is wider than the fixed interval at every look; the fixed interval, looked at
    /// as often, leaves it out far more often.
    @Test func theSequentialIntervalSurvivesDailyLooks() throws {
        let metric = Metric.credits, lift = 0.1, truth = Metric.credits.truth * 0.1
        let experiments = 500, looks = 30, daily = 40
        var sequentialMissed = 0, fixedMissed = 0, narrower = 0
        for e in 0..<experiments {
            var draws = SyntheticDraws(seed: 200_000 + UInt64(e))
            var a = MetricMoments(), b = MetricMoments()
            var sequentialMiss = false, fixedMiss = false
            for _ in 0..<looks {
                for _ in 0..<daily {
                    let u = metric.user(&draws, 1)
                    a.add(y: u.0, x: u.1)
                    let v = metric.user(&draws, 1 + lift)
                    b.add(y: v.0, x: v.1)
                }
                let s = try ArmComparison.compare(control: a, treatment: b, sequential: Double(2 * looks * daily)).difference
                let f = try ArmComparison.compare(control: a, treatment: b).difference
                if truth < s.low || truth > s.high { sequentialMiss = true }
                if truth < f.low || truth > f.high { fixedMiss = true }
                if s.high - s.low <= f.high - f.low { narrower += 1 }
            }
            if sequentialMiss { sequentialMissed += 1 }
            if fixedMiss { fixedMissed += 1 }
        }
        let sequential = Double(sequentialMissed) / Double(experiments), fixed = Double(fixedMissed) / Double(experiments)
        #expect(sequential <= 0.065, "the sequence ever left the truth out in \(sequential) of the experiments")
        #expect(fixed >= 0.10, "the fixed interval, looked at daily, ever left the truth out in \(fixed)")
        #expect(narrower == 0, "\(narrower) looks where the sequence was not wider than the fixed interval")
    }
}

import Foundation
import RulesEngine
import RulesSim
import Testing

/// `analyze` calibrated end to end on simulated rollouts (docs/analyze.md, "Calibration on
/// simulated rollouts"). One rollout of many users is simulated with its events logged as
/// `simulate --events` writes them, and split by user into disjoint experiments (the users
/// `analyze --shard e/n` takes), each analysed as `analyze` does (replayed through its arm's
/// rules, counted into days, compared). The truth is the difference of the two rule sets on a
/// large cohort of another seed, each set alone on the same users (`compare`'s population half:
/// paired, so its own error is small beside an experiment's), stated with its standard error.
/// The figures measured are printed (`swift test --filter RolloutCalibrationTests`).
@Suite struct RolloutCalibrationTests {
    /// A Pressure user who commits most days and answers YES about half the time; nothing else (few
    /// events per user-day), and the leaving response on (day-7 retention varies).
    static let persona = """
        return {
          description = "Commits most days; YES about half the time; Pressure alone.",
          apps = { "pressure" },
          settings = { timezone = "Europe/Berlin", commitment_deadline = "09:00", checkin_window_close = "21:00" },
          commit = 0.8,
          answer = { yes = 0.5, no = 0.2 },
          reminder_response = { 0.3, 0.4, 0.5, 0.6 },
        }
        """

    /// The metrics calibrated, by label, and the days simulated (day-7 retention needs 7).
    static let metrics = ["YES rate", "user-days at tier 0", "user-days at tier 3", "reminders per user-day", "retained on day 7"]
    static let days = 7

    /// A folder with the persona (`p.lua`) and `lenient/`: the repository's rules escalating from
    /// the second miss on (the treatment).
    static func folder() throws -> URL {
        let dir = try SimTestSupport.temporaryFolder()
        try persona.write(to: dir.appendingPathComponent("p.lua"), atomically: true, encoding: .utf8)
        let lenient = dir.appendingPathComponent("lenient")
        try FileManager.default.createDirectory(at: lenient, withIntermediateDirectories: true)
        try (SimTestSupport.rules + "\n").write(to: lenient.appendingPathComponent("extends"), atomically: true, encoding: .utf8)
        try "local M = base\nM.tier_for_misses = { 2, 3, 4 }\nreturn M\n"
            .write(to: lenient.appendingPathComponent("escalation.lua"), atomically: true, encoding: .utf8)
        return dir
    }

    /// Experiment `escalation-2026` with the control's and the treatment's rules, 50 / 50.
    static func rollout(control: String, treatment: String) throws -> Rollout {
        let experiment = try BundleExperiment.allocate(
            name: "escalation-2026", salt: "escalation-2026", shares: [("control", 5000), ("treatment", 5000)], previous: nil)
        return Rollout(experiment: experiment, revision: 1, bundle: "calibration.bundle", folders: [control, treatment])
    }

    /// The persona's cohort of `users` for ``days`` days.
    static func config(_ dir: URL, users: Int, seed: UInt64) throws -> SimulationConfig {
        SimulationConfig(
            duration: try SimulationDuration("\(days)d"), users: users, seed: seed,
            mix: try PersonaMix([dir.appendingPathComponent("p.lua").path]), personaFolders: [dir.path],
            rules: SimTestSupport.rules,
            jobs: 2, database: nil)
    }

    /// The rollout simulated, its events read as `analyze` reads the log `simulate --events` writes,
    /// with the rollout as the simulation validated it. `keep` may leave a line out.
    static func simulatedLog(
        _ rollout: Rollout, _ dir: URL, users: Int, seed: UInt64, keep: @escaping (String) -> Bool = { _ in true }
    ) throws -> (log: EventLog, rollout: Rollout) {
        try simulatedLog(rollout, config: config(dir, users: users, seed: seed), keep: keep)
    }

    /// The same for a cohort of `config`.
    static func simulatedLog(
        _ rollout: Rollout, config: SimulationConfig, keep: @escaping (String) -> Bool = { _ in true }
    ) throws -> (log: EventLog, rollout: Rollout) {
        var config = config
        config.rollout = rollout
        config.recordsEvents = true
        let simulation = try Simulation(config: config)
        var log = EventLog()
        var number = 0
        _ = try simulation.run(events: { chunk in
            for line in chunk.split(separator: "\n") {
                number += 1
                if keep(String(line)) { try log.add(line: Array(line.utf8), number: number) }
            }
        })
        return (log, simulation.config.rollout!)
    }

    /// The log's users split into `count` experiments of disjoint users (by their order in the
    /// log), each analysed and compared as `analyze` does.
    static func experiments(_ log: EventLog, _ rollout: Rollout, count: Int) throws -> [AnalysisReport] {
        let groups = Dictionary(grouping: log.users.indices) { $0 % count }
        return try (0..<count).map { e in
            let part = log.part(users: Set(groups[e, default: []].map { log.users[$0] }))
            return AnalysisReport(try RolloutAnalysis(log: part, rollout: rollout, jobs: 2), source: "experiment \(e + 1)")
        }
    }

    /// The truth per metric: B − A of each rule set alone on the same `users` (seed `seed`), with
    /// its standard error (batch means over groups of users, as `compare` computes it).
    static func truth(_ dir: URL, control: String, treatment: String, users: Int, seed: UInt64) throws
        -> [String: (difference: Double, standardError: Double)]
    {
        let comparison = try PopulationComparison.run(
            folderA: control, folderB: treatment, users: users, days: days, seed: seed,
            mix: try PersonaMix([dir.appendingPathComponent("p.lua").path]), personaFolders: [dir.path])
        var truth: [String: (Double, Double)] = [:]
        for metric in comparison.metrics where metrics.contains(metric.name) {
            let interval = try #require(metric.interval, "\(metric.name)")
            truth[metric.name] = (metric.delta, interval.halfWidth / Estimate.tQuantile975(degreesOfFreedom: interval.n - 1))
        }
        return truth
    }

    /// The experiments of the coverage and A/A tests, the users of each, and the truth's cohort.
    static let experimentCount = 400, usersPerExperiment = 100, truthUsers = 20_000

    /// The 95 % intervals of the main metrics cover the true difference in 93 to 97 % of 400
    /// experiments of about 50 users an arm.
    @Test func theIntervalsCoverTheTrueDifference() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lenient = dir.appendingPathComponent("lenient").path
        let truth = try Self.truth(
            dir, control: SimTestSupport.rules, treatment: lenient, users: Self.truthUsers, seed: 1_000_001)
        let rollout = try Self.rollout(control: SimTestSupport.rules, treatment: lenient)
        let (log, validated) = try Self.simulatedLog(rollout, dir, users: Self.experimentCount * Self.usersPerExperiment, seed: 1)
        let reports = try Self.experiments(log, validated, count: Self.experimentCount)
        for metric in Self.metrics {
            let t = try #require(truth[metric], "\(metric): \(truth.keys)")
            let tally = Tally.over(reports, metric: metric, truth: t.difference, truthError: t.standardError)
            print("coverage: \(tally)")
            #expect(tally.compared == Self.experimentCount, "\(tally)")
            #expect(tally.coverage >= 0.93 && tally.coverage <= 0.97, "\(tally)")
        }
    }

    /// A/A: both arms the control's rules; at most 6 % of the (metric, experiment) pairs significant,
    /// and on each metric at most 35 of 400 experiments, the 99.9 % quantile of Binomial(400, 0.05)
    /// (`scipy.stats.binom.ppf(0.999, 400, 0.05)` = 35): a test at the 5 % level passes 999 times in
    /// 1,000 (6 % of one metric's 400, 24, a correct test exceeds 15 % of the time:
    /// `binom.sf(24, 400, 0.05)` = 0.151).
    @Test func anAAExperimentIsRarelySignificant() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rollout = try Self.rollout(control: SimTestSupport.rules, treatment: SimTestSupport.rules)
        let (log, validated) = try Self.simulatedLog(rollout, dir, users: Self.experimentCount * Self.usersPerExperiment, seed: 2)
        let reports = try Self.experiments(log, validated, count: Self.experimentCount)
        var significant = 0, compared = 0
        for metric in Self.metrics {
            let tally = Tally.over(reports, metric: metric, truth: 0, truthError: 0)
            print("A/A: \(tally)")
            #expect(tally.compared == Self.experimentCount, "\(tally)")
            #expect(tally.significant <= 35, "\(tally)")
            (significant, compared) = (significant + tally.significant, compared + tally.compared)
        }
        #expect(Double(significant) <= 0.06 * Double(compared), "\(significant) of \(compared) significant")
    }

    /// The split into experiments (``EventLog/part(users:)``) loses nothing: the parts of a small
    /// simulated rollout, each analysed alone, add up to the whole log analysed at once (users,
    /// events, every metric's sufficient statistics in each arm). The fast check of the slow tests'
    /// machinery.
    @Test func theExperimentsOfARolloutAddUpToTheWhole() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rollout = try Self.rollout(control: SimTestSupport.rules, treatment: dir.appendingPathComponent("lenient").path)
        let (log, validated) = try Self.simulatedLog(rollout, dir, users: 60, seed: 5)
        let whole = try RolloutAnalysis(log: log, rollout: validated, jobs: 2)
        let parts = try Self.experiments(log, validated, count: 3).map(\.analysis)
        #expect(whole.users.allSatisfy { $0 > 10 } && whole.users.reduce(0, +) == 60, "\(whole.users)")
        #expect(parts.allSatisfy { $0.users.reduce(0, +) == 20 })
        #expect(parts.reduce([0, 0]) { sum, part in zip(sum, part.users).map { $0 + $1 } } == whole.users)
        #expect(parts.reduce(0) { $0 + $1.events } == whole.events)
        for (m, metric) in whole.moments.enumerated() {
            for arm in 0..<2 {
                let sum = parts.reduce(MetricMoments()) { $0 + $1.moments[m].arms[arm] }
                #expect(sum == metric.arms[arm], "\(metric.metric.label), arm \(arm)")
            }
        }
        // A part: its users' events and lines alone, in the log's order, the latest of theirs as its end.
        let (a, b) = (log.users[4], log.users[1])
        let part = log.part(users: [a, b])
        #expect(part.users == [b, a] && part.events[a] == log.events[a] && part.lines[b] == log.lines[b])
        #expect(part.end == max(log.events[a]!.last!.at.millis, log.events[b]!.last!.at.millis))
        #expect(part.eventCount == log.events[a]!.count + log.events[b]!.count && part.problems.isEmpty)
    }

    /// 10,000 users of a 50 / 50 rollout logged 50 : 45 (one exposure in ten of the treatment's
    /// lost on the way to the log: those users are left out as unexposed) are flagged by the
    /// sample-ratio check.
    @Test func aRolloutLoggedFiftyToFortyFiveIsFlagged() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rollout = try Self.rollout(control: SimTestSupport.rules, treatment: dir.appendingPathComponent("lenient").path)
        var exposures = 0
        let (lossy, validated) = try Self.simulatedLog(rollout, dir, users: 10_000, seed: 3) { line in
            guard line.contains("\"type\":\"exposure\""), line.contains("\"arm\":\"treatment\"") else { return true }
            exposures += 1
            return exposures % 10 != 0
        }
        let report = AnalysisReport(try RolloutAnalysis(log: lossy, rollout: validated, days: 1, jobs: 2), source: "lossy")
        let srm = try #require(report.srm)
        print("sample ratio, logged 50 : 45: users \(report.analysis.users), χ² = \(srm.chiSquare), p = \(srm.pValue)")
        #expect(srm.flagged && report.untrustworthy, "\(report.analysis.users), p = \(srm.pValue)")
        #expect(report.analysis.problems.counts[.noExposure] == exposures / 10 && exposures > 4_000)
        #expect(report.analysis.users.reduce(0, +) + exposures / 10 == 10_000)
    }

    /// The assignment itself (``BundleExperiment/armIndex(of:)``, as the apps and `simulate` assign):
    /// 10,000 random user names under 1,000 salts at 50 / 50; the check flags at most 0.3 %.
    @Test func aFairAssignmentIsRarelyFlagged() throws {
        var draws = SyntheticDraws(seed: 77)
        let names = (0..<10_000).map { _ in "user-" + String(UInt64(draws.unit() * 0x1p52), radix: 36) }
        var flagged = 0
        for s in 0..<1_000 {
            let experiment = try BundleExperiment.allocate(
                name: "srm", salt: "salt-\(s)", shares: [("control", 5000), ("treatment", 5000)], previous: nil)
            let treatment = names.reduce(0) { $0 + experiment.armIndex(of: $1) }
            let check = try SampleRatioCheck(counts: [10_000 - treatment, treatment], expectedBasisPoints: [5000, 5000])
            if check.flagged { flagged += 1 }
        }
        print("sample ratio, fair assignment: \(flagged) of 1,000 salts flagged")
        #expect(flagged <= 3, "\(flagged) of 1,000 flagged")
    }

    /// Per metric, over the experiments: those with an interval, those whose interval covers
    /// `truth` (0 for A/A), those significant, and the mean estimate, standard error and users an arm.
    struct Tally: CustomStringConvertible {
        var metric: String
        var truth: Double
        var truthError: Double
        var compared = 0, covered = 0, significant = 0
        var estimates = 0.0, errors = 0.0, users = 0.0

        var coverage: Double { Double(covered) / Double(compared) }
        var significantShare: Double { Double(significant) / Double(compared) }

        static func over(_ reports: [AnalysisReport], metric: String, truth: Double, truthError: Double) -> Tally {
            var tally = Tally(metric: metric, truth: truth, truthError: truthError)
            for report in reports {
                guard let row = report.rows.first(where: { $0.metric.label == metric }), let c = row.comparisons.first ?? nil
                else { continue }
                tally.compared += 1
                if c.difference.low <= truth, truth <= c.difference.high { tally.covered += 1 }
                if c.difference.isSignificant { tally.significant += 1 }
                tally.estimates += c.difference.point
                tally.errors += c.difference.standardError
                tally.users += Double(c.control.n + c.treatment.n) / 2
            }
            return tally
        }

        var description: String {
            let n = Double(compared)
            return String(
                format: "%@: %d experiments (%.0f users an arm), covered %.1f %%, significant %.1f %%; "
                    + "truth %+.5f (se %.5f), mean estimate %+.5f (mean se %.5f)",
                metric, compared, users / n, coverage * 100, significantShare * 100, truth, truthError, estimates / n, errors / n)
        }
    }
}

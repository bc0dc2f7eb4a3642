import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// What a rollout did, from the apps' event log (`rulesrun analyze`): each user exposed to an arm
/// of the bundle's experiment is replayed through that arm's rules (``LogUserTally``), and every
/// metric of the registry that is a ratio of sums over the users (``Metric/Ratio``) gets, per arm,
/// the sufficient statistics of its users' parts (``MetricMoments``), after their exposure and,
/// for CUPED, before it. Users are replayed in parallel (`jobs` threads, each with its own Lua
/// states); the result is the same whatever their number.
package struct RolloutAnalysis: Sendable {
    /// The experiment analysed, as the bundle's manifest has it.
    package var experiment: Experiment
    /// The users this analysis covers (`analyze --shard i/n`: those ``Shard/holds(user:)`` gives it).
    package var shard = Shard.whole

    /// An experiment's names and allocation (what a report needs of a ``Rollout``).
    package struct Experiment: Sendable, Equatable {
        package var name: String
        package var revision: Int
        /// The bundle as the user named it.
        package var bundle: String
        /// The arms in order (the control first), each with its share in basis points.
        package var arms: [(name: String, basisPoints: Int)]

        package init(name: String, revision: Int, bundle: String, arms: [(name: String, basisPoints: Int)]) {
            (self.name, self.revision, self.bundle, self.arms) = (name, revision, bundle, arms)
        }

        package init(_ rollout: Rollout) {
            self.init(
                name: rollout.experiment.name, revision: rollout.revision, bundle: rollout.bundle,
                arms: rollout.experiment.arms.map { ($0.name, $0.basisPoints) })
        }

        package static func == (a: Self, b: Self) -> Bool {
            (a.name, a.revision, a.bundle) == (b.name, b.revision, b.bundle) && a.arms.map(\.name) == b.arms.map(\.name)
                && a.arms.map(\.basisPoints) == b.arms.map(\.basisPoints)
        }

        package var armNames: [String] { arms.map(\.name) }
    }
    /// The most days after each user's exposure counted (nil: every whole day the log has).
    package var days: Int?
    /// Users per arm, in the experiment's order.
    package var users: [Int]
    /// The team's metrics (`metrics.lua`), in the file's order.
    package var team: [TeamMetric] = []
    /// The breakdown by segment (`--segments`): by dimension in the file's order, then by value.
    package var segments: [Segment] = []
    /// The dimensions of the segments file, and the users in an arm that it has no row for.
    package var dimensions: [String] = []
    package var unsegmented = 0

    /// One segment's users and statistics per arm.
    package struct Segment: Sendable {
        package var dimension: String
        package var value: String
        /// Users per arm.
        package var users: [Int]
        /// Per metric (the order of `moments`), per arm.
        package var moments: [[MetricMoments]]
        /// Per percentile (the order of `quantiles`), per arm, the histogram of the users' values.
        package var histograms: [[[Int]]]
    }
    /// Each metric's statistics per arm (the metrics with a ratio, in the registry's order).
    package var moments: [(metric: Metric, arms: [MetricMoments])]
    /// Each percentile of one value per user, per arm: the histogram of its users' values.
    package var quantiles: [(metric: Metric, arms: [[Int]])]
    /// Each arm's users' days after their exposure, summed day by day (for the metrics without a
    /// ratio: percentiles, maximums).
    package var armDays: [[DayTotals]]
    /// The apps the analysed users use (a metric of another app is not listed).
    package var apps: Set<Metric.App>
    /// What the log could not give, counted.
    package var problems: EventLog.Problems
    /// Events a rule failed on, per arm.
    package var failures: [RuleFailures]
    /// Events read.
    package var events: Int
    /// The most days counted for a user.
    package static let maxDays = LogUserTally.maxDays

    /// Replays `log`'s users under `rollout` (its arms validated: `Rollout.validated`, else loaded
    /// from their folders).
    /// `metrics`: the team's, counted per user as `simulate` counts them; `segments`: the users'
    /// segments, each broken down apart.
    package init(
        log: EventLog, rollout: Rollout, days: Int? = nil, seed: UInt64 = 1, jobs: Int = 1, shard: Shard = .whole,
        metrics: TeamMetrics.Source? = nil, segments: UserSegments? = nil
    ) throws {
        var input = log
        try self.init(
            input: &input, rollout: rollout, days: days, seed: seed, jobs: jobs, shard: shard, metrics: metrics, segments: segments)
    }

    /// Replays the users of `input` (a log in memory, a database read a user at a time) under
    /// `rollout`, a chunk of users at a time (``chunk``): what is held at once is one chunk's events.
    package init<Input: AnalysisInput>(
        input: inout Input, rollout: Rollout, days: Int? = nil, seed: UInt64 = 1, jobs: Int = 1, shard: Shard = .whole,
        metrics: TeamMetrics.Source? = nil, segments: UserSegments? = nil
    ) throws {
        experiment = Experiment(rollout)
        self.shard = shard
        self.days = days
        var problems = EventLog.Problems()
        team = try metrics.map { try TeamMetrics($0).metrics } ?? []
        let measured = Self.measured(team: team)
        let armCount = rollout.folders.count
        let end = input.end
        var users = Array(repeating: 0, count: armCount)
        var moments = measured.map { ($0, Array(repeating: MetricMoments(), count: armCount)) }
        var histograms = Self.quantiles.map { ($0, Array(repeating: [Int](), count: armCount)) }
        var armDays = Array(repeating: [DayTotals](), count: armCount)
        var failures = Array(repeating: RuleFailures(), count: armCount)
        // Per dimension, per value: users and moments per arm.
        var buckets: [[Segment?]] = segments.map { file in file.values.map { values in values.map { _ in nil } } } ?? []
        var noDays = EventLog.Problems()
        var unsegmented = 0
        let replay = ArmReplay(rollout: rollout, metrics: metrics, jobs: jobs, shard: shard)
        try replay.run(&input, problems: &problems) { worker, assigned -> UserPart? in
            // The pre-period is replayed under the rules before the rollout (the control's) whatever
            // the arm (``ArmReplay/Worker/tally``): CUPED's covariate must not depend on the arm.
            let tally = try worker.tally(assigned, seed: seed, logEnd: end)
            return UserPart(tally, days: days, metrics: measured, quantiles: Self.quantiles)
        } add: { assignment, part in
            guard let part else {
                noDays.note(.noDays, line: assignment.user.line(0), "\(assignment.user.name)")
                return
            }
            let a = assignment.arm
            users[a] += 1
            for m in moments.indices { moments[m].1[a] += part.moments[m] }
            for q in histograms.indices { Histogram.add(part.histograms[q], to: &histograms[q].1[a]) }
            DayTotals.add(part.days, into: &armDays[a])
            failures[a].add(part.failures)
            guard let file = segments else { return }
            guard let row = file.segments(of: assignment.user.name) else {
                unsegmented += 1
                return
            }
            for (d, v) in row.enumerated() {
                var segment =
                    buckets[d][Int(v)]
                    ?? Segment(
                        dimension: file.dimensions[d], value: file.values[d][Int(v)], users: Array(repeating: 0, count: armCount),
                        moments: measured.map { _ in Array(repeating: MetricMoments(), count: armCount) },
                        histograms: Self.quantiles.map { _ in Array(repeating: [], count: armCount) })
                segment.users[a] += 1
                for m in segment.moments.indices { segment.moments[m][a] += part.moments[m] }
                for q in segment.histograms.indices { Histogram.add(part.histograms[q], to: &segment.histograms[q][a]) }
                buckets[d][Int(v)] = segment
            }
        }
        dimensions = segments?.dimensions ?? []
        self.unsegmented = unsegmented
        self.segments = buckets.flatMap { $0.compactMap { $0 }.sorted { $0.value < $1.value } }
        self.users = users
        self.moments = moments.map { (metric: $0.0, arms: $0.1) }
        quantiles = histograms.map { (metric: $0.0, arms: $0.1) }
        self.armDays = armDays
        apps = Metric.apps(of: armDays.map { UserPart.summary($0) })
        // What the input could not give, then what the analysis could not take.
        self.problems = problems + noDays
        self.failures = failures
        events = input.eventCount
    }

    /// The metrics measured: the registry's and the `team`'s that are ratios of sums over the users.
    package static func measured(team: [TeamMetric]) -> [Metric] {
        (MetricRegistry.summary + team.map(\.metric)).filter { $0.ratio != nil }
    }

    /// The percentiles of one value per user that are measured (the registry's).
    package static let quantiles = MetricRegistry.summary.filter { $0.quantile != nil }

    /// An analysis from its parts (``merge(_:)``, a report read back).
    package init(
        experiment: Experiment, shard: Shard, days: Int?, users: [Int], team: [TeamMetric],
        moments: [(metric: Metric, arms: [MetricMoments])],
        quantiles: [(metric: Metric, arms: [[Int]])], apps: Set<Metric.App>, problems: EventLog.Problems, failures: [RuleFailures],
        events: Int
    ) {
        self.team = team
        self.quantiles = quantiles
        self.apps = apps
        self.experiment = experiment
        self.shard = shard
        self.days = days
        self.users = users
        self.moments = moments
        armDays = Array(repeating: [], count: users.count)
        self.problems = problems
        self.failures = failures
        self.events = events
    }

    /// One user's part: its days after its exposure and, per metric, its numerator and
    /// denominator then and before (nil: no whole day after its exposure).
    struct UserPart: Sendable {
        var days: [DayTotals]
        var moments: [MetricMoments]
        /// Per percentile, the histogram of the user's value(s) after its exposure.
        var histograms: [[Int]]
        var failures: RuleFailures

        /// `tally`: the user's days, those before its exposure (its pre-period) under the control's rules.
        init?(_ tally: LogUserTally, days limit: Int?, metrics: [Metric], quantiles: [Metric]) {
            let start = tally.exposureDay
            let end = min(tally.days.count, limit.map { start + $0 } ?? Int.max)
            guard start < end else { return nil }
            days = Array(tally.days[start..<end])
            let from = limit.map { max(0, start - $0) } ?? 0
            let before = Array(tally.days[min(from, start)..<start])
            let after = Self.summary(days)
            let pre = before.isEmpty ? nil : Self.summary(before)
            moments = metrics.map { metric in
                let ratio = metric.ratio!
                return MetricMoments(
                    y: ratio.numerator(after), x: ratio.denominator(after), cy: pre.map(ratio.numerator) ?? 0,
                    cx: pre.map(ratio.denominator) ?? 0)
            }
            histograms = quantiles.map { $0.quantile!.histogram(after) }
            failures = tally.failures
        }

        /// The summary of one user's days.
        static func summary(_ days: [DayTotals]) -> ReportSummary {
            let run = SimulationReport.RunDescription(
                duration: "\(days.count)d", start: "", days: days.count, users: 1, usersFrom: 0, usersTo: 1, seed: 0, personas: "",
                rules: "", engine: "lua", inputsDigest: "")
            return ReportSummary(SimulationReport(run: run, days: days))
        }
    }
}

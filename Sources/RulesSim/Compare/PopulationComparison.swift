import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// The registry's ``Metric`` (inside ``PopulationComparison``, `Metric` is its own row type).
private typealias RegisteredMetric = Metric

/// The population half of `compare`: both rule sets simulated on the same seeded cohorts (the same
/// personas, the same seeds, so the same users make the same choices wherever the rules let them:
/// common random numbers), and the simulation's summary metrics (``MetricRegistry/summary``) side by side
/// with their deltas B − A, each with a paired 95 % interval (``Estimate``): over the replicas'
/// differences with `replicas` > 1, else over the differences of groups of users (the same users
/// under A and B; batch means).
package struct PopulationComparison: Sendable {
    package struct Metric: Sendable {
        package var name: String
        package var a: Double
        package var b: Double
        /// Whether the value is a share (printed as a percentage).
        package var isShare: Bool
        /// The 95 % interval of B − A (nil when the metric has none: a maximum over users, with
        /// groups of users).
        package var interval: Estimate?
        package var delta: Double { b - a }
        /// Whether the interval of B − A leaves out 0.
        package var isSignificant: Bool { interval?.excludesZero ?? false }
    }

    /// A per-day series (``MetricRegistry/perDay``) under A and under B: each day's value (the mean
    /// over the replicas), with 4 decimals as the JSON holds it.
    package struct DaySeries: Sendable {
        /// The metric's series key (``Metric/seriesKey``: its key in the JSON).
        package var name: String
        /// Whether the value is a share (a fraction; charts draw it in percent).
        package var isShare: Bool
        package var a: [Double]
        package var b: [Double]
    }

    /// The most groups of users the interval of one cohort is computed from.
    package static let maxGroups = 20

    package var users: Int
    package var days: Int
    package var seed: UInt64
    package var personas: String
    /// Cohorts under each set (`--population-replicas`), and the groups of users of each when 1.
    package var replicas = 1
    package var groups = 1
    package var metrics: [Metric]
    /// The first simulated day (YYYY-MM-DD).
    package var start = SimulationConfig.defaultStart.rawValue
    /// The per-day series of both sets (``MetricRegistry/perDay``: Earned's when either set's cohort has Earned users).
    package var daySeries: [DaySeries] = []
    /// Each persona's users alone (`compare --segments`): the same metrics, A and B and B − A.
    package var segments: [Segment] = []

    package struct Segment: Sendable {
        package var persona: String
        package var users: Int
        package var metrics: [Metric]
    }

    /// The lines of each set's rule files the cohort ran (`run(…, recordsLines: true)`).
    package var lineCounts: (a: LineCounts, b: LineCounts)?

    package init(users: Int, days: Int, seed: UInt64, personas: String, metrics: [Metric]) {
        self.users = users
        self.days = days
        self.seed = seed
        self.personas = personas
        self.metrics = metrics
    }

    /// Loads and checks what `run` would simulate (the personas of `mix`, the duration, the rule
    /// set) without simulating, so that a bad persona is reported before anything runs.
    package static func check(
        folder: String, users: Int, days: Int, seed: UInt64, mix: PersonaMix,
        personaFolders: [String] = [PersonaLoader.defaultFolder]
    ) throws {
        let config = SimulationConfig(
            duration: try SimulationDuration("\(days)d"), users: users, seed: seed, mix: mix,
            personaFolders: personaFolders, rules: folder, database: nil)
        _ = try Simulation(config: config)
    }

    /// The metrics a comparison measures both sets by: the file given (`--metrics`), else B's
    /// folder's `metrics.lua` (the new set's), else A's; nil when there is none.
    package static func metricsSource(_ file: String?, folderA: String, folderB: String) throws -> TeamMetrics.Source? {
        if let file { return try TeamMetrics.source(file: file) }
        return try TeamMetrics.source(rules: folderB) ?? TeamMetrics.source(rules: folderA)
    }

    /// Simulates `users` users for `days` days under each rule set (in memory), `replicas` times
    /// with the seeds of ``ReplicaReport/seed(_:replica:)``, and compares them. `progress` is called
    /// with the set ("A" or "B"), the users simulated under it and all its users.
    package static func run(
        folderA: String, folderB: String, users: Int, days: Int, seed: UInt64, mix: PersonaMix,
        personaFolders: [String] = [PersonaLoader.defaultFolder], recordsLines: Bool = false, replicas: Int = 1,
        segments: Bool = false, responses: Bool = true, metrics: TeamMetrics.Source? = nil,
        progress: ((String, Int, Int) -> Void)? = nil
    ) throws -> PopulationComparison {
        guard (1...ReplicaReport.maxReplicas).contains(replicas) else {
            throw SimulationError("--population-replicas must be from 1 to \(ReplicaReport.maxReplicas), found \(replicas)")
        }
        let groups = replicas == 1 ? min(maxGroups, users) : 1
        // Each replica's whole report and its groups' reports, under A and under B.
        func simulate(_ rules: String, _ set: String) throws -> [(report: SimulationReport, groups: [SimulationReport])] {
            var config = SimulationConfig(
                duration: try SimulationDuration("\(days)d"), users: users, seed: seed, mix: mix,
                personaFolders: personaFolders, rules: rules, database: nil, recordsLines: recordsLines)
            config.responses = responses
            // Both sets measured by the same metrics (``metricsSource(_:folderA:folderB:)``).
            (config.metrics, config.findsMetrics) = (metrics, false)
            let simulation = try Simulation(config: config)
            return try (1...replicas).map { r in
                try simulation.run(seed: ReplicaReport.seed(seed, replica: r), groups: groups) {
                    done, _ in progress?(set, (r - 1) * users + done, replicas * users)
                }
            }
        }
        let runsA = try simulate(folderA, "A"), runsB = try simulate(folderB, "B")
        // A metric's value in a report (each kind of rule failure besides the summary's metrics).
        // (`sampled`: its value in a group of users, nil where none uses the metric's app.)
        var measures:
            [(
                name: String, isShare: Bool, kind: RegisteredMetric.Kind, value: (SimulationReport) -> Double,
                sampled: (SimulationReport) -> Double?
            )] = []
        let apps = RegisteredMetric.apps(of: (runsA + runsB).map { ReportSummary($0.report) })
        let team = MetricRegistry.team(of: (runsA + runsB).map(\.report))
        for metric in MetricRegistry.only(MetricRegistry.summary, team: team, apps: apps, days: days) {
            measures.append(
                (metric.label, metric.isShare, metric.kind, { metric.value(ReportSummary($0)) }, { metric.sampled(ReportSummary($0)) }))
            guard metric.id == RegisteredMetric.refusedEvents.id else { continue }
            // Among the refused events, those a set's rules failed on (only when either set has some).
            for code in RuleFailures.Code.allCases
            where (runsA + runsB).contains(where: { $0.report.failures.counts[code] > 0 }) {
                let count = { (r: SimulationReport) in Double(r.failures.counts[code]) }
                measures.append(("refused: \(code.rawValue) (rule failed)", false, .total, count, count))
            }
        }
        let metrics = measures.map { name, isShare, kind, value, sampled in
            let a = runsA.map { value($0.report) }, b = runsB.map { value($0.report) }
            let mean = { (values: [Double]) in values.reduce(0, +) / Double(values.count) }
            var interval: Estimate?
            if replicas > 1 {
                interval = Estimate.of(zip(b, a).map { $0 - $1 }, method: .replicas)
            } else if kind != .extreme {
                // A rate over the groups that have users of its app (``Metric/sampled(_:)``).
                let differences = zip(runsB[0].groups, runsA[0].groups).compactMap { b, a in
                    sampled(b).flatMap { b in sampled(a).map { b - $0 } }
                }
                interval = Estimate.around(b[0] - a[0], groups: differences, scale: kind == .total ? Double(groups) : 1)
            }
            return Metric(name: name, a: mean(a), b: mean(b), isShare: isShare, interval: interval)
        }
        var comparison = PopulationComparison(users: users, days: days, seed: seed, personas: mix.description, metrics: metrics)
        if segments {
            comparison.segments = runsA[0].report.segments.indices.map { p in
                Self.segment(p, runsA.map { $0.report }, runsB.map { $0.report }, groupsA: runsA[0].groups, groupsB: runsB[0].groups)
            }
        }
        comparison.replicas = replicas
        comparison.groups = groups
        comparison.start = runsA[0].report.run.start
        // The days of the runs already made: the replicas' mean per day, under A and under B.
        func daily(_ metric: RegisteredMetric, _ runs: [(report: SimulationReport, groups: [SimulationReport])]) -> [Double] {
            runs[0].report.days.indices.map { d in
                SimulationReport.round4(runs.map { metric.value($0.report.days[d]) }.reduce(0, +) / Double(runs.count))
            }
        }
        comparison.daySeries = MetricRegistry.only(MetricRegistry.perDay, team: team, apps: apps).map { metric in
            DaySeries(name: metric.seriesKey, isShare: metric.isShare, a: daily(metric, runsA), b: daily(metric, runsB))
        }
        if recordsLines {
            var a = LineCounts(), b = LineCounts()
            for run in runsA { if let counts = run.report.lineCounts { a.add(counts) } }
            for run in runsB { if let counts = run.report.lineCounts { b.add(counts) } }
            comparison.lineCounts = (a, b)
        }
        return comparison
    }

    /// Persona `p`'s users under A and B (`reportsA`, `reportsB`: one per replica; with one
    /// replica, the groups' reports give the intervals): the metrics of the apps they use, each
    /// with its paired interval. Groups without users of the persona are left out of a rate's.
    static func segment(
        _ p: Int, _ reportsA: [SimulationReport], _ reportsB: [SimulationReport], groupsA: [SimulationReport],
        groupsB: [SimulationReport]
    ) -> Segment {
        func summary(_ r: SimulationReport) -> ReportSummary { ReportSummary(r.report(of: r.segments[p])) }
        let a = reportsA.map(summary), b = reportsB.map(summary)
        let ga = groupsA.map(summary), gb = groupsB.map(summary)
        let apps = RegisteredMetric.apps(of: a + b)
        let team = MetricRegistry.team(of: reportsA + reportsB)
        let metrics = MetricRegistry.only(MetricRegistry.summary, team: team, apps: apps, days: reportsA[0].days.count).map { metric in
            let va = a.map { metric.value($0) }, vb = b.map { metric.value($0) }
            let mean = { (values: [Double]) in values.reduce(0, +) / Double(values.count) }
            var interval: Estimate?
            if a.count > 1 {
                interval = Estimate.of(zip(vb, va).map { $0 - $1 }, method: .replicas)
            } else if metric.kind != .extreme, ga.count > 1 {
                // A rate over the groups that have users of the persona using its app.
                let differences = zip(gb, ga).compactMap { b, a in metric.sampled(b).flatMap { b in metric.sampled(a).map { b - $0 } } }
                interval = Estimate.around(
                    vb[0] - va[0], groups: differences, scale: metric.kind == .total ? Double(differences.count) : 1)
            }
            return Metric(name: metric.label, a: mean(va), b: mean(vb), isShare: metric.isShare, interval: interval)
        }
        return Segment(persona: reportsA[0].segments[p].name, users: reportsA[0].segments[p].users, metrics: metrics)
    }

    /// How the intervals were computed, in words.
    package var intervalNote: String {
        if replicas > 1 {
            return "95% intervals of B − A: Student t over the \(replicas) replicas' differences (each replica's cohort under A and B)"
        }
        guard groups > 1 else { return "no interval: one user" }
        let size = users / groups
        return "95% intervals of B − A: Student t over \(groups) groups of \(size)\(users % groups == 0 ? "" : "–\(size + 1)") users, "
            + "each group's difference under A and B"
    }

    static func format(_ value: Double, share: Bool, signed: Bool = false) -> String {
        let sign = signed && value > 0 ? "+" : ""
        if share { return sign + String(format: "%.1f%%", value * 100) }
        if let whole = WholeNumber.exactly(value) { return sign + String(whole) }
        return sign + String(format: "%.2f", value)
    }

    /// A value for the text, signed: a difference too small for the printed precision is "≈0"
    /// (not "-0.00").
    static func signed(_ value: Double, share: Bool) -> String {
        let printed = format(value, share: share, signed: true)
        return value == 0 ? "0" : printed.allSatisfy({ "+-0.%".contains($0) }) ? "≈0" : printed
    }

    package var text: String {
        // The names' column: 34 characters, wider for a longer label (a team's metric's).
        let width = max(34, ((metrics + segments.flatMap(\.metrics)).map(\.name.count).max() ?? 0) + 2)
        let cohorts = replicas > 1 ? "\(replicas) cohorts of \(users) users (seeds derived from \(seed))" : "\(users) users"
        var lines = [
            "population: \(cohorts) × \(days) days, seed \(seed), personas \(personas) (the same cohort\(replicas > 1 ? "s" : "") under A and B)",
            "  " + "metric".padding(toLength: width, withPad: " ", startingAt: 0) + "A".padding(toLength: 10, withPad: " ", startingAt: 0)
                + "B".padding(toLength: 10, withPad: " ", startingAt: 0) + "B − A".padding(toLength: 10, withPad: " ", startingAt: 0)
                + "95% interval",
        ]
        lines += Self.rows(metrics, width: width)
        lines.append("  \(intervalNote); * marks a difference whose interval leaves out 0 (significant at 5%)")
        for segment in segments {
            lines.append("by persona: \(segment.persona) (\(segment.users) user\(segment.users == 1 ? "" : "s")\(replicas > 1 ? " in the first cohort" : ""))")
            lines += Self.rows(segment.metrics, width: width)
        }
        return lines.joined(separator: "\n")
    }

    /// A line per metric: A, B, B − A and its interval.
    static func rows(_ metrics: [Metric], width: Int) -> [String] {
        var lines: [String] = []
        for m in metrics {
            let interval = m.interval.map { e in
                e.n < 2
                    ? "—"
                    : "[\(Self.signed(e.low, share: m.isShare)), \(Self.signed(e.high, share: m.isShare))]" + (m.isSignificant ? " *" : "")
            }
            lines.append(
                "  " + m.name.padding(toLength: width, withPad: " ", startingAt: 0)
                    + Self.format(m.a, share: m.isShare).padding(toLength: 10, withPad: " ", startingAt: 0)
                    + Self.format(m.b, share: m.isShare).padding(toLength: 10, withPad: " ", startingAt: 0)
                    + Self.signed(m.delta, share: m.isShare).padding(toLength: 10, withPad: " ", startingAt: 0) + (interval ?? "—"))
        }
        return lines
    }

    /// The date of day `d` (0-based) of the runs.
    func date(_ d: Int) -> String { (try? DayID(start))?.adding(days: d)?.rawValue ?? "" }

    static func json(_ metrics: [Metric]) -> JSONValue {
        .array(
            metrics.map { m in
                .object(
                    [("name", .string(m.name)), ("a", .double(m.a)), ("b", .double(m.b)), ("delta", .double(m.delta))]
                        + (m.interval.map { [("delta_low", .double($0.low)), ("delta_high", .double($0.high))] } ?? [])
                        + [("significant", .bool(m.isSignificant))])
            })
    }

    package var json: JSONValue {
        .object([
            ("users", .int(users)), ("days", .int(days)), ("start", .string(start)), ("seed", .int(Int(truncatingIfNeeded: seed))),
            ("personas", .string(personas)),
            ("replicas", .int(replicas)),
            (
                "interval",
                .object([
                    ("method", .string(replicas > 1 ? Estimate.Method.replicas.rawValue : Estimate.Method.userGroups.rawValue)),
                    ("level", .double(0.95)), ("n", .int(replicas > 1 ? replicas : groups)),
                ])
            ),
            ("metrics", Self.json(metrics)),
        ] + (segments.isEmpty ? [] : [
            (
                "segments",
                .array(
                    segments.map {
                        .object([("persona", .string($0.persona)), ("users", .int($0.users)), ("metrics", Self.json($0.metrics))])
                    })
            )
        ]) + [
            (
                "per_day",
                .array(
                    (daySeries.first?.a.indices ?? 0..<0).map { d in
                        .object([
                            ("day", .int(d + 1)), ("date", .string(date(d))),
                            ("a", .object(daySeries.map { ($0.name, .double($0.a[d])) })),
                            ("b", .object(daySeries.map { ($0.name, .double($0.b[d])) })),
                        ])
                    })
            ),
        ])
    }
}

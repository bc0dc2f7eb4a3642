import Foundation
import LuaHost
import RulesModel

/// `simulate --replicas K`: K independent cohorts of the same run, each with its own seed, and
/// every summary metric (``MetricRegistry/summary``) and per-day series (``MetricRegistry/perDay``) as the mean over
/// the replicas with a Student-t 95 % interval (``Estimate``; the replicas are i.i.d.).
package struct ReplicaReport: Sendable {
    /// The most replicas of one run.
    package static let maxReplicas = 1000

    /// The seed of replica `replica` (1-based) of a run with `seed`: replica 1 is the run with
    /// `seed` itself (so its report is `simulate`'s without `--replicas`); replica r ≥ 2 takes the
    /// first number of the SplitMix64 stream `SeededGenerator(seed: seed, r, "REPLICA")`.
    package static func seed(_ seed: UInt64, replica: Int) -> UInt64 {
        guard replica > 1 else { return seed }
        var generator = SeededGenerator(seed: seed, UInt64(replica), 0x5245_504C_4943_41)
        return generator.next()
    }

    /// Each replica's report, in replica order.
    package var reports: [SimulationReport]

    package init(reports: [SimulationReport]) { self.reports = reports }

    /// Each metric per persona over the replicas (`simulate --replicas K --segments`), when set.
    package var breakdown: SegmentBreakdown?

    /// Runs `replicas` replicas of `simulation` one after the other (each on `--jobs` workers; the
    /// reports do not depend on the number of jobs). `progress` gets (users done, users) over all.
    package static func run(_ simulation: Simulation, replicas: Int, progress: ((Int, Int) -> Void)? = nil) throws -> ReplicaReport {
        guard (1...maxReplicas).contains(replicas) else {
            throw SimulationError("--replicas must be from 1 to \(maxReplicas), found \(replicas)")
        }
        let users = simulation.config.shard.users(of: simulation.config.users).count
        var reports: [SimulationReport] = []
        for r in 1...replicas {
            let done = (r - 1) * users
            let run = try simulation.run(seed: seed(simulation.config.seed, replica: r), groups: 1) { n, _ in
                progress?(done + n, users * replicas)
            }
            reports.append(run.report)
        }
        return ReplicaReport(reports: reports)
    }

    var first: SimulationReport { reports[0] }
    /// The apps whose metrics are listed: those of any replica's users.
    var apps: Set<Metric.App> { Metric.apps(of: reports.map(ReportSummary.init)) }

    /// Each summary metric's estimate over the replicas.
    package var summary: [(metric: Metric, estimate: Estimate, values: [Double])] {
        let summaries = reports.map(ReportSummary.init)
        return MetricRegistry.only(MetricRegistry.summary, team: MetricRegistry.team(of: reports), apps: apps, days: first.days.count).map {
            metric in
            let values = summaries.map { metric.value($0) }
            return (metric, Estimate.of(values, method: .replicas), values)
        }
    }

    /// Each per-day series: per day, its estimate over the replicas.
    package var series: [(metric: Metric, days: [Estimate])] {
        MetricRegistry.only(MetricRegistry.perDay, team: MetricRegistry.team(of: reports), apps: apps).map { metric in
            (metric, first.days.indices.map { d in Estimate.of(reports.map { metric.value($0.days[d]) }, method: .replicas) })
        }
    }

    /// What the interval is, in words.
    var intervalNote: String {
        "mean of \(reports.count) replicas, 95% interval: Student t with \(reports.count - 1) degrees of freedom over the replicas"
    }

    /// The report in `format`.
    package func rendered(_ format: ReportFormat) -> String {
        switch format {
        case .table: VisibleText.escaping(table())
        case .json: json()
        case .csv: csv()
        case .jsonl: jsonl()
        }
    }

    static func format(_ value: Double, share: Bool) -> String {
        share ? String(format: "%.1f%%", value * 100) : String(format: "%.2f", value)
    }

    static func interval(_ e: Estimate, share: Bool) -> String {
        "[\(format(e.low, share: share)), \(format(e.high, share: share))]"
    }

    /// For people: the run, the summary metrics, then one line per day.
    package func table() -> String {
        let r = first.run
        let start = try? DayID(r.start)
        let last = start?.adding(days: max(0, r.days - 1))?.rawValue ?? ""
        var out =
            "rulesrun simulate \(r.duration) --replicas \(reports.count): \(first.userCount) user\(first.userCount == 1 ? "" : "s") each (\(r.personas)), "
            + "seeds \(reports.map { String($0.run.seed) }.prefix(3).joined(separator: ", "))\(reports.count > 3 ? ", …" : ""), rules \(r.rules) (\(r.engine == "lua" ? "Lua" : "native reference"))\n"
        out += "\(r.start) to \(last), \(r.days) day\(r.days == 1 ? "" : "s"); \(intervalNote)\n\nsummary\n"
        let rows = summary.map { m, e, _ in
            ["  " + m.label, Self.format(e.mean, share: m.isShare), Self.interval(e, share: m.isShare)]
        }
        out += SimulationReport.align([["  metric", "mean", "95% interval"]] + rows, leftColumns: [0])
        let series = self.series
        out += "\nper day: mean ± half the 95% interval\n"
        var dayRows = [["day", "date"] + series.map(\.metric.label)]
        for d in first.days.indices {
            dayRows.append(
                [String(d + 1), start?.adding(days: d)?.rawValue ?? ""]
                    + series.map { m, days in
                        Self.format(days[d].mean, share: m.isShare) + " ±" + Self.format(days[d].halfWidth, share: m.isShare)
                    })
        }
        out += SimulationReport.align(dayRows, leftColumns: [1])
        if let breakdown { out += breakdown.table() }
        return out
    }

    static func estimateJSON(_ e: Estimate) -> [(String, JSONValue)] {
        [("mean", SimulationReport.rounded(e.mean)), ("low", SimulationReport.rounded(e.low)), ("high", SimulationReport.rounded(e.high))]
    }

    /// One JSON object: `run` (with `replicas` and each replica's `seeds`), `interval`, `summary`
    /// (each metric's label, mean, low, high and the replicas' values) and `days` (per day, each
    /// series' mean, low and high under its ``Metric/seriesKey``).
    package func json() -> String {
        let r = first.run
        let run: JSONValue = .object([
            ("duration", .string(r.duration)), ("start", .string(r.start)), ("days", .int(r.days)), ("users", .int(r.users)),
            ("replicas", .int(reports.count)), ("seeds", .array(reports.map { .string(String($0.run.seed)) })),
            ("personas", .string(r.personas)), ("rules", .string(r.rules)), ("engine", .string(r.engine)),
            ("inputs_digest", .string(r.inputsDigest)),
        ])
        let summary: JSONValue = .array(
            summary.map { m, e, values in
                .object(
                    [("name", .string(m.label)), ("share", .bool(m.isShare))] + Self.estimateJSON(e)
                        + [("values", .array(values.map(SimulationReport.rounded)))])
            })
        let series = self.series
        let start = try? DayID(r.start)
        let days: JSONValue = .array(
            first.days.indices.map { d in
                .object(
                    [("day", .int(d + 1)), ("date", .string(start?.adding(days: d)?.rawValue ?? ""))]
                        + series.map { m, days in (m.seriesKey, .object(Self.estimateJSON(days[d]))) })
            })
        return JSONValue.object([
            ("run", run),
            (
                "interval",
                .object([("method", .string(Estimate.Method.replicas.rawValue)), ("level", .double(0.95)), ("n", .int(reports.count))])
            ),
            ("summary", summary),
        ] + (breakdown.map { [("segments", $0.json)] } ?? []) + [("days", days)]).description + "\n"
    }

    /// One flat JSON object per day (`pandas.read_json(f, lines=True)`: one row per day): day, date,
    /// and each series' `KEY.mean`, `KEY.low`, `KEY.high` (``Metric/seriesKey``).
    package func jsonl() -> String {
        let start = try? DayID(first.run.start)
        let series = self.series
        return first.days.indices.map { d in
            JSONValue.object(
                [("day", .int(d + 1)), ("date", .string(start?.adding(days: d)?.rawValue ?? ""))]
                    + series.flatMap { m, days in Self.estimateJSON(days[d]).map { ("\(m.seriesKey).\($0.0)", $0.1) } }
            ).description + "\n"
        }.joined()
    }

    /// One line per (day, series): day, date, series (its ``Metric/seriesKey``), mean, low, high.
    package func csv() -> String {
        let start = try? DayID(first.run.start)
        var out = "day,date,series,mean,low,high\n"
        let series = self.series
        for d in first.days.indices {
            for (m, days) in series {
                let e = days[d]
                out += "\(d + 1),\(start?.adding(days: d)?.rawValue ?? ""),\(m.seriesKey),"
                out += [e.mean, e.low, e.high].map(SimulationReport.fixed).joined(separator: ",") + "\n"
            }
        }
        return out
    }
}

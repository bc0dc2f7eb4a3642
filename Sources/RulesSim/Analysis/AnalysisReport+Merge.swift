import Foundation
import RulesEngine
import RulesModel

extension AnalysisReport {
    /// The largest shard report `merge` reads.
    package static let maxJSONBytes = 64 << 20

    /// The report of the whole log from the JSON reports of its shards (`analyze --shard i/n
    /// --format json`, every i of one n, once): their users, sufficient statistics, bad-input
    /// counts and rule failures added up, then compared as one run compares them. `names` name the
    /// reports in messages.
    package static func merge(_ reports: [Data], names: [String]) throws(AnalysisError) -> AnalysisReport {
        var parts: [(report: AnalysisReport, name: String)] = []
        for (data, name) in zip(reports, names) {
            do throws(AnalysisError) {
                guard data.count <= maxJSONBytes else { throw AnalysisError("larger than \(maxJSONBytes) bytes") }
                parts.append((try shard(json: data), name))
            } catch {
                throw AnalysisError("\(name): \(error.message)")
            }
        }
        guard let first = parts.first else { throw AnalysisError("nothing to merge") }
        for (report, name) in parts {
            let a = report.analysis
            guard a.experiment == first.report.analysis.experiment else {
                throw AnalysisError(
                    "\(name): experiment \(a.experiment.name) revision \(a.experiment.revision) (\(a.experiment.bundle)), but \(first.name) "
                        + "analyses \(first.report.analysis.experiment.name) revision \(first.report.analysis.experiment.revision)")
            }
            for (field, mine, theirs) in [
                ("days", "\(a.days.map(String.init) ?? "all")", "\(first.report.analysis.days.map(String.init) ?? "all")"),
                ("level", "\(report.level)", "\(first.report.level)"), ("cuped", "\(report.cuped)", "\(first.report.cuped)"),
                ("events", report.source, first.report.source),
            ] where mine != theirs {
                throw AnalysisError("\(name): \(field) \(mine), but \(first.name) has \(theirs): merge shards of one analysis")
            }
            guard a.dimensions == first.report.analysis.dimensions else {
                throw AnalysisError(
                    "\(name): segments by \(a.dimensions), but \(first.name) has \(first.report.analysis.dimensions): "
                        + "analyse every shard with the same --segments file")
            }
            guard a.team == first.report.analysis.team else {
                throw AnalysisError(
                    "\(name): team metrics \(a.team.map(\.id)), but \(first.name) has \(first.report.analysis.team.map(\.id)): "
                        + "analyse every shard with the same metrics.lua")
            }
        }
        if let incomplete = Shard.incomplete(parts.map { ($0.report.analysis.shard, $0.name) }) { throw AnalysisError(incomplete) }
        let sorted = parts.map(\.report).sorted { $0.analysis.shard.index < $1.analysis.shard.index }
        var whole = sorted[0].analysis
        for part in sorted.dropFirst() {
            let a = part.analysis
            whole.users = zip(whole.users, a.users).map(+)
            for m in whole.moments.indices { whole.moments[m].arms = zip(whole.moments[m].arms, a.moments[m].arms).map(+) }
            for q in whole.quantiles.indices {
                for arm in whole.quantiles[q].arms.indices { Histogram.add(a.quantiles[q].arms[arm], to: &whole.quantiles[q].arms[arm]) }
            }
            whole.problems = whole.problems + a.problems
            for i in whole.failures.indices { whole.failures[i].add(a.failures[i]) }
            whole.events += a.events
            whole.apps.formUnion(a.apps)
            whole.unsegmented += a.unsegmented
            for segment in a.segments {
                if let i = whole.segments.firstIndex(where: { ($0.dimension, $0.value) == (segment.dimension, segment.value) }) {
                    whole.segments[i].users = zip(whole.segments[i].users, segment.users).map(+)
                    for m in segment.moments.indices {
                        whole.segments[i].moments[m] = zip(whole.segments[i].moments[m], segment.moments[m]).map(+)
                    }
                    for q in segment.histograms.indices {
                        for arm in segment.histograms[q].indices {
                            Histogram.add(segment.histograms[q][arm], to: &whole.segments[i].histograms[q][arm])
                        }
                    }
                } else {
                    whole.segments.append(segment)
                }
            }
        }
        // By dimension in the file's order, then by value: as one analysis of the whole log orders them.
        let order = Dictionary(uniqueKeysWithValues: whole.dimensions.enumerated().map { ($1, $0) })
        whole.segments.sort { (order[$0.dimension]!, $0.value) < (order[$1.dimension]!, $1.value) }
        whole.shard = .whole
        let f = first.report
        return AnalysisReport(whole, source: f.source, level: f.level, cuped: f.cuped, sequential: f.sequential)
    }

    /// A shard's report read back from its JSON (what `json()` wrote), every field checked.
    static func shard(json data: Data) throws(AnalysisError) -> AnalysisReport {
        let value: JSONValue
        do { value = try JSONLine.parse(utf8: [UInt8](data), firstIndex: 0) } catch {
            throw AnalysisError("not a report of rulesrun analyze --format json: malformed JSON (\(error))")
        }
        guard value["report"] == .string("rulesrun analyze") else {
            throw AnalysisError("not a report of rulesrun analyze --format json (report: expected \"rulesrun analyze\")")
        }
        guard value["version"] == .int(1) else { throw AnalysisError("version: expected 1 (a report of this version of rulesrun)") }
        func string(_ v: JSONValue?, _ path: String) throws(AnalysisError) -> String {
            guard case .string(let s)? = v else { throw AnalysisError("\(path): expected a string") }
            return s
        }
        func int(_ v: JSONValue?, _ path: String, _ range: ClosedRange<Int>) throws(AnalysisError) -> Int {
            guard case .int(let i)? = v, range.contains(i) else {
                throw AnalysisError("\(path): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return i
        }
        let e = value["experiment"]
        guard case .array(let armValues)? = e?["arms"], (2...BundleExperiment.maxArms).contains(armValues.count) else {
            throw AnalysisError("experiment.arms: expected 2 to \(BundleExperiment.maxArms) arms")
        }
        var arms: [(name: String, basisPoints: Int)] = []
        for (i, arm) in armValues.enumerated() {
            arms.append(
                (
                    try string(arm["arm"], "experiment.arms[\(i)].arm"),
                    try int(arm["basis_points"], "experiment.arms[\(i)].basis_points", 0...BundleExperiment.buckets)
                ))
        }
        let experiment = RolloutAnalysis.Experiment(
            name: try string(e?["name"], "experiment.name"), revision: try int(e?["revision"], "experiment.revision", 1...Int.max),
            bundle: try string(e?["bundle"], "experiment.bundle"), arms: arms)
        let shard: Shard
        do { shard = try Shard(try string(value["shard"], "shard")) } catch let error as SimulationError {
            throw AnalysisError("shard: \(error.message)")
        } catch { throw AnalysisError("shard: \(error)") }
        guard case .double(let level)? = value["level"], level > 0, level < 1 else { throw AnalysisError("level: expected a number between 0 and 1") }
        guard case .bool(let cuped)? = value["cuped"] else { throw AnalysisError("cuped: expected true or false") }
        let days: Int? = value["days"] == .null ? nil : try int(value["days"], "days", 1...RolloutAnalysis.maxDays)
        let names = arms.map(\.name)
        var users: [Int] = []
        for name in names { users.append(try int(value["users"]?[name], "users.\(name)", 0...MetricMoments.maxUsers)) }
        var team: [TeamMetric] = []
        if let declared = value["team_metrics"] {
            guard case .array(let list) = declared, list.count <= TeamMetrics.maxMetrics else {
                throw AnalysisError("team_metrics: expected an array of at most \(TeamMetrics.maxMetrics) metric declarations")
            }
            for (i, item) in list.enumerated() {
                do {
                    let metric = try JSONDecoder().decode(TeamMetric.self, from: Data(item.description.utf8))
                    guard !team.contains(where: { $0.id == metric.id }), RolloutAnalysis.measured(team: []).allSatisfy({ $0.id != metric.id })
                    else { throw AnalysisError("team_metrics[\(i)].id: '\(metric.id)' names two metrics") }
                    team.append(metric)
                } catch let error as AnalysisError {
                    throw error
                } catch {
                    throw AnalysisError("team_metrics[\(i)]: expected {id, label, app, unit, aggregate} (\(error))")
                }
            }
        }
        var moments: [(metric: Metric, arms: [MetricMoments])] = []
        for metric in RolloutAnalysis.measured(team: team) {
            var perArm: [MetricMoments] = []
            for name in names {
                let path = "moments.\(metric.id).\(name)"
                guard let m = value["moments"]?[metric.id]?[name] else { throw AnalysisError("\(path): missing") }
                perArm.append(try MetricMoments(json: m, at: path))
            }
            moments.append((metric, perArm))
        }
        let quantiles = try readHistograms(value["histograms"], at: "histograms", names: names)
        var problems = EventLog.Problems()
        for kind in EventLog.Problems.Kind.allCases {
            guard let entry = value["problems"]?[kind.key] else { continue }
            let count = try int(entry["count"], "problems.\(kind.key).count", 0...Int(Int32.max))
            var examples: [String] = []
            if case .array(let list)? = entry["examples"] {
                for (i, example) in list.enumerated() { examples.append(try string(example, "problems.\(kind.key).examples[\(i)]")) }
            }
            problems.add(kind, count: count, examples: examples)
        }
        var failures: [RuleFailures] = []
        for name in names {
            guard let failure = value["failures"]?[name], let data = failure.description.data(using: .utf8),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { throw AnalysisError("failures.\(name): expected an object of counts by code") }
            do { failures.append(try RuleFailures(jsonObject: object)) } catch { throw AnalysisError("failures.\(name): \(error.message)") }
        }
        guard case .array(let appNames)? = value["apps"] else { throw AnalysisError("apps: expected an array of app names") }
        var apps = Set<Metric.App>()
        for (i, name) in appNames.enumerated() {
            guard case .string(let text) = name, let app = Metric.App(rawValue: text) else {
                throw AnalysisError("apps[\(i)]: expected one of \(Metric.App.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            apps.insert(app)
        }
        let analysis = RolloutAnalysis(
            experiment: experiment, shard: shard, days: days, users: users, team: team, moments: moments, quantiles: quantiles, apps: apps,
            problems: problems,
            failures: failures,
            events: try int(value["events_read"], "events_read", 0...Int.max))
        var analysisWithSegments = analysis
        try readSegments(value, names: names, metrics: moments.map(\.metric), into: &analysisWithSegments)
        let sequential: Double?
        switch value["sequential_tuning"] {
        case .double(let tuning)?: sequential = tuning
        case .int(let tuning)?: sequential = Double(tuning)
        default: sequential = nil
        }
        return AnalysisReport(
            analysisWithSegments, source: try string(value["events"], "events"), level: level, cuped: cuped, sequential: sequential)
    }

    /// The histograms of the percentiles (``RolloutAnalysis/quantiles``) per arm, at `path` of a
    /// shard's JSON: each an array of counts (`counts[v]` users have the value v).
    private static func readHistograms(
        _ value: JSONValue?, at path: String, names: [String]
    ) throws(AnalysisError) -> [(metric: Metric, arms: [[Int]])] {
        var quantiles: [(metric: Metric, arms: [[Int]])] = []
        for metric in RolloutAnalysis.quantiles {
            var arms: [[Int]] = []
            for name in names {
                let at = "\(path).\(metric.id).\(name)"
                guard case .array(let list)? = value?[metric.id]?[name], list.count <= Histogram.maxValues else {
                    throw AnalysisError("\(at): expected an array of at most \(Histogram.maxValues) counts of users")
                }
                var counts: [Int] = []
                for (i, n) in list.enumerated() {
                    guard case .int(let count) = n, (0...MetricMoments.maxUsers).contains(count) else {
                        throw AnalysisError("\(at)[\(i)]: expected a number of users (0 or more)")
                    }
                    counts.append(count)
                }
                arms.append(counts)
            }
            quantiles.append((metric, arms))
        }
        return quantiles
    }

    /// The breakdown by segment of a shard's JSON (`dimensions`, `unsegmented`, `segments`), if any.
    private static func readSegments(
        _ value: JSONValue, names: [String], metrics: [Metric], into analysis: inout RolloutAnalysis
    ) throws(AnalysisError) {
        guard let declared = value["dimensions"] else { return }
        guard case .array(let list) = declared, list.count <= UserSegments.maxDimensions else {
            throw AnalysisError("dimensions: expected an array of at most \(UserSegments.maxDimensions) names")
        }
        var dimensions: [String] = []
        for (i, item) in list.enumerated() {
            guard case .string(let name) = item, !dimensions.contains(name) else {
                throw AnalysisError("dimensions[\(i)]: expected the name of a dimension, once")
            }
            dimensions.append(name)
        }
        guard case .int(let unsegmented)? = value["unsegmented"], unsegmented >= 0 else {
            throw AnalysisError("unsegmented: expected a whole number of users (0 or more)")
        }
        guard case .array(let items)? = value["segments"], items.count <= dimensions.count * UserSegments.maxValues else {
            throw AnalysisError("segments: expected an array of at most \(dimensions.count * UserSegments.maxValues) segments")
        }
        var segments: [RolloutAnalysis.Segment] = []
        for (s, item) in items.enumerated() {
            let path = "segments[\(s)]"
            guard case .string(let dimension)? = item["dimension"], dimensions.contains(dimension) else {
                throw AnalysisError("\(path).dimension: expected one of dimensions (\(dimensions.joined(separator: ", ")))")
            }
            guard case .string(let v)? = item["value"], !v.isEmpty, v.count <= UserSegments.maxValueLength,
                !segments.contains(where: { ($0.dimension, $0.value) == (dimension, v) })
            else { throw AnalysisError("\(path).value: expected a segment's value, once per dimension") }
            var users: [Int] = []
            for name in names {
                guard case .int(let n)? = item["users"]?[name], (0...MetricMoments.maxUsers).contains(n) else {
                    throw AnalysisError("\(path).users.\(name): expected a number of users")
                }
                users.append(n)
            }
            var moments: [[MetricMoments]] = []
            for metric in metrics {
                var perArm: [MetricMoments] = []
                for name in names {
                    let at = "\(path).moments.\(metric.id).\(name)"
                    guard let m = item["moments"]?[metric.id]?[name] else { throw AnalysisError("\(at): missing") }
                    perArm.append(try MetricMoments(json: m, at: at))
                }
                moments.append(perArm)
            }
            let histograms = try readHistograms(item["histograms"], at: "\(path).histograms", names: names).map(\.arms)
            segments.append(RolloutAnalysis.Segment(dimension: dimension, value: v, users: users, moments: moments, histograms: histograms))
        }
        analysis.dimensions = dimensions
        analysis.unsegmented = unsegmented
        analysis.segments = segments
    }
}

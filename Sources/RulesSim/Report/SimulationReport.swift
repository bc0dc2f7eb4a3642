import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// What a simulation (or a shard of one) found: per day, integer totals over its users, and what
/// it ran. Reports of shards of the same run merge into the report of their union.
package struct SimulationReport: Sendable, Equatable {
    package var run: RunDescription
    package var days: [DayTotals]
    /// False for a report read from JSON written before Earned was simulated (its days have no
    /// `earned`): its Earned counts are zeros that say nothing, and it merges only with reports
    /// like it.
    package var earnedCounted = true
    /// The events the rule set failed on (`RULE_ERROR`, `RULE_VIOLATION`, `STORE_ERROR`), and the first.
    package var failures = RuleFailures()
    /// The lines the rule files ran, summed over the workers, with `SimulationConfig.recordsLines`.
    package var lineCounts: LineCounts?
    /// The coverage the JSON report ends with (`simulate --coverage`: `RuleCoverage.json`), when set.
    package var coverage: JSONValue?
    /// The same days per persona of the mix, in its order (empty for a report read from JSON
    /// written without them, or merged from such).
    package var segments: [Segment] = []
    /// Each metric per persona with its interval (`simulate --segments`): the table, the JSON
    /// report (`segments`) and the HTML page end with it when set.
    package var breakdown: SegmentBreakdown?
    /// The team's own metrics the run computed (`metrics.lua`; their counts are in each day's `team`).
    package var teamMetrics: [TeamMetric] = []
    /// The days per arm of a rollout (``SimulationConfig/rollout``), in the experiment's order,
    /// from the users' exposure (``SimulationConfig/exposeAfter``) and over the users exposed;
    /// empty for a run of one rule set.
    package var arms: [Segment] = []
    /// Each metric per arm with its interval (a rollout's run): the table, the JSON report
    /// (`arms`) and the HTML page end with it when set.
    package var armBreakdown: SegmentBreakdown?

    /// The users of one persona (``segments``) or of one arm (``arms``): their days' totals.
    package struct Segment: Sendable, Equatable {
        /// The persona's name, or the arm's.
        package var name: String
        package var days: [DayTotals]

        /// The users counted (those of the segment's persona).
        package var users: Int { days.first?.users ?? 0 }
    }

    /// The report of one segment's users alone (its figures are the persona's).
    package func report(of segment: Segment) -> SimulationReport {
        var run = self.run
        (run.usersFrom, run.usersTo) = (0, segment.users)
        var report = SimulationReport(run: run, days: segment.days)
        report.teamMetrics = teamMetrics
        return report
    }

    /// What was simulated, as the report prints it; two reports merge only when these agree
    /// (but for the users' range).
    package struct RunDescription: Codable, Sendable, Equatable {
        package var duration: String
        package var start: String
        package var days: Int
        /// Users in the whole cohort, and the range of indexes this report covers.
        package var users: Int
        package var usersFrom: Int
        package var usersTo: Int
        /// How far the users' ids (and so their random streams) are from their indexes: a user's
        /// id is its index + 1 + `idOffset`. 0 but for a run that appended to a database
        /// (`--append`) other than right after the users before it in the cohort.
        package var idOffset = 0
        package var seed: UInt64
        package var personas: String
        package var rules: String
        /// "lua" or "native" (`--reference`).
        package var engine: String
        /// A hash of the rule files and persona files, so that only reports of the same inputs merge.
        package var inputsDigest: String

        enum CodingKeys: String, CodingKey {
            case duration, start, days, users, usersFrom = "users_from", usersTo = "users_to", idOffset = "id_offset", seed, personas,
                rules, engine
            case inputsDigest = "inputs_digest"
        }

        /// Why two reports are not parts of the same run: the first field (but the users' range)
        /// that differs, as `field: a ≠ b`; nil when they are. (The rule folder may be named
        /// differently on each machine; the digest covers its files.)
        func firstDifference(from other: RunDescription) -> String? {
            let fields: [(String, String, String)] = [
                ("duration", duration, other.duration), ("start", start, other.start), ("days", "\(days)", "\(other.days)"),
                ("users", "\(users)", "\(other.users)"), ("id_offset (--append after other users)", "\(idOffset)", "\(other.idOffset)"),
                ("seed", "\(seed)", "\(other.seed)"), ("personas", personas, other.personas),
                ("engine", engine, other.engine),
                ("inputs_digest (the rule and persona files' contents)", inputsDigest, other.inputsDigest),
            ]
            return fields.first { $0.1 != $0.2 }.map { "\($0.0) \($0.1) ≠ \($0.2)" }
        }
    }

    package init(run: RunDescription, days: [DayTotals]) {
        self.run = run
        self.days = days
    }

    init(config: SimulationConfig, personas: [Persona], users: Range<Int>, idOffset: Int, days: [DayTotals]) {
        run = RunDescription(
            duration: config.duration.description, start: config.start.rawValue, days: config.days, users: config.users,
            usersFrom: users.lowerBound, usersTo: users.upperBound, idOffset: idOffset, seed: config.seed,
            personas: config.mix.description,
            rules: config.rulesName ?? config.rules, engine: config.reference ? "native" : "lua", inputsDigest: Self.inputsDigest(config, personas: personas))
        self.days = days
    }

    /// The digest of what a run of `config` reads: its rule files (or the native engine), its knob
    /// overrides and its personas' files (`inputs_digest`; `sweep --resume` compares a variant's).
    static func inputsDigest(_ config: SimulationConfig, personas: [Persona]) -> String {
        var digest = FNV64()
        if config.reference {
            digest.add("native")
        } else {
            // Inherited files included: those the run loaded (`Simulation` sets `validated`).
            for (name, contents) in config.validated?.sourceContents ?? (try? RuleSet.sourceContents(config.rules)) ?? [] {
                digest.add(name)
                digest.add(contents)
            }
            // A variant's knob overrides (`sweep --set`) are inputs too; none, the digest is the folder's.
            for knob in config.validated?.overrides ?? config.overrides {
                digest.add(knob.path)
                digest.add("\(knob.value)")
            }
        }
        for persona in personas {
            digest.add(persona.name)
            digest.add(Data(persona.text.utf8))
        }
        // The team's metrics are inputs too (none, the digest is the rules' and personas').
        if let metrics = config.metrics {
            digest.add(metrics.path)
            digest.add(metrics.text)
        }
        // A rollout's other arms and its experiment (none, the digest is the rules' as before).
        if let rollout = config.rollout {
            for arm in rollout.folders.indices.dropFirst() {
                for (name, contents) in rollout.validated[arm]?.sourceContents ?? (try? RuleSet.sourceContents(rollout.folders[arm])) ?? [] {
                    digest.add(name)
                    digest.add(contents)
                }
            }
            digest.add("rollout \(rollout.experiment.name) \(rollout.experiment.salt) \(rollout.revision)")
            for arm in rollout.experiment.arms { digest.add("\(arm.name) \(arm.buckets)") }
            // Users exposed after a pre-period are other inputs (none, the digest is unchanged).
            if config.exposeAfter > 0 { digest.add("expose-after \(config.exposeAfter)") }
        }
        // The personas without their responses are other inputs (the default digest is unchanged).
        if !config.responses { digest.add("no-responses") }
        return digest.hex
    }

    /// The users this report covers.
    package var userCount: Int { run.usersTo - run.usersFrom }

    /// The report of the union of shard reports of the same run (in any order), each checked
    /// (`validate`); their user ranges must not overlap (an empty one overlaps nothing) and must
    /// join into one range: the whole cohort, unless `partial`. `names` name the reports in messages.
    package static func merge(
        _ reports: [SimulationReport], names: [String]? = nil, partial: Bool = false
    ) throws(SimulationError) -> SimulationReport {
        guard let first = reports.first else { throw SimulationError("nothing to merge") }
        let names = names ?? reports.indices.map { "report \($0 + 1)" }
        for (i, report) in reports.enumerated() {
            do { try report.validate() } catch { throw SimulationError("\(names[i]): \(error.message)") }
        }
        for (i, report) in reports.enumerated().dropFirst() {
            if let field = report.run.firstDifference(from: first.run) {
                throw SimulationError("\(names[i]) is not a shard of the same run as \(names[0]): \(field)")
            }
            if report.earnedCounted != first.earnedCounted {
                let (old, new) = report.earnedCounted ? (names[0], names[i]) : (names[i], names[0])
                throw SimulationError(
                    "\(old) has no Earned counts (its days have no `earned`: written before Earned was simulated), "
                        + "but \(new) has them: merge shards written by the same version of rulesrun")
            }
        }
        // Empty shards (more shards than users) cover nobody: only the others must join.
        let sorted = reports.filter { $0.userCount > 0 }.sorted { ($0.run.usersFrom, $0.run.usersTo) < ($1.run.usersFrom, $1.run.usersTo) }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.run.usersTo != b.run.usersFrom {
            throw SimulationError(
                a.run.usersTo > b.run.usersFrom
                    ? "shards overlap: users \(UserRange(a.run.usersFrom..<a.run.usersTo)) and \(UserRange(b.run.usersFrom..<b.run.usersTo))"
                    : "users \(UserRange(a.run.usersTo..<b.run.usersFrom)) are in none of the reports (a shard is missing)")
        }
        let from = sorted.first?.run.usersFrom ?? 0, to = sorted.last?.run.usersTo ?? 0
        if !partial, from != 0 || to != first.run.users {
            let missing = [from != 0 ? UserRange(0..<from) : nil, to != first.run.users ? UserRange(to..<first.run.users) : nil].compactMap
            { $0?.description }
            throw SimulationError(
                "users \(missing.joined(separator: " and ")) of the \(first.run.users) are in none of the reports (a shard is missing; --partial merges a part of the cohort)"
            )
        }
        guard var merged = sorted.first else { return first }
        merged.run.usersTo = to
        for report in sorted.dropFirst() {
            for d in merged.days.indices { merged.days[d].add(report.days[d]) }
        }
        // The segments (and arms) when every part has the same (written with them).
        for parts in [\SimulationReport.segments, \.arms] {
            let names = merged[keyPath: parts].map(\.name)
            if !names.isEmpty, sorted.allSatisfy({ $0[keyPath: parts].map(\.name) == names }) {
                for report in sorted.dropFirst() {
                    for p in names.indices {
                        for d in merged[keyPath: parts][p].days.indices {
                            merged[keyPath: parts][p].days[d].add(report[keyPath: parts][p].days[d])
                        }
                    }
                }
            } else {
                merged[keyPath: parts] = []
            }
        }
        // Empty shards too (they have no failures; the sum does not depend on the order).
        merged.failures = reports.reduce(into: RuleFailures()) { $0.add($1.failures) }
        return merged
    }
}

import Foundation
import LuaHost
import RulesEngine
import RulesModel
import RulesStore

/// One worker thread's state: its own rule set (Lua state) or the native reference, its own Lua
/// state for the personas' `day` functions, and an engine whose users' rows stay in memory. With a
/// rollout, a rule set and an engine per arm: each user runs on its arm's; or, after a pre-period
/// (``SimulationConfig/exposeAfter``), on the control's, given its arm's rules at its exposure.
final class SimulationWorker {
    let template: WorkerTemplate
    /// Each arm's rules, rule set (nil: the native reference) and engine; one without a rollout.
    let rules: [any PolicyRules]
    let ruleSets: [RuleSet?]
    let engines: [Engine]
    let personaHost: LuaHost
    let personas: [Persona]
    /// The team's metrics, in a Lua state of their own (nil: the run has none).
    let metrics: TeamMetrics?

    init(_ template: WorkerTemplate) throws {
        self.template = template
        let config = template.config
        if config.reference {
            rules = [NativeReference()]
            ruleSets = [nil]
        } else {
            // `Simulation.init` validated each set, proofs included (or was given it validated), its
            // knob overrides applied: each worker loads the bytes validated, with the same overrides.
            let limits = LuaLimits(argumentReuse: config.argumentReuse)
            let snapshots = config.rollout.map { $0.validated } ?? [config.validated]
            let folders = config.rollout?.folders ?? [config.rules]
            let sets = try zip(snapshots, folders).map { snapshot, folder in
                try snapshot.map { try $0.load(limits: limits) }
                    ?? RuleSet.load(folder, limits: limits, proving: false, overrides: config.overrides)
            }
            rules = sets
            ruleSets = sets
            if config.recordsLines { sets[0].host.startLineRecording() }
        }
        let host = try LuaHost()
        personaHost = host
        personas = try template.personas.map {
            try PersonaLoader.load(name: $0.name, path: $0.path, text: $0.text, host: host)
        }
        metrics = try config.metrics.map(TeamMetrics.init)
        // Engines without a store: their users' rows stay in memory (see `run`).
        engines = rules.map { rules in
            let engine = Engine(rules: rules)
            engine.userID = Engine.numberedUserID
            return engine
        }
    }

    /// Simulates the users of one chunk: one recording batch per user (`Engine.recordingBatch`),
    /// whose rows the writer then writes to the database (nothing is written by the worker).
    func run(_ users: Range<Int>) throws -> ChunkResult {
        let config = template.config
        let idBase = template.idBase
        // After a pre-period, every user starts on the control's engine (its rows, under its rules).
        let pre = config.exposeAfter > 0
        let simulators = engines.indices.map { a in
            UserSimulator(
                engine: engines[pre ? 0 : a], personas: personas, personaHost: personaHost, metrics: metrics, config: config,
                arm: config.rollout == nil ? nil : a, armRules: pre && a > 0 ? rules[a] : nil)
        }
        let day = DayTotals(team: metrics?.metrics.map(\.id) ?? [])
        // Per arm, per persona of the mix, per day.
        var parts = Array(
            repeating: Array(repeating: Array(repeating: day, count: config.days), count: personas.count), count: engines.count)
        var records: [UserRecords] = []
        var events = ""
        var userRows = ""
        var failures = RuleFailures()
        // Per arm, the users not exposed (those that left in their pre-period).
        var unexposed = Array(repeating: 0, count: engines.count)
        for index in users {
            // The user's random streams are keyed by its id (id − 1: the index in a new database).
            let key = idBase + Int64(index)
            let name = "u\(key + 1)"
            let a = config.rollout?.arm(of: name) ?? 0
            // Rules and personas that draw from math.random draw the same numbers for this user
            // whichever worker runs it.
            let seed = RuleDraws.seed(config.seed, key: UInt64(bitPattern: key))
            try ruleSets[a]?.host.seedRandom(seed)
            if pre, a > 0 { try ruleSets[0]?.host.seedRandom(seed) }
            try personaHost.seedRandom(seed)
            try metrics?.seedRandom(seed)
            let ((p, exposed), user) = try simulators[a].engine.recordingBatch(keepingRecords: template.keepRecords) {
                try simulators[a].run(index: index, key: Int(key), name: name, into: &parts[a], failures: &failures, events: &events)
            }
            if !exposed { unexposed[a] += 1 }
            if config.recordsUserTable {
                userRows += "\(UserSegments.csvField(name)),\(UserSegments.csvField(personas[p].name))\n"
            }
            for recorded in user { try recorded.encodeJSON() }
            records += user
        }
        var segments = parts[0]
        for arm in parts.dropFirst() { for p in segments.indices { for d in segments[p].indices { segments[p][d].add(arm[p][d]) } } }
        var days = segments[0]
        for segment in segments.dropFirst() { for d in days.indices { days[d].add(segment[d]) } }
        var result = ChunkResult(days: days, segments: segments, records: records, failures: failures, events: events)
        result.userRows = userRows
        if config.rollout != nil {
            // Each arm's days from the exposure on, over its users exposed (those not exposed had
            // left: each counted, not active, on every later day).
            result.arms = parts.indices.map { a in
                var days = Array(parts[a][0][config.exposeAfter...])
                for segment in parts[a].dropFirst() { for d in days.indices { days[d].add(segment[config.exposeAfter + d]) } }
                for d in days.indices { days[d].users -= unexposed[a] }
                return days
            }
        }
        if config.recordsLines, let host = ruleSets[0]?.host { result.lines = host.takeLineCounts() }
        return result
    }
}

import Foundation
import LuaHost
import RulesEngine
import RulesModel
import RulesStore

/// One worker thread's state: its own rule set (Lua state) or the native reference, its own Lua
/// state for the personas' `day` functions, and an engine whose users' rows stay in memory.
final class SimulationWorker {
    let template: WorkerTemplate
    let rules: any PolicyRules
    let ruleSet: RuleSet?
    let personaHost: LuaHost
    let personas: [Persona]
    /// The team's metrics, in a Lua state of their own (nil: the run has none).
    let metrics: TeamMetrics?
    let engine: Engine

    init(_ template: WorkerTemplate) throws {
        self.template = template
        if template.config.reference {
            rules = NativeReference()
            ruleSet = nil
        } else {
            // `Simulation.init` validated the set, proofs included (or was given it validated), its
            // knob overrides applied: each worker loads the bytes validated, with the same overrides.
            let limits = LuaLimits(argumentReuse: template.config.argumentReuse)
            let set =
                try template.config.validated.map { try $0.load(limits: limits) }
                ?? RuleSet.load(template.config.rules, limits: limits, proving: false, overrides: template.config.overrides)
            rules = set
            ruleSet = set
            if template.config.recordsLines { set.host.startLineRecording() }
        }
        let host = try LuaHost()
        personaHost = host
        personas = try template.personas.map {
            try PersonaLoader.load(name: $0.name, path: $0.path, text: $0.text, host: host)
        }
        metrics = try template.config.metrics.map(TeamMetrics.init)
        // An engine without a store: its users' rows stay in memory (see `run`).
        engine = Engine(rules: rules)
        engine.userID = Engine.numberedUserID
    }

    /// Simulates the users of one chunk: one recording batch per user (`Engine.recordingBatch`),
    /// whose rows the writer then writes to the database (nothing is written by the worker).
    func run(_ users: Range<Int>) throws -> ChunkResult {
        let config = template.config
        let idBase = template.idBase
        let simulator = UserSimulator(engine: engine, personas: personas, personaHost: personaHost, metrics: metrics, config: config)
        let day = DayTotals(team: metrics?.metrics.map(\.id) ?? [])
        var segments = Array(repeating: Array(repeating: day, count: config.days), count: personas.count)
        var records: [UserRecords] = []
        var events = ""
        var failures = RuleFailures()
        for index in users {
            // The user's random streams are keyed by its id (id − 1: the index in a new database).
            let key = idBase + Int64(index)
            // Rules and personas that draw from math.random draw the same numbers for this user
            // whichever worker runs it.
            let seed = Int64(bitPattern: config.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(bitPattern: key))
            try ruleSet?.host.seedRandom(seed)
            try personaHost.seedRandom(seed)
            try metrics?.seedRandom(seed)
            let name = "u\(key + 1)"
            let (_, user) = try engine.recordingBatch(keepingRecords: template.keepRecords) {
                try simulator.run(index: index, key: Int(key), name: name, into: &segments, failures: &failures, events: &events)
            }
            for recorded in user { try recorded.encodeJSON() }
            records += user
        }
        var days = segments[0]
        for segment in segments.dropFirst() { for d in days.indices { days[d].add(segment[d]) } }
        var result = ChunkResult(days: days, segments: segments, records: records, failures: failures, events: events)
        if config.recordsLines, let host = ruleSet?.host { result.lines = host.takeLineCounts() }
        return result
    }
}

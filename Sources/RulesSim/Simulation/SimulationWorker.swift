import Foundation
import LuaHost
import RulesEngine
import RulesModel
import RulesStore

/// One worker thread's state: its own rule set (Lua state) or the native reference, its own Lua
/// state for the personas' `day` functions, and an in-memory store per chunk.
final class SimulationWorker {
    let template: WorkerTemplate
    let rules: any PolicyRules
    let ruleSet: RuleSet?
    let personaHost: LuaHost
    let personas: [Persona]

    init(_ template: WorkerTemplate) throws {
        self.template = template
        if template.config.reference {
            rules = NativeReference()
            ruleSet = nil
        } else {
            let set = try RuleSet.load(template.config.rules)
            rules = set
            ruleSet = set
        }
        let host = try LuaHost()
        personaHost = host
        personas = try template.personas.map {
            try PersonaLoader.load(name: $0.name, path: $0.path, text: $0.text, host: host)
        }
    }

    /// Simulates the users of one chunk in a fresh in-memory store: one engine batch (one
    /// transaction, a savepoint per event) per user. With a database, the store is then written
    /// to a part file for the writer.
    func run(_ users: Range<Int>, chunkIndex: Int) throws -> ChunkResult {
        let config = template.config
        let store = try Store.inMemory(options: StoreOptions(deviceID: "rulesrun-simulate"))
        let engine = Engine(store: store, rules: rules)
        let idBase = template.idBase
        engine.userID = { name in Int64(name.dropFirst()).map { UserID($0) } }
        let simulator = UserSimulator(engine: engine, personas: personas, personaHost: personaHost, config: config)
        var days = Array(repeating: DayTotals(), count: config.days)
        for index in users {
            // Rules and personas that draw from math.random draw the same numbers for this user
            // whichever worker runs it.
            let seed = Int64(bitPattern: config.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
            try ruleSet?.host.seedRandom(seed)
            try personaHost.seedRandom(seed)
            let name = "u\(idBase + Int64(index) + 1)"
            try engine.batch { try simulator.run(index: index, name: name, into: &days) }
        }
        var part: String?
        if let prefix = template.partPrefix {
            let path = "\(prefix).part-\(chunkIndex)"
            try? FileManager.default.removeItem(atPath: path)
            try store.vacuum(into: path)
            part = path
        }
        return ChunkResult(days: days, part: part)
    }
}

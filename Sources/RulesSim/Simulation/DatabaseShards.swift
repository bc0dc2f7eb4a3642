import Foundation

/// `simulate --db-shards N`: the cohort cut into N slices of users (``Shard`` 1/N … N/N), each run
/// by its own ``Simulation`` with its own writer thread and its own database file
/// (``paths(of:count:)``), so that writing runs on N cores. The rule set is validated once; the
/// report is the one the whole run prints (``SimulationReport/merge(_:names:partial:)``), byte for
/// byte. The files take their places only when every slice succeeded: a failed run leaves every
/// previous file as it was. `rulesrun merge --db` combines the files into the database of the
/// whole run.
package final class DatabaseShards {
    package let config: SimulationConfig
    package let count: Int
    private let simulations: [Simulation]

    /// The files of `database` cut in `count`: `NAME-i-of-N.EXT` beside it.
    package static func paths(of database: String, count: Int) -> [String] {
        let ext = (database as NSString).pathExtension
        let stem = ext.isEmpty ? database : String(database.dropLast(ext.utf8.count + 1))
        return (1...count).map { "\(stem)-\($0)-of-\(count)" + (ext.isEmpty ? "" : ".\(ext)") }
    }

    /// Checks the configuration as ``Simulation/init(config:)`` does and locks the N files.
    /// `config.database` names the whole run's database; its shard must be the whole cohort.
    package init(config: SimulationConfig, count: Int) throws {
        guard let database = config.database else { throw SimulationError("--db-shards needs a database file") }
        guard config.shard == .whole, !config.append else { throw SimulationError("--db-shards runs the whole cohort into new files") }
        self.config = config
        self.count = count
        var simulations: [Simulation] = []
        var validated = config.validated
        for (i, path) in Self.paths(of: database, count: count).enumerated() {
            var part = config
            part.shard = Shard(index: i + 1, count: count)
            part.database = path
            part.jobs = max(1, config.jobs / count)
            part.validated = validated
            let simulation = try Simulation(config: part)
            simulation.defersCommit = true
            // The N writers share one writer's memory: page cache and rows waiting.
            simulation.sharing = count
            validated = simulation.config.validated
            simulations.append(simulation)
        }
        self.simulations = simulations
    }

    /// Runs the N slices at once; `progress` is called (on any thread, one call at a time) with
    /// (users done, users).
    package func run(progress: ((Int, Int) -> Void)? = nil) throws -> SimulationReport {
        let state = RunState(simulations: simulations, users: config.users, progress: progress)
        for i in simulations.indices {
            state.finished.enter()
            let thread = Thread { state.run(i) }
            thread.stackSize = 8 << 20
            thread.start()
        }
        state.finished.wait()
        var reports: [SimulationReport] = []
        do {
            for result in state.results { reports.append(try result!.get()) }
        } catch {
            for simulation in simulations { simulation.target?.discard() }
            throw error
        }
        for (i, simulation) in simulations.enumerated() {
            do { try simulation.target?.commit() } catch {
                for later in simulations[(i + 1)...] { later.target?.discard() }
                throw error
            }
        }
        return try SimulationReport.merge(reports, names: (1...count).map { "shard \($0)/\(count)" })
    }

    /// The slices' threads' shared state, behind `lock`.
    private final class RunState: @unchecked Sendable {
        let simulations: [Simulation]
        let users: Int
        let progress: ((Int, Int) -> Void)?
        let lock = NSLock()
        let finished = DispatchGroup()
        var done: [Int]
        var results: [Result<SimulationReport, any Error>?]

        init(simulations: [Simulation], users: Int, progress: ((Int, Int) -> Void)?) {
            self.simulations = simulations
            self.users = users
            self.progress = progress
            done = Array(repeating: 0, count: simulations.count)
            results = Array(repeating: nil, count: simulations.count)
        }

        func run(_ i: Int) {
            let result = Result {
                try simulations[i].run { users, _ in
                    self.lock.lock()
                    self.done[i] = users
                    self.progress?(self.done.reduce(0, +), self.users)
                    self.lock.unlock()
                }
            }
            lock.lock()
            results[i] = result
            lock.unlock()
            finished.leave()
        }
    }
}

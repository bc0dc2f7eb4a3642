import BuiltInDefaults
import Foundation
import LuaHost
import RulesEngine
import RulesSim
import RulesStore

/// What a replay costs against a simulation of the same events, in the same run: a cohort is
/// simulated in memory with its events kept (`simulate --no-db --events`), then its events are
/// replayed in memory line by line on one engine (the path of standard input, `--explain` and
/// `--check`) and in parallel by user (``ParallelReplay``, the path of a file); and with a database:
/// the cohort simulated into a file, SQLite alone copying its rows (``SQLiteFloor``), and the
/// events replayed into a new file line by line and in parallel by user (`replay --db`). Each is
/// CPU time of the whole process per event (what other processes on the machine do not inflate);
/// the parallel replay into a file is also wall time, against SQLite alone's (the target, as
/// `simulate`'s with the database: SQLite writes one file on one thread).
package enum ReplayBench {
    package struct Results: Sendable, Encodable {
        package var users: Int
        package var days: Int
        package var jobs: Int
        /// Input lines (every one an event).
        package var events: Int
        package var simulate_cpu_us: Double
        package var replay_sequential_cpu_us: Double
        package var replay_parallel_cpu_us: Double
        package var replay_parallel_wall_us: Double
        /// SQLite alone writing the rows of the simulation with a database, per event replayed.
        package var sqlite_floor_cpu_us: Double
        package var sqlite_floor_rows: Int
        /// Line by line, as standard input is.
        package var replay_db_cpu_us: Double
        package var sqlite_floor_wall_us: Double
        /// In parallel by user, as a file is (``ParallelReplay/run(into:next:write:windowEnd:)``).
        package var replay_db_parallel_cpu_us: Double
        package var replay_db_parallel_wall_us: Double
        /// A two-arm rollout of the same rules (both arms the built-in rules): `simulate` of it, and
        /// `analyze` of its log (every user replayed under its arm, every metric's statistics).
        package var rollout_simulate_cpu_us: Double
        package var analyze_cpu_us: Double
        package var analyze_over_simulate: Double { analyze_cpu_us / rollout_simulate_cpu_us }
        package var sequential_over_simulate: Double { replay_sequential_cpu_us / simulate_cpu_us }
        package var parallel_over_simulate: Double { replay_parallel_cpu_us / simulate_cpu_us }
        package var db_over_floor: Double { replay_db_cpu_us / sqlite_floor_cpu_us }
        /// The target's ratio: wall time of the parallel replay into a file over SQLite alone's.
        package var db_parallel_over_floor: Double { replay_db_parallel_wall_us / sqlite_floor_wall_us }

        enum CodingKeys: String, CodingKey {
            case users, days, jobs, events, simulate_cpu_us, replay_sequential_cpu_us, replay_parallel_cpu_us,
                replay_parallel_wall_us, sqlite_floor_cpu_us, sqlite_floor_rows, replay_db_cpu_us
            case sqlite_floor_wall_us, replay_db_parallel_cpu_us, replay_db_parallel_wall_us, db_parallel_over_floor
            case rollout_simulate_cpu_us, analyze_cpu_us, analyze_over_simulate
            case sequential_over_simulate, parallel_over_simulate, db_over_floor
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(users, forKey: .users)
            try c.encode(days, forKey: .days)
            try c.encode(jobs, forKey: .jobs)
            try c.encode(events, forKey: .events)
            try c.encode(simulate_cpu_us, forKey: .simulate_cpu_us)
            try c.encode(replay_sequential_cpu_us, forKey: .replay_sequential_cpu_us)
            try c.encode(replay_parallel_cpu_us, forKey: .replay_parallel_cpu_us)
            try c.encode(replay_parallel_wall_us, forKey: .replay_parallel_wall_us)
            try c.encode(sqlite_floor_cpu_us, forKey: .sqlite_floor_cpu_us)
            try c.encode(sqlite_floor_rows, forKey: .sqlite_floor_rows)
            try c.encode(replay_db_cpu_us, forKey: .replay_db_cpu_us)
            try c.encode(sequential_over_simulate, forKey: .sequential_over_simulate)
            try c.encode(parallel_over_simulate, forKey: .parallel_over_simulate)
            try c.encode(db_over_floor, forKey: .db_over_floor)
            try c.encode(sqlite_floor_wall_us, forKey: .sqlite_floor_wall_us)
            try c.encode(replay_db_parallel_cpu_us, forKey: .replay_db_parallel_cpu_us)
            try c.encode(replay_db_parallel_wall_us, forKey: .replay_db_parallel_wall_us)
            try c.encode(db_parallel_over_floor, forKey: .db_parallel_over_floor)
            try c.encode(rollout_simulate_cpu_us, forKey: .rollout_simulate_cpu_us)
            try c.encode(analyze_cpu_us, forKey: .analyze_cpu_us)
            try c.encode(analyze_over_simulate, forKey: .analyze_over_simulate)
        }
    }

    /// Measures a cohort of `users` over `days` days on the built-in rules and personas, with
    /// `jobs` workers; its files go in `directory` (the caller removes it).
    package static func run(users: Int, days: Int, jobs: Int, directory: String, progress: ((String) -> Void)? = nil) throws -> Results {
        let rules = BuiltInDefaults.name
        var config = SimulationConfig(
            duration: try SimulationDuration("\(days)d"), users: users, personaFolders: PersonaLoader.folders(rules: rules),
            rules: rules, jobs: jobs)
        config.recordsEvents = true
        progress?("simulate in memory")
        var text = ""
        let simulation = try Simulation(config: config)
        let simulated = try cpu { try simulation.run(events: { text += $0 }) }
        let lines = text.utf8.split(separator: UInt8(ascii: "\n")).map { Array($0) }
        let ruleSet = try RuleSet.load(rules)

        progress?("replay in memory, line by line")
        let sequential = try cpu {
            // As `replay` runs standard input, --explain and --check: the users' rows in memory.
            let replay = Replay.inMemory(rules: ruleSet, draws: RuleDraws(seed: 1))
            var rest = lines.makeIterator()
            var written = 0
            replay.inMemory { replay.run(next: { rest.next() }, writeValue: { written += $0.description.utf8.count }) }
            return written
        }

        progress?("replay in memory, \(jobs) workers")
        let parallelRules = try ruleSet.snapshot.load()
        let wallStarted = DispatchTime.now().uptimeNanoseconds
        let parallel = try cpu {
            let replay = try ParallelReplay(rules: parallelRules, options: ParallelReplay.Options(jobs: jobs))
            var rest = lines.makeIterator()
            var written = 0
            replay.run(next: { rest.next() }, write: { written += $0.text.utf8.count })
            return written
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - wallStarted) / 1e9

        progress?("simulate with a database, SQLite alone on its rows")
        let simulatedDB = (directory as NSString).appendingPathComponent("simulated.sqlite")
        let floorDB = (directory as NSString).appendingPathComponent("floor.sqlite")
        let replayedDB = (directory as NSString).appendingPathComponent("replayed.sqlite")
        var withDB = config
        withDB.database = simulatedDB
        withDB.recordsEvents = false
        _ = try Simulation(config: withDB).run()
        let floor = try SQLiteFloor.measure(copying: simulatedDB, into: floorDB)

        progress?("replay into a database, line by line")
        let replayDB = try cpu {
            let store = try Store.open(path: replayedDB)
            defer { try? store.close() }
            let replay = Replay(engine: Engine(store: store, rules: try ruleSet.snapshot.load()), draws: RuleDraws(seed: 1))
            var rest = lines.makeIterator()
            var written = 0
            replay.run(next: { rest.next() }, writeValue: { written += $0.description.utf8.count })
            return written
        }
        progress?("replay into a database, \(jobs) workers")
        let parallelDB = (directory as NSString).appendingPathComponent("replayed-parallel.sqlite")
        let dbWallStarted = DispatchTime.now().uptimeNanoseconds
        let replayDBParallel = try cpu {
            let store = try Store.open(path: parallelDB)
            defer { try? store.close() }
            var options = ParallelReplay.Options(jobs: jobs)
            options.journal = true
            let replay = try ParallelReplay(rules: try ruleSet.snapshot.load(), options: options)
            var rest = lines.makeIterator()
            var written = 0
            try replay.run(into: store, next: { rest.next() }, write: { written += $0.text.utf8.count })
            return written
        }
        let dbWall = Double(DispatchTime.now().uptimeNanoseconds - dbWallStarted) / 1e9

        progress?("a two-arm rollout: simulate, then analyze its log")
        var rollout = config
        let experiment = try BundleExperiment.allocate(
            name: "bench", salt: "bench", shares: [("control", 5000), ("treatment", 5000)], previous: nil)
        rollout.rollout = Rollout(experiment: experiment, revision: 1, bundle: "bench", folders: [rules, rules])
        var log = ""
        let rolloutSimulation = try Simulation(config: rollout)
        let rolloutSimulated = try cpu { try rolloutSimulation.run(events: { log += $0 }) }
        let rolloutLines = log.utf8.split(separator: UInt8(ascii: "\n")).map { Array($0) }
        let analyzed = try cpu {
            var events = EventLog()
            for (i, line) in rolloutLines.enumerated() { try events.add(line: line, number: i + 1) }
            return try RolloutAnalysis(log: events, rollout: rolloutSimulation.config.rollout!, jobs: jobs)
        }
        let r = Double(max(1, rolloutLines.count)) / 1e6

        let n = Double(max(1, lines.count)) / 1e6
        return Results(
            users: users, days: days, jobs: jobs, events: lines.count, simulate_cpu_us: simulated / n,
            replay_sequential_cpu_us: sequential / n, replay_parallel_cpu_us: parallel / n, replay_parallel_wall_us: wall / n,
            sqlite_floor_cpu_us: floor.cpuSeconds / n, sqlite_floor_rows: floor.rows, replay_db_cpu_us: replayDB / n,
            sqlite_floor_wall_us: floor.seconds / n, replay_db_parallel_cpu_us: replayDBParallel / n,
            replay_db_parallel_wall_us: dbWall / n,
            rollout_simulate_cpu_us: rolloutSimulated / r, analyze_cpu_us: analyzed / r)
    }

    /// The process's CPU seconds that `body` takes.
    static func cpu<T>(_ body: () throws -> T) rethrows -> Double {
        let started = SimulationBench.processCPUSeconds()
        _ = try body()
        return SimulationBench.processCPUSeconds() - started
    }
}

import Foundation
import LuaHost
import RulesSim
import RulesStore

/// Throughput of simulations, each against the others in the same run: the Lua rule set and the
/// native reference (`NativeReference`), each with the database written and in memory only.
package struct SimulationBench {
    package struct Measurement: Sendable {
        package var name: String
        /// Wall time.
        package var seconds: Double
        /// CPU time of the whole process (every thread), which other processes on the machine
        /// do not inflate.
        package var cpuSeconds: Double
        package var userDays: Int
        package var events: Int
        package var userDaysPerSecond: Double { Double(userDays) / seconds }
        package var eventsPerSecond: Double { Double(events) / seconds }
        package var userDaysPerCPUSecond: Double { Double(userDays) / cpuSeconds }
    }

    /// The four variants, and SQLite alone on the rows of the first (``SQLiteFloor``), with and
    /// without its foreign keys and CHECK constraints, and the first again with its database
    /// written in ``SimulationBench/shards`` files at once (`--db-shards`).
    package struct Results: Sendable {
        package var variants: [Measurement]
        package var floor: SQLiteFloor.Measurement
        package var floorUnchecked: SQLiteFloor.Measurement
        package var sharded: Measurement
    }

    package let config: SimulationConfig
    /// The files of the sharded run (`--db-shards N`).
    package let shards: Int

    package init(config: SimulationConfig, shards: Int = 2) {
        self.config = config
        self.shards = max(1, shards)
    }

    /// Runs the four variants (Lua with the database first: the run the targets are about), and
    /// copies the rows of the first with SQLite alone (into `DB.rulesrun-floor`, removed after).
    /// The runs with the database write `config.database`, or, when it is nil, a temporary file
    /// beside the default database (``SimulationConfig/benchDatabase()``), removed afterwards: the user's last
    /// run is left as it is.
    package func measure(progress: ((String) -> Void)? = nil) throws -> Results {
        let database = config.database ?? SimulationConfig.benchDatabase()
        // The files as the system sees them (``WorkingFolder``); the runs are given `database` as named.
        let floorPath = WorkingFolder.resolve(database + ".rulesrun-floor")
        var removed = [floorPath] + DatabaseShards.paths(of: database, count: shards).map(WorkingFolder.resolve)
        if config.database == nil { removed.append(WorkingFolder.resolve(database)) }
        let cleanup = InterruptCleanup.add(removed.flatMap(Store.files(of:)))
        let folder = (WorkingFolder.resolve(database) as NSString).deletingLastPathComponent
        let folderExisted = folder.isEmpty || FileManager.default.fileExists(atPath: folder)
        defer {
            for path in removed { Store.removeFiles(of: path) }
            if !folderExisted { rmdir(folder) }  // only when left empty
            InterruptCleanup.remove(cleanup)
        }
        let variants: [(String, Bool, String?)] = [
            ("Lua rules, with database", false, database),
            ("Lua rules, in memory", false, nil),
            ("native reference, with database", true, database),
            ("native reference, in memory", true, nil),
        ]
        var out: [Measurement] = []
        var floors: [SQLiteFloor.Measurement] = []
        for (name, reference, db) in variants {
            progress?(name)
            var c = config
            c.reference = reference
            c.database = db
            c.append = false
            let simulation = try Simulation(config: c)
            out.append(try Self.time(name) { try simulation.run() })
            if let db, floors.isEmpty {
                for checked in [true, false] {
                    progress?(checked ? "SQLite alone, the same rows" : "SQLite alone, without foreign keys and CHECK constraints")
                    defer { Store.removeFiles(of: floorPath) }
                    floors.append(try SQLiteFloor.measure(copying: WorkingFolder.resolve(db), into: floorPath, checked: checked))
                }
            }
        }
        let name = "Lua rules, --db-shards \(shards)"
        progress?(name)
        var c = config
        c.database = database
        c.append = false
        let sharded = try DatabaseShards(config: c, count: shards)
        let shardedRun = try Self.time(name) { try sharded.run() }
        return Results(variants: out, floor: floors[0], floorUnchecked: floors[1], sharded: shardedRun)
    }

    /// The wall and CPU time of `run`.
    static func time(_ name: String, _ run: () throws -> SimulationReport) rethrows -> Measurement {
        let started = DispatchTime.now().uptimeNanoseconds
        let cpuStarted = processCPUSeconds()
        let report = try run()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let cpu = processCPUSeconds() - cpuStarted
        let summary = ReportSummary(report)
        return Measurement(name: name, seconds: seconds, cpuSeconds: cpu, userDays: summary.userDays, events: summary.events)
    }

    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

import Foundation
import RulesBench
import RulesSim

extension SimulationBench {
    /// Runs the measurements and prints them with the targets of the issue.
    func run() throws {
        let measured = try measure { name in Terminal.error("running: \(name)") }
        let results = measured.variants
        print(
            "simulate \(config.duration) --users \(config.users) --jobs \(config.jobs) (seed \(config.seed), personas \(config.mix.description))"
        )
        print("                                        wall      CPU    user-days/s   events/s   user-days per CPU-s")
        for r in results {
            let name = r.name.padding(toLength: 34, withPad: " ", startingAt: 0)
            print(
                "  \(name) \(String(format: "%7.2f", r.seconds)) s \(String(format: "%7.2f", r.cpuSeconds)) s  \(String(format: "%10.0f", r.userDaysPerSecond))  \(String(format: "%10.0f", r.eventsPerSecond))  \(String(format: "%12.0f", r.userDaysPerCPUSecond))"
            )
        }
        let lua = results[0], luaMemory = results[1], native = results[2], nativeMemory = results[3]
        for (name, floor) in [
            ("SQLite alone, the same rows", measured.floor),
            ("  without foreign keys, CHECKs", measured.floorUnchecked),
        ] {
            print(
                "  \(name.padding(toLength: 34, withPad: " ", startingAt: 0)) \(String(format: "%7.2f", floor.seconds)) s \(String(format: "%7.2f", floor.cpuSeconds)) s  "
                    + "\(floor.rows) rows copied into the same schema, one thread")
        }
        print(
            String(
                format: "  wall time with the database: %.2f s (target <= 10 s for 30d x 10,000 users; SQLite alone: %.2f s)",
                lua.seconds, measured.floor.seconds))
        print(
            String(
                format: "  Lua / reference throughput (CPU): %.2f with the database, %.2f in memory (target >= 0.33)",
                lua.userDaysPerCPUSecond / native.userDaysPerCPUSecond,
                luaMemory.userDaysPerCPUSecond / nativeMemory.userDaysPerCPUSecond))
        print(String(format: "  the database's share of the Lua run's CPU time: %.0f%%", 100 * (1 - luaMemory.cpuSeconds / lua.cpuSeconds)))
    }
}

import Foundation
import RulesBench
import RulesSim

extension SimulationBench {
    /// Issue 20's target: a run's wall time with the database at most this many times SQLite's
    /// alone on the same rows.
    static let databaseTarget = 1.25
    /// Issue 20's target: microseconds of CPU per event in memory, at most.
    static let microsecondsPerEventTarget = 4.0

    /// Runs the measurements and prints them with the targets of the issue.
    func run() throws {
        let measured = try measure { name in Terminal.error("running: \(name)") }
        let results = measured.variants
        Terminal.print(
            "simulate \(config.duration) --users \(config.users) --jobs \(config.jobs) (seed \(config.seed), personas \(config.mix.description))"
        )
        Terminal.print("                                        wall      CPU    user-days/s   events/s   user-days per CPU-s")
        for r in results + [measured.sharded] {
            let name = r.name.padding(toLength: 34, withPad: " ", startingAt: 0)
            Terminal.print(
                "  \(name) \(String(format: "%7.2f", r.seconds)) s \(String(format: "%7.2f", r.cpuSeconds)) s  \(String(format: "%10.0f", r.userDaysPerSecond))  \(String(format: "%10.0f", r.eventsPerSecond))  \(String(format: "%12.0f", r.userDaysPerCPUSecond))"
            )
        }
        let lua = results[0], luaMemory = results[1], native = results[2], nativeMemory = results[3]
        for (name, floor) in [
            ("SQLite alone, the same rows", measured.floor),
            ("  without foreign keys, CHECKs", measured.floorUnchecked),
        ] {
            Terminal.print(
                "  \(name.padding(toLength: 34, withPad: " ", startingAt: 0)) \(String(format: "%7.2f", floor.seconds)) s \(String(format: "%7.2f", floor.cpuSeconds)) s  "
                    + "\(floor.rows) rows copied into the same schema, one thread")
        }
        func met(_ ok: Bool) -> String { ok ? "met" : "not met" }
        func f(_ value: Double) -> String { String(format: "%.2f", value) }
        let floor = measured.floor.seconds
        for run in [lua, measured.sharded] {
            let ratio = run.seconds / floor
            Terminal.print(
                "  \(run.name): wall \(f(run.seconds)) s = \(f(ratio)) x SQLite alone (\(f(floor)) s); "
                    + "target <= \(f(Self.databaseTarget)) x: \(met(ratio <= Self.databaseTarget))")
        }
        let perEvent = luaMemory.cpuSeconds * 1e6 / Double(max(luaMemory.events, 1))
        Terminal.print(
            "  \(luaMemory.name): \(f(perEvent)) us of CPU per event (\(luaMemory.events) events); "
                + "target <= \(f(Self.microsecondsPerEventTarget)) us: \(met(perEvent <= Self.microsecondsPerEventTarget))")
        let tenThousand = config.users == 10_000 && config.days == 30
        Terminal.print(
            "  wall time with the database: \(f(lua.seconds)) s; target <= 10 s for 30d x 10,000 users: "
                + (tenThousand ? met(lua.seconds <= 10) : "not measured here (give 30d --users 10000)"))
        let luaNative = lua.userDaysPerCPUSecond / native.userDaysPerCPUSecond
        let luaNativeMemory = luaMemory.userDaysPerCPUSecond / nativeMemory.userDaysPerCPUSecond
        Terminal.print(
            "  Lua / reference throughput (CPU): \(f(luaNative)) with the database, \(f(luaNativeMemory)) in memory; "
                + "target >= 0.33: \(met(min(luaNative, luaNativeMemory) >= 0.33))")
        Terminal.print(String(format: "  the database's share of the Lua run's CPU time: %.0f%%", 100 * (1 - luaMemory.cpuSeconds / lua.cpuSeconds)))
    }
}

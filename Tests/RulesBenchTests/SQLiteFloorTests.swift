import Foundation
import RulesBench
import RulesSim
import RulesStore
import Testing

@Suite struct SQLiteFloorTests {
    /// `simulate --bench` measures SQLite alone on a run's rows (`SQLiteFloor`): the copy must hold
    /// exactly the rows the simulation wrote, with and without the constraints checked, and leave
    /// the simulation's file as it was.
    @Test func sqliteAloneCopiesEveryRowOfTheRun() throws {
        let dir = try BenchTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("run.sqlite").path
        _ = try Simulation(config: try BenchTestSupport.config(days: 5, users: 12, database: path)).run()
        let withoutMeta = { (dump: String) in
            dump.components(separatedBy: "## ").filter { !$0.hasPrefix("meta ") && !$0.hasPrefix("grdb_migrations ") }.joined(
                separator: "## ")
        }
        let dumpOf = { (path: String) throws -> String in
            let store = try Store.open(path: path)
            defer { try? store.close() }
            return withoutMeta(try store.dump())
        }
        let original = try dumpOf(path)
        for checked in [true, false] {
            let copy = dir.appendingPathComponent("copy-\(checked).sqlite").path
            let floor = try SQLiteFloor.measure(copying: path, into: copy, checked: checked)
            #expect(floor.rows > 12 * 5)
            #expect(try dumpOf(copy) == original, "checked: \(checked)")
            Store.removeFiles(of: copy)
        }
        #expect(try dumpOf(path) == original)
    }
}

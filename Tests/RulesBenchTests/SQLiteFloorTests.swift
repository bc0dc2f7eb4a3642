import Foundation
@testable import RulesBench
import GRDB
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

    /// The floor copies every table after the tables its foreign keys refer to, so that each row
    /// is checked as it is inserted (as the bulk writer's are): with the checks deferred to the
    /// commit, a parent copied after its children (schema v3 rebuilt `tracker_task`) made SQLite
    /// look for its children again, and the floor took 128 s where the run took 52 s.
    @Test func tablesAreCopiedParentsFirst() throws {
        let dir = try BenchTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try Store.open(path: dir.appendingPathComponent("schema.sqlite").path)
        defer { try? store.close() }
        try store.read { snapshot in
            let db = snapshot.db
            let (tables, cyclic) = try SQLiteFloor.parentsFirst(db)
            let created = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
            #expect(!cyclic && Set(tables) == Set(created) && tables.count == created.count)
            var children = 0
            for (position, table) in tables.enumerated() {
                for parent in try String.fetchAll(db, sql: "SELECT \"table\" FROM pragma_foreign_key_list(?)", arguments: [table])
                where parent != table {
                    children += 1
                    let at = try #require(tables.firstIndex(of: parent), "\(table) refers to \(parent)")
                    #expect(at < position, "\(parent) must come before \(table)")
                }
            }
            #expect(children > 5)
            // The order the tables were created in is not parents first: the reason for the sort.
            #expect(created != tables)
        }
    }
}

import Foundation
import GRDB
@testable import RulesStore
import RulesModel
import Testing

/// A temporary directory removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("rulesstore-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A store in a real file with one user set up on 2026-02-01.
struct Fixture {
    let directory: TemporaryDirectory
    let store: Store
    let path: String
    let user = UserID(1)
    let day: DayID
    let now: EpochMillis

    init(name: String = "test.sqlite") throws {
        directory = try TemporaryDirectory()
        path = directory.file(name)
        store = try Store.open(path: path, options: StoreOptions(deviceID: "test-device"))
        day = try DayID("2026-02-01")
        now = day.utcStartMillis + 10 * Millis.hour
        try store.createUser(user, day: day, timezoneID: "UTC", now: now, makeUUID: Fixture.uuids(seed: 1))
    }

    /// A deterministic UUID source.
    static func uuids(seed: UInt64) -> () -> UUID {
        let box = GeneratorBox(SeededGenerator(seed: seed))
        return { box.uuid() }
    }

    /// Raw SQL on the store's database, for tests that damage or inspect rows directly.
    func raw(_ sql: String, _ arguments: StatementArguments = [], foreignKeys: Bool = true) throws {
        try store.writer.writeWithoutTransaction { db in
            if !foreignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
            defer { if !foreignKeys { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
            try db.execute(sql: sql, arguments: arguments)
        }
    }

    func count(_ table: String, _ condition: String = "1") throws -> Int {
        try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(condition)") ?? 0 }
    }

    func json(_ sql: String, _ arguments: StatementArguments = []) throws -> [String] {
        try store.writer.read { db in try String.fetchAll(db, sql: sql, arguments: arguments) }
    }
}

final class GeneratorBox: @unchecked Sendable {
    var generator: SeededGenerator
    init(_ generator: SeededGenerator) { self.generator = generator }
    func uuid() -> UUID { generator.uuid() }
}

struct InjectedFault: Error {}

/// Runs `body`, expects it to throw, and expects the database dump to be unchanged.
func expectUnchanged(_ store: Store, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) throws {
    let before = try store.dump()
    #expect(throws: (any Error).self, sourceLocation: sourceLocation) { try body() }
    let after = try store.dump()
    #expect(before == after, "the failed operation changed the database", sourceLocation: sourceLocation)
}

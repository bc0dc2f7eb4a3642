import Foundation
import GRDB
import RulesModel
import Testing

@testable import RulesStore

/// Users' exposures to experiments' arms (`experiment_exposure`, migration 4) in both storages:
/// the store's operations and a user's records in memory make the same checks and leave the same
/// rows; a database of migration level 3 gains the table; retention never deletes them.
@Suite struct ExposureStoreTests {
    func exposure(
        _ f: Fixture, _ experiment: String = "checkout-2026", _ arm: String = "treatment", revision: Int = 3, at offset: EpochMillis = 0
    ) -> ExperimentExposure {
        ExperimentExposure(userID: f.user, experiment: experiment, arm: arm, revision: revision, exposedAt: f.now + offset)
    }

    @Test func aVersionThreeDatabaseGainsTheTableAndKeepsItsData() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("v3.sqlite")
        // A version-3 file: the first three migrations, then a user with a task.
        let queue = try GRDB.DatabaseQueue(path: path)
        try Migrations.migrator.migrate(queue, upTo: "0003_habit_marks")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO app_user(user_id, created_ts_utc_ms) VALUES (1, 0)")
            try db.execute(
                sql: """
                    INSERT INTO tracker_task(task_id, user_id, title, created_ts_utc_ms, updated_ts_utc_ms)
                    VALUES (?, 1, 'Read', 5, 6)
                    """, arguments: [UUID().blob])
        }
        #expect(try queue.read { db in try Migrations.recordedVersion(db) } == 3)
        #expect(try queue.read { db in try db.tableExists("experiment_exposure") } == false)
        try queue.close()

        let store = try Store.open(path: path, options: StoreOptions(deviceID: "d"))
        #expect(try store.migrationLevel() == Migrations.currentVersion)
        #expect(try store.read { try $0.tasks(UserID(1)) }.map(\.title) == ["Read"])
        let migrations = try store.writer.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY 1") }
        #expect(Array(migrations.prefix(4)) == ["0001_initial", "0002_engine_state", "0003_habit_marks", "0004_experiment_exposure"])
        let columns = try store.writer.read { db in try db.columns(in: "experiment_exposure").map(\.name) }
        #expect(columns == ["user_id", "experiment", "arm", "revision", "ts_utc_ms"])
        let first = ExperimentExposure(userID: UserID(1), experiment: "e", arm: "a", revision: 1, exposedAt: 1_772_400_000_000)
        try store.addExposure(first)
        #expect(try store.exposures(UserID(1)) == [first])
        #expect(try store.writer.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }.isEmpty)
    }

    @Test func theFirstExposureToAnArmIsKeptAndAnotherArmIsAnotherRow() throws {
        let f = try Fixture()
        let first = exposure(f)
        try f.store.addExposure(first)
        let error = try #require(throws: StoreError.self) { try f.store.addExposure(exposure(f, revision: 4, at: Millis.hour)) }
        #expect(error.code == .constraint)
        #expect(error.message == "ExperimentExposure: user 1 was already exposed to arm treatment of experiment checkout-2026")
        let other = exposure(f, "checkout-2026", "control", revision: 4, at: Millis.hour)
        try f.store.addExposure(other)
        #expect(try f.store.exposures(f.user) == [first, other])
        #expect(try f.store.exposure(f.user, experiment: "checkout-2026", arm: "treatment") == first)
        #expect(try f.store.exposure(f.user, experiment: "checkout-2026", arm: "nobody") == nil)
        #expect(try f.store.exposure(UserID(2), experiment: "checkout-2026", arm: "treatment") == nil)
        #expect(try f.store.checkInvariants().isEmpty)
    }

    /// What both storages refuse, with the same error, changing nothing.
    @Test func bothStoragesRefuseTheSameExposures() throws {
        let f = try Fixture()
        let records = try UserRecords(f.user, day: f.day, now: f.now)
        let storages: [any UserStorage] = [f.store, records]
        let cases: [(ExperimentExposure, String)] = [
            (exposure(f, revision: 0), "ExperimentExposure.revision: from 1 to 2147483647, found 0"),
            (
                exposure(f, String(repeating: "x", count: 41)),
                "ExperimentExposure.experiment: 1 to 40 of a-z, 0-9, '-', '_' and '.', found \"\(String(repeating: "x", count: 41))\""
            ),
            (exposure(f, "checkout", "Treatment"), "ExperimentExposure.arm: 1 to 40 of a-z, 0-9, '-', '_' and '.', found \"Treatment\""),
            (exposure(f, at: -f.now - 1), "ExperimentExposure.ts_utc_ms"),
        ]
        for storage in storages {
            for (refused, message) in cases {
                let error = try #require(throws: ModelValidationError.self) { try storage.addExposure(refused) }
                #expect(error.description.hasPrefix(message), "\(error)")
            }
            var stranger = exposure(f)
            stranger.userID = UserID(9)
            #expect(throws: StoreError.notFound("user", "9")) { try storage.addExposure(stranger) }
            #expect(try storage.exposures(f.user).isEmpty)
        }
    }

    /// A user's exposures recorded in memory (rolled back with the rest of a refused event) and
    /// written by the bulk writer are the rows the store's operations write.
    @Test func recordsInMemoryWriteTheRowsOfTheStoresOperations() throws {
        let f = try Fixture()
        try f.store.addExposure(exposure(f, "b", "x"))
        try f.store.addExposure(exposure(f, "a", "y"))
        try f.store.addExposure(exposure(f, "a", "x", revision: 7, at: Millis.day))

        let records = try UserRecords(f.user, day: f.day, now: f.now, makeUUID: Fixture.uuids(seed: 1))
        try records.addExposure(exposure(f, "b", "x"))
        let savepoint = records.savepoint()
        try records.addExposure(exposure(f, "a", "x", revision: 2))
        records.rollback(to: savepoint)
        #expect(try records.exposure(f.user, experiment: "a", arm: "x") == nil)
        try records.addExposure(exposure(f, "a", "y"))
        try records.addExposure(exposure(f, "a", "x", revision: 7, at: Millis.day))
        #expect(throws: StoreError.self) { try records.addExposure(exposure(f, "a", "y", revision: 9)) }
        // Read back in the store's order: by instant, then experiment and arm.
        #expect(try records.exposures(f.user) == (try f.store.exposures(f.user)))
        #expect(try records.exposures(f.user).map(\.experiment) == ["a", "b", "a"])

        let written = try Store.inMemory(options: StoreOptions(deviceID: "test-device"))
        try BulkWriter(store: written).write([records])
        let rows = { (store: Store) in
            try store.writer.read { db in try Row.fetchAll(db, sql: "SELECT * FROM experiment_exposure ORDER BY rowid").map(\.description) }
        }
        #expect(try rows(written) == (try rows(f.store)))
        #expect(try rows(written).count == 3)
        #expect(try written.checkInvariants().isEmpty)
    }

    /// Analysis by arm needs every exposure: no cleanup deletes one, however old.
    @Test func retentionDeletesNoExposure() throws {
        let f = try Fixture()
        try f.setUpEarned(credits: 100)
        try f.store.addExposure(exposure(f))
        let later = f.now + 4_000 * Millis.day
        #expect(try f.store.applyRetention(now: later).deleted["experiment_exposure"] == nil)
        try f.store.applyEarnedRetention(f.user, now: later, policy: RetentionPolicy.seeds)
        #expect(try f.store.exposures(f.user) == [exposure(f)])
    }
}

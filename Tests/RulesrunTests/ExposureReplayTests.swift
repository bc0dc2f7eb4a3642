import Foundation
import GRDB
import Testing

/// `exposure` events through `rulesrun replay` (docs/replay.md, "Exposures"): the same output
/// with and without `--db`, the rows of `experiment_exposure` in the database, and the type in
/// `rulesrun schema events`.
@Suite struct ExposureReplayTests {
    static let example = "examples/replay/exposures.jsonl"

    @Test func replayWithAndWithoutADatabasePrintsTheSameAndStoresTheFirstExposures() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("exposures.sqlite").path
        let inMemory = try CLI.run(["replay", Self.example])
        let onFile = try CLI.run(["replay", Self.example, "--db", path])
        #expect(inMemory.status == 0, "\(inMemory.stderr)")
        #expect(onFile.status == 0, "\(onFile.stderr)")
        #expect(onFile.stdout == inMemory.stdout)
        let lines = inMemory.stdout.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(
            lines[3].contains(
                #""decisions":{"exposure":{"experiment":"checkout-2026","arm":"treatment","revision":3,"first":false}}"#),
            "\(lines[3])")

        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let rows = try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT s.name, e.experiment, e.arm, e.revision, e.ts_utc_ms FROM experiment_exposure e
                    JOIN engine_state s ON s.user_id = e.user_id ORDER BY e.ts_utc_ms
                    """
            ).map { row -> String in
                "\(row[0] as String) \(row[1] as String) \(row[2] as String) \(row[3] as Int) \(row[4] as Int64)"
            }
        }
        #expect(
            rows == [
                "u1 checkout-2026 treatment 3 1772436600000", "u2 checkout-2026 control 3 1772436660000",
                "u2 checkout-2026 treatment 5 1773041400000",
            ])
        let level = try queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'rulesrun_migration'") }
        #expect(level == "4")
    }

    @Test func theEventsSchemaHasTheType() throws {
        let result = try CLI.run(["schema", "events"])
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let branch = try #require(
            (root["allOf"] as? [[String: Any]])?.first { entry in
                (((entry["if"] as? [String: Any])?["properties"] as? [String: Any])?["type"] as? [String: Any])?["const"] as? String
                    == "exposure"
            }?["then"] as? [String: Any])
        #expect((branch["required"] as? [String]) == ["at", "type", "experiment", "arm", "revision"])
        let properties = try #require(branch["properties"] as? [String: Any])
        #expect((properties["experiment"] as? [String: Any])?["pattern"] as? String == "^[a-z0-9._-]{1,40}$")
        #expect((properties["revision"] as? [String: Any])?["minimum"] as? Int == 1)
    }
}

import Foundation
import GRDB
import Testing

/// `simulate --events FILE`: the cohort's events as the apps would log them, which `replay`
/// turns into the same database, every user's end state included.
@Suite struct SimulateEventsTests {
    /// Every table's rows, in order (the `meta` row's device id differs from file to file).
    func rows(_ path: String) throws -> [String: [String]] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'meta' ORDER BY name")
            var out: [String: [String]] = [:]
            for table in tables {
                out[table] = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\" ORDER BY 1").map(\.description).sorted()
            }
            return out
        }
    }

    @Test func theEventsReplayIntoTheSameDatabase() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (events, simulated, replayed) = (
            dir.appendingPathComponent("events.jsonl").path, dir.appendingPathComponent("sim.sqlite").path,
            dir.appendingPathComponent("replay.sqlite").path
        )
        let simulate = try CLI.run(["simulate", "6d", "--users", "8", "--db", simulated, "--events", events])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        #expect(lines.count > 100)
        // User after user, each in time order.
        var users: [String] = []
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let user = try #require(object["user"] as? String)
            if users.last != user { users.append(user) }
        }
        #expect(users == (1...8).map { "u\($0)" })
        let replay = try CLI.run(["replay", events, "--db", replayed])
        #expect(replay.status == 0, "\(replay.stderr.prefix(500))")
        let a = try rows(simulated), b = try rows(replayed)
        #expect(a.keys.sorted() == b.keys.sorted() && !a.isEmpty)
        for table in a.keys.sorted() { #expect(a[table] == b[table], "\(table)") }
        #expect((a["engine_state"]?.count ?? 0) == 8)
    }

    @Test func oneRunsEventsOnly() throws {
        let result = try CLI.run(["simulate", "2d", "--users", "2", "--replicas", "2", "--events", "e.jsonl"])
        #expect(result.status != 0 && result.stderr.contains("--events writes one run's events; leave out --replicas"), "\(result.stderr)")
    }
}

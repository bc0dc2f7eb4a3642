import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import GRDB
import Testing

/// A database path is a path, whatever it reads as: SQLite (built with SQLITE_USE_URI, as
/// Debian's is) would read a name beginning with `file:` as a URI — another file (`file:x.sqlite`
/// is `x.sqlite`), or none (`?mode=memory`) — while rulesrun locks, renames and removes the file
/// the path names. replay, simulate and merge write and read the file named, leave nothing else,
/// and a lock held on the file a URI would name does not stop them (it is not theirs).
@Suite struct DatabasePathTests {
    static let rules = CLI.packageRoot.appendingPathComponent("rules").path
    static let events = CLI.packageRoot.appendingPathComponent("examples/replay/habits-and-miga.jsonl").path
    static let names = [
        "file:x.sqlite", "file:x.sqlite?mode=memory", "file:x.sqlite?immutable=1", "file:x.sqlite?mode=ro", "file:%78.sqlite",
        "file:x.sqlite#y", "x?%41#.sqlite",
    ]

    /// The users of the database file `name` in `dir` (opened by its absolute path: not a URI).
    func users(_ name: String, in dir: URL) throws -> Int {
        let queue = try DatabaseQueue(path: dir.appendingPathComponent(name).path)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM app_user") ?? -1 }
    }

    func files(_ dir: URL) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() }

    @Test(arguments: names) func replayAndSimulateWriteTheFileNamed(_ name: String) throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let replay = try CLI.run(["replay", Self.events, "--rules", Self.rules, "--db", name], in: dir)
        #expect(replay.status == 0, "\(name): \(replay.stderr)")
        #expect(try files(dir) == [name])
        #expect(try users(name, in: dir) == 1)
        try FileManager.default.removeItem(at: dir.appendingPathComponent(name))
        let simulate = try CLI.run(["simulate", "3d", "--users", "4", "--rules", Self.rules, "--db", name], in: dir)
        #expect(simulate.status == 0, "\(name): \(simulate.stderr)")
        #expect(try files(dir) == [name])
        #expect(try users(name, in: dir) == 4)
    }

    /// `x.sqlite`, held by another run, is not what `--db file:x.sqlite` names: the replay writes
    /// its own file and leaves `x.sqlite` as it was.
    @Test func aLockOnTheFileAURIWouldNameIsNotTheRunsLock() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.run(["replay", Self.events, "--rules", Self.rules, "--db", "x.sqlite"], in: dir).status == 0)
        let other = dir.appendingPathComponent("x.sqlite").path
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        let lock = open(other, O_RDONLY | O_CLOEXEC)
        defer { close(lock) }
        #expect(lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0)
        let replay = try CLI.run(["replay", Self.events, "--rules", Self.rules, "--db", "file:x.sqlite"], in: dir)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
        #expect(try files(dir) == ["file:x.sqlite", "x.sqlite"])
        #expect(try users("file:x.sqlite", in: dir) == 1)
    }

    /// Shards written under such names merge into such a name; nothing else is left.
    @Test func mergeReadsAndWritesTheFilesNamed() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = ["simulate", "3d", "--users", "6", "--rules", Self.rules, "--db", "file:r?mode=memory", "--db-shards", "2"]
        let simulate = try CLI.run(run, in: dir)
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let shards = ["file:r?mode=memory-1-of-2", "file:r?mode=memory-2-of-2"]
        #expect(try files(dir) == shards)
        for name in Self.names {
            for (i, shard) in shards.enumerated() {
                try FileManager.default.copyItem(at: dir.appendingPathComponent(shard), to: dir.appendingPathComponent("\(name)-\(i + 1)"))
            }
            let merge = try CLI.run(["merge", "--db", name, name + "-1", name + "-2"], in: dir)
            #expect(merge.status == 0, "\(name): \(merge.stderr)")
            #expect(try users(name, in: dir) == 6, "\(name)")
        }
        let written = Self.names.flatMap { [$0, $0 + "-1", $0 + "-2"] }
        #expect(try files(dir) == (shards + written).sorted())
    }
}

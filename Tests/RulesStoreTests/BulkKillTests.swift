import Foundation
import GRDB
@testable import RulesStore
import RulesModel
import Testing

/// A real child process (the `StoreFaultChild` executable) is killed with SIGKILL while a bulk
/// transaction is open; the database it leaves passes `PRAGMA integrity_check` and
/// `checkInvariants` and holds whole user-days only.
@Suite struct BulkKillTests {
    /// The child executable, built next to the test bundle by `swift build --build-tests`.
    static func childExecutable() throws -> URL {
        var candidates: [URL] = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        candidates.append(Bundle(for: TemporaryDirectory.self).bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        for directory in candidates {
            var url = directory
            // Walk up from inside an .xctest bundle (macOS) to the build directory.
            for _ in 0..<4 {
                let child = url.appendingPathComponent("StoreFaultChild")
                if FileManager.default.isExecutableFile(atPath: child.path) { return child }
                url.deleteLastPathComponent()
            }
        }
        throw StoreError(.notFound, "StoreFaultChild not found next to \(candidates.map(\.path)); build with `swift build --build-tests`")
    }

    /// Reads the child's standard output line by line until `predicate` accepts a line; returns
    /// every line read (the last one is the accepted line, or the output ended).
    static func readLines(_ handle: FileHandle, until predicate: (String) -> Bool) -> [String] {
        var lines: [String] = []
        var buffer = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { return lines }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                lines.append(line)
                if predicate(line) { return lines }
            }
        }
    }

    /// Also for a file opened for a bulk load (a rollback journal instead of WAL while it is written).
    @Test(arguments: [false, true])
    func sigkillInTheMiddleOfABulkWriteLeavesWholeUserDaysOnly(bulkLoad: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("killed.sqlite")
        let (users, perBatch, pauseBatch) = (12, 5, 3)
        let process = Process()
        process.executableURL = try Self.childExecutable()
        process.arguments = [path, "\(users)", "\(perBatch)", "10", "\(pauseBatch)"] + (bulkLoad ? ["bulk-load"] : [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let lines = Self.readLines(output.fileHandleForReading) { $0 == "midway \(pauseBatch)" }
        #expect(lines.last == "midway \(pauseBatch)", "the child stopped early: \(lines)")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        #expect(lines.filter { $0.hasPrefix("committed") } == (0..<pauseBatch).map { "committed \($0)" })

        #expect(FileManager.default.fileExists(atPath: path + (bulkLoad ? "-journal" : "-wal")), "the open transaction's journal")
        let store = try Store.open(path: path)
        #expect(try store.pragmas()["journal_mode"] == "wal")
        #expect(try store.integrityCheck() == ["ok"])
        #expect(try store.checkInvariants() == [])
        // Exactly the committed batches are there: every user has days 0 ..< pauseBatch × perBatch,
        // each complete, and nothing of the batch that was being written.
        let expectedDays = pauseBatch * perBatch
        let start = try DayID("2026-03-01")
        try store.read { snapshot in
            for u in 1...users {
                let user = UserID(Int64(u))
                let far = start.adding(days: 400)!
                let commitments = try snapshot.commitmentHistory(user, lastDays: 1000, endingOn: far)
                #expect(commitments.map(\.day) == (0..<expectedDays).map { start.adding(days: $0)! }, "user \(u)")
                for dayIndex in 0..<expectedDays {
                    let day = start.adding(days: dayIndex)!
                    let from = day.utcStartMillis, to = from + Millis.day
                    #expect(try snapshot.notifications(user, from: from, to: to).count == 3)
                    #expect(
                        try snapshot.completions(user, from: from, to: to).count
                            == SyntheticCohort.completionsPerDay(user: user, dayIndex: dayIndex))
                    #expect(try snapshot.usageEvents(user, from: from, to: to).count == 2)
                }
                let after = start.adding(days: expectedDays)!.utcStartMillis
                #expect(try snapshot.notifications(user, from: after, to: far.utcStartMillis).isEmpty)
                #expect(try snapshot.completions(user, from: after, to: far.utcStartMillis).isEmpty)
                #expect(try snapshot.usageEvents(user, from: after, to: far.utcStartMillis).isEmpty)
                #expect(try snapshot.economyState(user).currentDayID == start.adding(days: expectedDays - 1)!)
            }
        }
    }
}
